//! Multi-class cross-validation through the library (`learn::multiclass::experiment`): the
//! folds partition the examples, every method is scored on each fold's test part from the
//! same rules, the fitted training sets never hold their fold's test examples, and a fit
//! that reports a cancellation ends the run with the folds done so far.

use std::collections::BTreeSet;

use crate::common::repo_path;
use oxilearn::KnowledgeBase;
use oxilearn::learn::RunControl;
use oxilearn::learn::multiclass::experiment::{CvSetup, cross_validate, labelled, summarize};
use oxilearn::learn::multiclass::{Combine, MultiClass, MultiClassParams};
use oxilearn::learn::{LearnError, TrainingKind};
use oxilearn::oracle::Semantics;
use oxilearn::problem::load_multiclass;
use oxilearn::refine::rho::RhoOptions;

#[test]
fn folds_partition_the_examples_and_every_method_sees_the_same_rules() {
    let kb = KnowledgeBase::from_files(&[repo_path("fixtures/multiclass/zoo.ttl")]).expect("kb");
    let problem = load_multiclass(
        &repo_path("fixtures/multiclass/zoo-train.tsv"),
        Some("class"),
    )
    .expect("problem")
    .remove(0);
    let examples = labelled(kb.signature(), &problem).expect("examples");
    let rho = kb.rho(RhoOptions::default()).expect("operator");
    let params = MultiClassParams {
        rule_tests: 300,
        ..MultiClassParams::default()
    };
    let learner = MultiClass::new(params, &rho).expect("valid");
    let methods = [Combine::Mrl, Combine::Mrsi, Combine::Cn2];
    let setup = CvSetup {
        classes: &problem.classes,
        examples: &examples,
        universe: kb.signature().individual_count(),
        folds: 3,
        seed: 7,
        methods: &methods,
        combine_seed: 1,
        semantics: Semantics::Closed,
    };
    let run = |stop_at: usize| {
        let mut trained: Vec<BTreeSet<_>> = Vec::new();
        let cv = cross_validate(kb.oracle(), &setup, &mut |i, training| {
            if i == stop_at {
                return Ok::<_, LearnError>(None);
            }
            let TrainingKind::MultiClass { labels, .. } = training.kind() else {
                panic!("a multi-class training set");
            };
            trained.push(labels.iter().map(|e| e.0).collect());
            Ok(Some(learner.learn_rules(
                kb.oracle(),
                &training,
                &RunControl::unlimited(),
            )?))
        })
        .expect("cv");
        (cv, trained)
    };
    let (cv, trained) = run(usize::MAX);
    assert_eq!((cv.cv.folds, cv.cv.completed), (3, 3));
    assert_eq!(cv.cv.class_counts.iter().sum::<usize>(), examples.len());
    for (_, m) in cv.per_method() {
        assert_eq!(m.folds.len(), 3);
        // Each example is tested exactly once, by a model that did not train on it.
        assert_eq!(m.pooled.len(), examples.len());
        let summary = summarize(&cv.cv.classes, m);
        let total: usize = summary.confusion.matrix.iter().flatten().sum();
        assert_eq!(total, examples.len());
        assert_eq!(summary.accuracy.folds.len(), 3);
    }
    let all: BTreeSet<_> = examples.iter().map(|e| e.0).collect();
    let mut tested = BTreeSet::new();
    for train in &trained {
        let test: BTreeSet<_> = all.difference(train).copied().collect();
        assert!(tested.is_disjoint(&test), "test parts overlap");
        tested.extend(test);
    }
    assert_eq!(tested, all);
    let (cut, _) = run(1);
    assert_eq!((cut.cv.folds, cut.cv.completed), (3, 1));
    assert!(cut.per_method().all(|(_, m)| m.folds.len() == 1));
}
