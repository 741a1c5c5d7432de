//! Cross-validation of any learner through the library: a cancellation (the CLI's Ctrl-C)
//! keeps the fold that was running with `completed: false`, starts no later fold, and the
//! summaries cover the completed folds only.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::repo_path;
use oxilearn::KnowledgeBase;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::experiment::{CvOutcome, cross_validate, cross_validate_with};
use oxilearn::learn::{Examples, RunControl, Termination};
use oxilearn::refine::rho::RhoOptions;

fn family() -> (KnowledgeBase, Examples) {
    let kb = KnowledgeBase::from_files(&[repo_path("fixtures/family/family.ttl")])
        .expect("the family fixture loads");
    let problems = KnowledgeBase::load_problems(&repo_path("fixtures/family/problems.json"), &[])
        .expect("problems load");
    let father = problems
        .iter()
        .find(|p| p.name == "Father")
        .expect("a Father problem");
    let examples = kb.examples(father).expect("examples");
    (kb, examples)
}

fn control() -> RunControl {
    RunControl::unlimited().with_max_tests(500)
}

/// Three folds of CELOE; `control_for(fold)` may set the flag it is given.
fn cv_with(on_fold: impl Fn(usize, &Arc<AtomicBool>, RunControl) -> RunControl) -> CvOutcome {
    let (kb, examples) = family();
    let rho = kb.rho(RhoOptions::default()).expect("operator");
    let celoe = Celoe::new(CeloeParams::default(), &rho).expect("valid");
    let flag = Arc::new(AtomicBool::new(false));
    cross_validate_with(&celoe, kb.oracle(), &examples, 3, 1, &mut |i, _| {
        on_fold(i, &flag, control().with_cancel(flag.clone()))
    })
    .expect("cv")
}

#[test]
fn a_cancellation_between_folds_starts_no_later_fold() {
    let cv = cv_with(|i, flag, c| {
        // Set after the first fold: the second one is not started.
        if i == 1 {
            flag.store(true, Ordering::Relaxed);
        }
        c
    });
    assert_eq!(cv.planned, 3);
    assert_eq!(cv.folds.len(), 1);
    assert!(cv.folds[0].completed);
    assert_eq!(cv.folds_completed(), 1);
    assert!(cv.cancelled());
    let f1 = cv.summary(|f| f.test.f1()).expect("one fold completed");
    assert_eq!(f1.folds.len(), 1);
}

#[test]
fn a_fold_cancelled_while_running_is_kept_but_not_summarised() {
    let cv = cv_with(|i, flag, c| {
        if i == 1 {
            // The second fold's first progress report sets the flag: its search stops.
            let flag = flag.clone();
            return c.with_progress(move |_| flag.store(true, Ordering::Relaxed));
        }
        c
    });
    assert_eq!(cv.folds.len(), 2, "the third fold is not started");
    assert!(cv.folds[0].completed);
    assert!(!cv.folds[1].completed);
    assert_eq!(cv.folds[1].fit.stats.termination, Termination::Cancelled);
    assert_eq!(cv.folds_completed(), 1);
    let train = cv.summary(|f| f.train.f1()).expect("one fold completed");
    assert_eq!(train.folds, vec![cv.folds[0].train.f1()]);
    let pr = cv.ranking_summary(|f| f.auc_pr).expect("CELOE is scored");
    assert_eq!(pr.folds.len(), 1);
}

#[test]
fn a_cancellation_before_any_fold_completes_leaves_no_summary() {
    let cv = cv_with(|i, flag, c| {
        if i == 0 {
            let flag = flag.clone();
            return c.with_progress(move |_| flag.store(true, Ordering::Relaxed));
        }
        c
    });
    assert_eq!(cv.folds.len(), 1);
    assert_eq!(cv.folds_completed(), 0);
    assert!(cv.summary(|f| f.test.f1()).is_none());
    assert!(cv.ranking_summary(|f| f.auc_pr).is_none());
}

#[test]
fn an_uncancelled_cross_validation_completes_every_fold() {
    let (kb, examples) = family();
    let rho = kb.rho(RhoOptions::default()).expect("operator");
    let celoe = Celoe::new(CeloeParams::default(), &rho).expect("valid");
    let cv = cross_validate(&celoe, kb.oracle(), &examples, 3, 1, &control()).expect("cv");
    assert_eq!(cv.folds.len(), 3);
    assert_eq!(cv.folds_completed(), 3);
    assert!(!cv.cancelled());
    assert!(cv.folds.iter().all(|f| f.completed));
    assert_eq!(cv.summary(|f| f.test.f1()).expect("summary").folds.len(), 3);
}

/// CELOE asks over the training set's context: the folds of a cross-validation share one
/// cache entry per concept (all of the problem's examples), so later folds send fewer
/// queries, and the solutions are those of a run over the fold's examples alone.
#[test]
fn celoe_folds_share_the_cache_through_the_training_context() {
    use oxilearn::eval::stratified_folds;
    use oxilearn::learn::{Learner, TrainingSet};
    use oxilearn::oracle::MembershipOracle;

    let solutions_and_queries = |shared: bool| {
        let (kb, examples) = family();
        let rho = kb.rho(RhoOptions::default()).expect("operator");
        let celoe = Celoe::new(CeloeParams::default(), &rho).expect("valid");
        let folds =
            stratified_folds(examples.positives(), examples.negatives(), 3, 1).expect("folds");
        let before = kb.oracle().stats().queries_sent;
        let mut solutions = Vec::new();
        for fold in &folds {
            let train = Examples::new(fold.train_positives.clone(), fold.train_negatives.clone())
                .expect("train");
            let mut training = TrainingSet::from_examples(train);
            if shared {
                training = training.with_context(examples.all().clone());
            }
            let fit = celoe.fit(kb.oracle(), &training, &control()).expect("fit");
            solutions.push(
                fit.solutions
                    .iter()
                    .map(|s| (s.concept.clone(), s.confusion))
                    .collect::<Vec<_>>(),
            );
        }
        (solutions, kb.oracle().stats().queries_sent - before)
    };
    let (alone, alone_queries) = solutions_and_queries(false);
    let (shared, shared_queries) = solutions_and_queries(true);
    assert_eq!(alone, shared, "the context changes no solution");
    assert!(
        shared_queries < alone_queries,
        "shared context: {shared_queries} queries, per-fold examples: {alone_queries}"
    );
}
