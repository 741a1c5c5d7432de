//! `oxilearn bench multiclass`: MRL, MRSI, MRSU and CN2 by stratified k-fold
//! cross-validation on each data set (one rule table per fold, combined four ways, so the
//! methods are compared on the same rules), a table per data set and the Friedman average
//! ranks of accuracy and of weighted AUC across the data sets (1 = best, ties share the
//! mean rank), with Friedman's statistic.

use anyhow::bail;
use serde::Serialize;

use anyhow::Context;

use super::args::BenchMulticlassArgs;
use super::learner::cancelled;
use super::learners::LearnArgs;
use super::learners::multiclass::{handles, learner_run};
use super::multiclass_run::{fold_label, load, open};
use crate::learn::multiclass::Combine;
use crate::learn::multiclass::RulesRun;
use crate::learn::multiclass::experiment::{
    self, CvSetup, CvSummary, ProblemCv, labelled, summarize,
};
use crate::problem::MultiClassProblem;

#[derive(Serialize)]
struct MethodRow {
    method: &'static str,
    #[serde(flatten)]
    summary: CvSummary,
}

#[derive(Serialize)]
struct DatasetJson {
    dataset: String,
    problem: String,
    classes: Vec<String>,
    class_counts: Vec<usize>,
    folds: usize,
    folds_completed: usize,
    /// Mean rules per fold and mean fit time per fold (ms).
    mean_rules: f64,
    mean_fit_ms: f64,
    methods: Vec<MethodRow>,
}

#[derive(Serialize)]
struct Ranks {
    /// Per method, the mean rank over the data sets.
    accuracy: Vec<(String, f64)>,
    weighted_auc: Vec<(String, f64)>,
    /// Friedman's χ²_F of the accuracy and AUC ranks (k − 1 degrees of freedom).
    friedman_accuracy: f64,
    friedman_auc: f64,
}

#[derive(Serialize)]
struct BenchJson {
    seed: u64,
    datasets: Vec<DatasetJson>,
    ranks: Ranks,
}

/// Ranks of `values` (higher is better → rank 1), ties sharing their mean rank.
pub fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &o in &order[i..=j] {
            out[o] = mean;
        }
        i = j + 1;
    }
    out
}

/// Friedman's χ²_F = 12N/(k(k+1)) · (Σ R_j² − k(k+1)²/4) for mean ranks `r` over `n` data sets.
pub fn friedman(mean_ranks: &[f64], n: usize) -> f64 {
    let k = mean_ranks.len() as f64;
    if k < 2.0 || n == 0 {
        return 0.0;
    }
    12.0 * n as f64 / (k * (k + 1.0))
        * (mean_ranks.iter().map(|r| r * r).sum::<f64>() - k * (k + 1.0).powi(2) / 4.0)
}

/// Stratified `k`-fold cross-validation of `problem` with the rule learner of `args`, one
/// rule table per fold combined by each of `methods` (Ctrl-C stops before the next fold).
fn cross_validate(
    args: &LearnArgs,
    problem: &MultiClassProblem,
    k: usize,
    seed: u64,
    methods: &[Combine],
) -> anyhow::Result<ProblemCv> {
    let prep = open(args, problem, None)?;
    let examples = labelled(prep.kb.signature(), problem)?;
    let setup = CvSetup {
        classes: &problem.classes,
        examples: &examples,
        universe: prep.kb.signature().individual_count(),
        folds: k,
        seed,
        methods,
        combine_seed: args.multiclass.combine_seed,
        semantics: args.semantics,
    };
    let out = experiment::cross_validate(prep.kb.oracle(), &setup, &mut |i,
                                                                         training|
     -> anyhow::Result<
        Option<RulesRun>,
    > {
        if cancelled() {
            return Ok(None);
        }
        let label = fold_label(problem, i, k);
        Ok(Some(
            learner_run(args, &prep, problem, &training, &label)?.0,
        ))
    })
    .with_context(|| format!("problem {}", problem.name))?;
    std::mem::forget(prep);
    Ok(out)
}

