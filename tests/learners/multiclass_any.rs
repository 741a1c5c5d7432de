//! Multi-class evaluation and cross-validation of any learner through the library
//! (`learn::experiment::multiclass`): a tree fitted on the zoo is scored through its
//! predictions (one-hot one-vs-rest theories, decided by the model), every example is
//! tested once, and a seed gives the same folds and measures.

use crate::common::repo_path;
use oxilearn::KnowledgeBase;
use oxilearn::eval::multiclass::DecidedBy;
use oxilearn::learn::experiment::multiclass::{
    Classifier, FoldFit, FoldSetup, MultiClassCv, Predicted, cross_validate, evaluate, labelled,
    summarize,
};
use oxilearn::learn::tdt::{Tdt, TdtParams};
use oxilearn::learn::{LearnError, Learner, RunControl, TrainingSet};
use oxilearn::oracle::IndividualSet;
use oxilearn::problem::{MultiClassProblem, load_multiclass};
use oxilearn::refine::rho::RhoOptions;

fn zoo(file: &str) -> MultiClassProblem {
    load_multiclass(&repo_path(file), Some("class"))
        .expect("problem")
        .remove(0)
}

#[test]
fn a_tree_is_scored_and_cross_validated_as_a_multiclass_model() {
    let kb = KnowledgeBase::from_files(&[repo_path("fixtures/multiclass/zoo.ttl")]).expect("kb");
    let problem = zoo("fixtures/multiclass/zoo-train.tsv");
    let test = zoo("fixtures/multiclass/zoo-test.tsv")
        .relabel(
            &repo_path("fixtures/multiclass/zoo-test.tsv"),
            &problem.classes,
        )
        .expect("same classes");
    let examples = labelled(kb.signature(), &problem).expect("examples");
    let rho = kb.rho(RhoOptions::default()).expect("operator");
    let tdt = Tdt::new(TdtParams::default(), Some(&rho)).expect("valid");
    let fit = |training: &TrainingSet| {
        let run = tdt
            .fit(kb.oracle(), training, &RunControl::unlimited())
            .expect("fit");
        let tree = Predicted {
            model: run.model,
            classes: problem.classes.clone(),
        };
        (tree, run.stats)
    };
    let training =
        TrainingSet::multi_class(problem.classes.clone(), examples.clone()).expect("training");
    let (tree, _) = fit(&training);
    let test_examples = labelled(kb.signature(), &test).expect("test examples");
    let among = IndividualSet::from_ids(
        kb.signature().individual_count(),
        test_examples.iter().map(|e| e.0),
    );
    let (scores, outcomes) = evaluate(kb.oracle(), &tree, &test_examples, &among).expect("scores");
    assert_eq!(outcomes.len(), test_examples.len());
    for o in &outcomes {
        // One-hot theories: exactly the predicted class fires; the model decided.
        let fired: Vec<usize> = (0..4).filter(|&c| o.binary[c]).collect();
        assert_eq!(fired, vec![o.predicted]);
        assert_eq!(o.by, DecidedBy::Model);
        assert!(
            (o.distribution.iter().sum::<f64>() - 1.0).abs() < 1e-9,
            "{o:?}"
        );
    }
    assert!(scores.accuracy > 0.25, "{scores:?}");
    // With one-hot theories, average recall is the accuracy.
    assert!((scores.average_recall - scores.accuracy).abs() < 1e-12);
    assert_eq!(tree.classes(), problem.classes.as_slice());

    let setup = FoldSetup {
        classes: &problem.classes,
        examples: &examples,
        universe: kb.signature().individual_count(),
        folds: 4,
        seed: 3,
    };
    let run = || -> MultiClassCv {
        cross_validate(kb.oracle(), &setup, &mut |_, training| {
            let (tree, stats) = fit(&training);
            Ok::<_, LearnError>(Some(FoldFit {
                classifiers: vec![Box::new(tree) as Box<dyn Classifier>],
                stats,
            }))
        })
        .expect("cv")
    };
    let cv = run();
    assert_eq!((cv.folds, cv.completed), (4, 4));
    assert_eq!(cv.classifiers.len(), 1);
    let only = &cv.classifiers[0];
    assert_eq!(only.pooled.len(), examples.len());
    let summary = summarize(&cv.classes, &only.folds, &only.pooled);
    let total: usize = summary.confusion.matrix.iter().flatten().sum();
    assert_eq!(total, examples.len());
    assert_eq!(
        (summary.default_rule_share, summary.majority_share),
        (0.0, 0.0)
    );
    let again = run();
    assert_eq!(again.classifiers[0].folds, only.folds);
    assert_eq!(again.classifiers[0].pooled, only.pooled);
}
