//! The numbers behind each plot are those of the JSON it is built from.

use serde_json::json;

use super::*;
use crate::eval::{auc_pr, auc_roc};

fn cv_json() -> Value {
    json!([{
        "problem": "p", "algorithm": "tbc", "folds": 2, "seed": 1,
        "test_f1": {"mean": 0.75, "sd": 0.1, "folds": [0.8, 0.7]},
        "calibration": curves::calibration(&[(0.9, true), (0.2, false), (0.7, false)]),
        "per_fold": [
            {"fold": 1, "completed": true, "auc_roc": 1.0, "auc_pr": 1.0,
             "train": {"f1": 1.0, "accuracy": 1.0}, "test": {"f1": 0.8, "accuracy": 0.9},
             "scores": [{"individual": "http://x/a", "positive": true, "score": 0.9},
                        {"individual": "http://x/b", "positive": false, "score": 0.2}],
             "stats": {"progress": [[3, 0.5], [10, 0.9]]}},
            {"fold": 2, "completed": true, "auc_roc": 0.5, "auc_pr": 0.5,
             "train": {"f1": 0.9, "accuracy": 0.95}, "test": {"f1": 0.7, "accuracy": 0.8},
             "scores": [{"individual": "http://x/c", "positive": true, "score": 0.7},
                        {"individual": "http://x/d", "positive": false, "score": 0.7}],
             "stats": {}}
        ]
    }])
}

#[test]
fn cv_curves_fold_figures_and_progress_are_the_json_numbers() {
    let v = cv_json();
    assert_eq!(kind_of(&v), Some(Kind::Cv));
    let p = &v[0];
    let sets = scored::scored_sets(p);
    assert_eq!(sets.len(), 2);
    for (set, fold) in sets.iter().zip(p["per_fold"].as_array().unwrap()) {
        let roc = curves::trapezoid_area(&curves::roc_points(&set.1));
        let pr = curves::step_area(&curves::pr_points(&set.1));
        assert!((roc - fold["auc_roc"].as_f64().unwrap()).abs() < 1e-12);
        assert!((pr - fold["auc_pr"].as_f64().unwrap()).abs() < 1e-12);
        assert_eq!(Some(roc), auc_roc(&set.1));
        assert_eq!(Some(pr), auc_pr(&set.1));
    }
    let roc = scored::roc_chart(&sets);
    assert_eq!(roc.series[0].name, "fold 1 (AUC 1.000)");
    let charts = folds::fold_charts(p);
    assert_eq!(charts[0].series[0].points, vec![(1.0, 1.0), (2.0, 0.9)]);
    assert_eq!(charts[0].series[1].points, vec![(1.0, 0.8), (2.0, 0.7)]);
    assert_eq!(charts[1].series[1].points, vec![(1.0, 0.9), (2.0, 0.8)]);
    let prog = progress::chart(p).expect("fold 1 has progress");
    assert_eq!(prog.series.len(), 1);
    assert_eq!(prog.series[0].points, vec![(3.0, 0.5), (10.0, 0.9)]);
    let cal = scored::calibration_chart(&p["calibration"]).expect("bins");
    // Bins [0.2, 0.3), [0.7, 0.8), [0.9, 1]: mean score and share of positives.
    assert_eq!(
        cal.series[0].points,
        vec![(0.2, 0.0), (0.7, 0.0), (0.9, 1.0)]
    );
}

#[test]
fn confusion_cluster_and_scale_plots_are_the_json_numbers() {
    let mc = json!({"rules": [], "classes": ["a", "b"],
        "test": {"confusion": {"classes": ["a", "b"], "matrix": [[3, 1], [0, 2]]}}});
    let m = multiclass::confusion_map(&mc, "test").expect("matrix");
    assert_eq!(m.cells, vec![vec![3, 1], vec![0, 2]]);
    assert!(multiclass::confusion_map(&mc, "train").is_none());
    let cl = json!({"clusters": [{"size": 6}, {"size": 4}], "tree": {}});
    assert_eq!(kind_of(&cl), Some(Kind::Cluster));
    let sizes = cluster::sizes_chart(&cl).expect("sizes");
    assert_eq!(sizes.series[0].points, vec![(0.0, 6.0), (1.0, 4.0)]);
    let rows = json!([
        {"k": 1, "backend": "embedded", "triples": 205, "wall_s": 0.3, "peak_rss_mb": 40.0},
        {"k": 2, "backend": "embedded", "triples": 336, "wall_s": 0.5, "peak_rss_mb": 41.0},
        {"k": 1, "backend": "oxigraph-server", "triples": 205, "wall_s": 0.9, "peak_rss_mb": null}
    ]);
    assert_eq!(kind_of(&rows), Some(Kind::Scale));
    let charts = scale::charts(rows.as_array().unwrap());
    assert!(charts.iter().all(|c| c.log));
    assert_eq!(charts[0].series[0].name, "embedded");
    assert_eq!(charts[0].series[0].points, vec![(205.0, 0.3), (336.0, 0.5)]);
    assert_eq!(charts[0].series[1].points, vec![(205.0, 0.9)]);
    // A missing RSS is left out, not drawn as 0.
    assert_eq!(charts[1].series.len(), 1);
}

#[test]
fn a_page_is_self_contained_and_every_plot_has_a_text_alternative() {
    let html = sections(&cv_json()).unwrap().join("\n");
    for id in [
        "roc",
        "pr",
        "calibration",
        "folds-f1",
        "folds-accuracy",
        "progress",
    ] {
        assert!(html.contains(&format!("data-plot=\"{id}\"")), "{id}");
        assert!(html.contains(&format!("<title id=\"{id}-title\">")), "{id}");
    }
    assert!(!html.contains("<script") && !html.contains(" src=") && !html.contains("<link"));
    assert!(sections(&json!({"x": 1})).is_err());
}