pub fn run(args: BenchMulticlassArgs) -> anyhow::Result<()> {
    if !handles(&args.learn) {
        bail!(
            "bench multiclass runs --algorithm multiclass (its combinations), not {}",
            args.learn.algorithm
        );
    }
    super::learners::entry_for(&args.learn)?;
    let mut sets = vec![args.learn.clone()];
    for d in &args.dataset {
        let mut a = args.learn.clone();
        a.problems = d.clone();
        a.problem.clear();
        // The first data set's --kb is its own; the others find theirs.
        a.kb.kb.clear();
        sets.push(a);
    }
    let methods = Combine::ALL;
    let mut datasets = Vec::new();
    for a in &sets {
        for p in load(a)? {
            let r = cross_validate(a, &p, args.folds, args.seed, &methods)?;
            let n = r.fold_stats.len().max(1) as f64;
            datasets.push(DatasetJson {
                dataset: a.problems.display().to_string(),
                problem: p.name.clone(),
                classes: r.classes.clone(),
                class_counts: r.class_counts.clone(),
                folds: r.folds,
                folds_completed: r.completed,
                mean_rules: r
                    .fold_stats
                    .iter()
                    .filter_map(|s| s.detail_u64("rules"))
                    .sum::<u64>() as f64
                    / n,
                mean_fit_ms: r.fold_stats.iter().map(|s| s.elapsed_ms).sum::<u64>() as f64 / n,
                methods: r
                    .methods
                    .iter()
                    .map(|m| MethodRow {
                        method: m.method.name(),
                        summary: summarize(&r.classes, m),
                    })
                    .collect(),
            });
        }
    }
    let mean_ranks = |f: &dyn Fn(&CvSummary) -> f64| -> Vec<f64> {
        let mut sum = vec![0.0; methods.len()];
        for d in &datasets {
            let v: Vec<f64> = d.methods.iter().map(|m| f(&m.summary)).collect();
            for (s, r) in sum.iter_mut().zip(ranks(&v)) {
                *s += r;
            }
        }
        sum.iter()
            .map(|s| s / datasets.len().max(1) as f64)
            .collect()
    };
    let acc = mean_ranks(&|s| s.accuracy.mean);
    let auc = mean_ranks(&|s| s.pooled_weighted_auc.unwrap_or(0.0));
    let named = |r: &[f64]| -> Vec<(String, f64)> {
        methods
            .iter()
            .map(|m| m.name().to_owned())
            .zip(r.iter().copied())
            .collect()
    };
    let out = BenchJson {
        seed: args.seed,
        ranks: Ranks {
            accuracy: named(&acc),
            weighted_auc: named(&auc),
            friedman_accuracy: friedman(&acc, datasets.len()),
            friedman_auc: friedman(&auc, datasets.len()),
        },
        datasets,
    };
    if args.learn.json {
        return super::print_json(&out);
    }
    print_tables(&out)
}

fn print_tables(b: &BenchJson) -> anyhow::Result<()> {
    for d in &b.datasets {
        let counts: Vec<String> = d
            .classes
            .iter()
            .zip(&d.class_counts)
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        outln!(
            "## {} ({}), {}-fold CV ({} completed), seed {}; {:.1} rules and {:.0} ms per fold",
            d.problem,
            counts.join(", "),
            d.folds,
            d.folds_completed,
            b.seed,
            d.mean_rules,
            d.mean_fit_ms
        );
        outln!();
        outln!(
            "| method | accuracy | weighted AUC (pooled) | weighted AUC (fold mean) | multi-model accuracy | average recall | default rule / majority |"
        );
        outln!("|---|---|---|---|---|---|---|");
        for m in &d.methods {
            let s = &m.summary;
            let ms = |x: &crate::eval::Summary| format!("{:.3} ± {:.3}", x.mean, x.sd);
            outln!(
                "| {} | {} | {} | {} | {} | {} | {:.3} / {:.3} |",
                m.method.to_uppercase(),
                ms(&s.accuracy),
                s.pooled_weighted_auc
                    .map_or_else(|| "n/a".to_owned(), |a| format!("{a:.3}")),
                ms(&s.weighted_auc),
                ms(&s.multi_model_accuracy),
                ms(&s.average_recall),
                s.default_rule_share,
                s.majority_share
            );
        }
        outln!();
    }
    outln!(
        "## Friedman average ranks over {} data sets (1 = best)",
        b.datasets.len()
    );
    outln!();
    outln!("| method | accuracy rank | weighted AUC rank |");
    outln!("|---|---|---|");
    for ((m, a), (_, u)) in b.ranks.accuracy.iter().zip(&b.ranks.weighted_auc) {
        outln!("| {} | {a:.2} | {u:.2} |", m.to_uppercase());
    }
    outln!();
    outln!(
        "Friedman χ²_F (3 d.f.): accuracy {:.3}, AUC {:.3} (7.815 needed for p = 0.05)",
        b.ranks.friedman_accuracy,
        b.ranks.friedman_auc
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_friedman_is_zero_for_equal_ranks() {
        assert_eq!(ranks(&[0.5, 0.9, 0.5, 0.1]), vec![2.5, 1.0, 2.5, 4.0]);
        assert_eq!(friedman(&[2.5, 2.5, 2.5, 2.5], 3), 0.0);
        // Demšar's example shape: k = 4, N = 2, ranks 1, 2, 3, 4 on both:
        // 12·2/(4·5)·(1 + 4 + 9 + 16 − 4·25/4) = 1.2 · 5 = 6.
        assert!((friedman(&[1.0, 2.0, 3.0, 4.0], 2) - 6.0).abs() < 1e-12);
    }
}
