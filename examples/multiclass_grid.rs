//! The multi-class rule-theory paper's grid (Abudawood & Flach, "Learning multi-class
//! theories in ILP"): MRL, MRSI, MRSU and CN2 by stratified k-fold cross-validation on each
//! data set (one rule table per fold, combined four ways, so the methods are compared on the
//! same rules), a table per data set and the Friedman average ranks of accuracy and of
//! weighted AUC across the data sets (1 = best, ties share the mean rank), with Friedman's
//! statistic. Lab code (it was `oxilearn bench multiclass`): the rule learner runs with the
//! library's defaults and the operator `--algorithm multiclass` uses (ρ with ∃r.{a} for the
//! successors at least three examples share).
//!
//! ```sh
//! cargo run --release --example multiclass_grid -- --dataset MULTI [--dataset MULTI …] \
//!     [--kb FILE] [--label-column NAME] [--folds 10] [--seed 1] [--rule-tests 2000] \
//!     [--max-runtime 10] [--json]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;
use serde::Serialize;

use oxilearn::KnowledgeBase;
use oxilearn::concept::Iri;
use oxilearn::eval::Summary;
use oxilearn::learn::RunControl;
use oxilearn::learn::has_value::{DEFAULT_FREQUENCY_THRESHOLD, has_value_candidates};
use oxilearn::learn::multiclass::experiment::{
    CvSetup, CvSummary, ProblemCv, cross_validate, labelled, summarize,
};
use oxilearn::learn::multiclass::{Combine, MultiClass, MultiClassParams};
use oxilearn::oracle::{
    IndividualId, IndividualScope, IndividualSet, Neighbourhood, OracleOptions,
};
use oxilearn::problem::{MultiClassProblem, load_multiclass};
use oxilearn::refine::rho::{Rho, RhoOptions};

#[derive(Debug, Parser)]
#[command(name = "multiclass_grid")]
struct Args {
    /// A multi-class data set: a labelled TSV (with --label-column), JSON of classes, or a
    /// folder of one-vs-rest `.conf` files or SML-Bench problems (repeatable).
    #[arg(long = "dataset", value_name = "PATH", required = true)]
    dataset: Vec<PathBuf>,
    /// RDF or OWL files of the knowledge base of the data sets that name none (a `.conf`
    /// file's `ks.fileName` names its own; repeatable).
    #[arg(long, value_name = "FILE")]
    kb: Vec<PathBuf>,
    /// The class column of a TSV data set.
    #[arg(long, value_name = "NAME")]
    label_column: Option<String>,
    #[arg(long, value_name = "K", default_value_t = 10)]
    folds: usize,
    /// Seed of the fold assignment.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Candidate concepts CELOE tests per rule.
    #[arg(long, value_name = "N", default_value_t = MultiClassParams::default().rule_tests)]
    rule_tests: u64,
    /// Seconds each fold's rule learning may take (0 = no limit).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    max_runtime: f64,
    /// Print the JSON document instead of the tables.
    #[arg(long)]
    json: bool,
}

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

fn main() -> ExitCode {
    let args = Args::parse();
    let printed = run(&args).and_then(|out| {
        if args.json {
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            print!("{}", tables(&out));
        }
        Ok(())
    });
    match printed {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> anyhow::Result<BenchJson> {
    let control = RunControl {
        max_runtime: max_runtime(args.max_runtime)?,
        ..RunControl::default()
    };
    let methods = Combine::ALL;
    let mut datasets = Vec::new();
    for path in &args.dataset {
        let problems = load_multiclass(path, args.label_column.as_deref())
            .with_context(|| format!("reading multi-class problems from {}", path.display()))?;
        for p in &problems {
            let r = cross_validate_problem(args, p, &methods, &control)
                .with_context(|| format!("problem {} of {}", p.name, path.display()))?;
            datasets.push(dataset_row(path, p, &r));
        }
    }
    let ranks = ranks_over(&datasets, &methods);
    Ok(BenchJson {
        seed: args.seed,
        datasets,
        ranks,
    })
}

/// `--max-runtime` as a budget (0: none).
fn max_runtime(secs: f64) -> anyhow::Result<Option<Duration>> {
    if !(secs.is_finite() && secs >= 0.0) {
        bail!("--max-runtime must be a non-negative number of seconds (0 = no limit), not {secs}");
    }
    Ok((secs > 0.0).then(|| Duration::from_secs_f64(secs)))
}

/// The KB of `problem` (its own, else `--kb`) over its examples' neighbourhood.
fn open(args: &Args, problem: &MultiClassProblem) -> anyhow::Result<KnowledgeBase> {
    let files: Vec<PathBuf> = match &problem.kb_file {
        Some(file) => vec![file.clone()],
        None => args.kb.clone(),
    };
    if files.is_empty() {
        bail!(
            "problem {} names no knowledge base: pass --kb FILE",
            problem.name
        );
    }
    let seeds = problem
        .examples
        .iter()
        .map(|(iri, _)| Iri::new(iri.as_str()));
    let kb = KnowledgeBase::builder()
        .oracle_options(OracleOptions {
            scope: IndividualScope::Neighbourhood(Neighbourhood::of(seeds)),
            ..OracleOptions::default()
        })
        .open_files(&files)?;
    for w in kb.warnings() {
        eprintln!("warning: {w}");
    }
    Ok(kb)
}

/// The operator of the rule learner (as `--algorithm multiclass` builds it): ρ over the
/// examples, with ∃r.{a} for the successors at least three of them share.
fn operator(kb: &KnowledgeBase, examples: &[(IndividualId, usize)]) -> anyhow::Result<Rho> {
    let seeds = IndividualSet::from_ids(
        kb.signature().individual_count(),
        examples.iter().map(|e| e.0),
    );
    let options = RhoOptions {
        use_has_value: true,
        ..RhoOptions::default()
    };
    let values = has_value_candidates(kb.oracle(), &seeds, DEFAULT_FREQUENCY_THRESHOLD)?;
    Ok(kb
        .rho_for(options, &seeds)?
        .with_has_value_candidates(values))
}

/// Stratified k-fold cross-validation of `problem`: one rule table per fold (the library's
/// parameters, the problem's ignored classes hidden), combined by each of `methods`.
fn cross_validate_problem(
    args: &Args,
    problem: &MultiClassProblem,
    methods: &[Combine],
    control: &RunControl,
) -> anyhow::Result<ProblemCv> {
    let kb = open(args, problem)?;
    let examples = labelled(kb.signature(), problem)?;
    let rho = operator(&kb, &examples)?;
    let params = MultiClassParams {
        rule_tests: args.rule_tests,
        ignored_classes: problem
            .ignored_classes
            .iter()
            .map(|c| Iri::new(c.as_str()))
            .collect(),
        ..MultiClassParams::default()
    };
    let (combine_seed, semantics) = (params.seed, params.celoe.semantics);
    let learner = MultiClass::new(params, &rho)?;
    let setup = CvSetup {
        classes: &problem.classes,
        examples: &examples,
        universe: kb.signature().individual_count(),
        folds: args.folds,
        seed: args.seed,
        methods,
        combine_seed,
        semantics,
    };
    let k = args.folds;
    cross_validate(kb.oracle(), &setup, &mut |i, training| {
        let run = learner
            .learn_rules(kb.oracle(), &training, control)
            .with_context(|| format!("learning {} fold {}/{k}", problem.name, i + 1))?;
        eprintln!(
            "{} fold {}/{k}: {} rules, {} ms",
            problem.name,
            i + 1,
            run.table.rules.len(),
            run.stats.elapsed_ms
        );
        Ok::<_, anyhow::Error>(Some(run))
    })
}

/// One data set's table: per method, its summary over the folds.
fn dataset_row(path: &std::path::Path, p: &MultiClassProblem, r: &ProblemCv) -> DatasetJson {
    let cv = &r.cv;
    let n = cv.fold_stats.len().max(1) as f64;
    DatasetJson {
        dataset: path.display().to_string(),
        problem: p.name.clone(),
        classes: cv.classes.clone(),
        class_counts: cv.class_counts.clone(),
        folds: cv.folds,
        folds_completed: cv.completed,
        mean_rules: cv
            .fold_stats
            .iter()
            .filter_map(|s| s.detail_u64("rules"))
            .sum::<u64>() as f64
            / n,
        mean_fit_ms: cv.fold_stats.iter().map(|s| s.elapsed_ms).sum::<u64>() as f64 / n,
        methods: r
            .per_method()
            .map(|(method, m)| MethodRow {
                method: method.name(),
                summary: summarize(&cv.classes, m),
            })
            .collect(),
    }
}

/// Ranks of `values` (higher is better → rank 1), ties sharing their mean rank.
fn ranks(values: &[f64]) -> Vec<f64> {
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
fn friedman(mean_ranks: &[f64], n: usize) -> f64 {
    let k = mean_ranks.len() as f64;
    if k < 2.0 || n == 0 {
        return 0.0;
    }
    12.0 * n as f64 / (k * (k + 1.0))
        * (mean_ranks.iter().map(|r| r * r).sum::<f64>() - k * (k + 1.0).powi(2) / 4.0)
}

/// The methods' mean ranks of accuracy and of pooled weighted AUC over the data sets.
fn ranks_over(datasets: &[DatasetJson], methods: &[Combine]) -> Ranks {
    let mean_ranks = |f: &dyn Fn(&CvSummary) -> f64| -> Vec<f64> {
        let mut sum = vec![0.0; methods.len()];
        for d in datasets {
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
    Ranks {
        accuracy: named(&acc),
        weighted_auc: named(&auc),
        friedman_accuracy: friedman(&acc, datasets.len()),
        friedman_auc: friedman(&auc, datasets.len()),
    }
}

/// A markdown table per data set, then the ranks.
fn tables(b: &BenchJson) -> String {
    let mut out = String::new();
    for d in &b.datasets {
        let counts: Vec<String> = d
            .classes
            .iter()
            .zip(&d.class_counts)
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        out += &format!(
            "## {} ({}), {}-fold CV ({} completed), seed {}; {:.1} rules and {:.0} ms per fold\n\n",
            d.problem,
            counts.join(", "),
            d.folds,
            d.folds_completed,
            b.seed,
            d.mean_rules,
            d.mean_fit_ms
        );
        out += "| method | accuracy | weighted AUC (pooled) | weighted AUC (fold mean) | multi-model accuracy | average recall | default rule / majority |\n";
        out += "|---|---|---|---|---|---|---|\n";
        for m in &d.methods {
            let s = &m.summary;
            let ms = |x: &Summary| format!("{:.3} ± {:.3}", x.mean, x.sd);
            out += &format!(
                "| {} | {} | {} | {} | {} | {} | {:.3} / {:.3} |\n",
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
        out.push('\n');
    }
    out += &format!(
        "## Friedman average ranks over {} data sets (1 = best)\n\n",
        b.datasets.len()
    );
    out += "| method | accuracy rank | weighted AUC rank |\n|---|---|---|\n";
    for ((m, a), (_, u)) in b.ranks.accuracy.iter().zip(&b.ranks.weighted_auc) {
        out += &format!("| {} | {a:.2} | {u:.2} |\n", m.to_uppercase());
    }
    out += &format!(
        "\nFriedman χ²_F (3 d.f.): accuracy {:.3}, AUC {:.3} (7.815 needed for p = 0.05)\n",
        b.ranks.friedman_accuracy, b.ranks.friedman_auc
    );
    out
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

    fn zoo_args(extra: &[&str]) -> Args {
        let zoo = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/multiclass/");
        let train = format!("{zoo}zoo-train.tsv");
        let mut argv = vec![
            "multiclass_grid".to_owned(),
            "--dataset".to_owned(),
            train.clone(),
            "--dataset".to_owned(),
            train,
            "--label-column".to_owned(),
            "class".to_owned(),
        ];
        argv.extend(extra.iter().map(|a| a.to_string()));
        argv.push("--kb".to_owned());
        argv.push(format!("{zoo}zoo.ttl"));
        Args::parse_from(argv)
    }

    /// The zoo (four classes of four animals, each told apart by one class of the KB) twice:
    /// every method classifies every held-out animal right, so all tie on both ranks.
    #[test]
    fn the_zoo_is_learned_by_every_method_and_the_ranks_tie() {
        let args = zoo_args(&["--folds", "4", "--seed", "3", "--rule-tests", "500"]);
        let out = run(&args).unwrap();
        assert_eq!(out.seed, 3);
        assert_eq!(out.datasets.len(), 2);
        for d in &out.datasets {
            assert_eq!(d.problem, "zoo-train");
            assert_eq!(d.classes, ["bird", "fish", "mammal", "reptile"]);
            assert_eq!(d.class_counts, [4, 4, 4, 4]);
            assert_eq!((d.folds, d.folds_completed), (4, 4));
            assert!(
                d.mean_rules >= 4.0,
                "a rule per class at least: {}",
                d.mean_rules
            );
            let methods: Vec<&str> = d.methods.iter().map(|m| m.method).collect();
            assert_eq!(methods, ["mrl", "mrsi", "mrsu", "cn2"]);
            for m in &d.methods {
                let s = &m.summary;
                assert_eq!(s.accuracy.folds.len(), 4);
                assert!(s.accuracy.folds.iter().all(|a| (0.0..=1.0).contains(a)));
                assert_eq!(s.accuracy.mean, 1.0, "{}", m.method);
                assert_eq!(s.pooled_weighted_auc, Some(1.0), "{}", m.method);
                let tested: usize = s.confusion.matrix.iter().flatten().sum();
                assert_eq!(tested, 16, "each animal tested once");
            }
        }
        let r = &out.ranks;
        for ranks in [&r.accuracy, &r.weighted_auc] {
            // Four methods' mean ranks sum to 1 + 2 + 3 + 4.
            assert_eq!(ranks.iter().map(|(_, x)| x).sum::<f64>(), 10.0);
            assert!(ranks.iter().all(|(_, x)| *x == 2.5), "{ranks:?}");
        }
        assert_eq!((r.friedman_accuracy, r.friedman_auc), (0.0, 0.0));
        let text = tables(&out);
        assert!(text.contains("| MRSU | 1.000 ± 0.000 | 1.000 |"), "{text}");
        assert!(text.contains("over 2 data sets"), "{text}");
    }

    #[test]
    fn a_data_set_without_a_knowledge_base_is_refused_by_name() {
        let zoo = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/multiclass/zoo-train.tsv"
        );
        let args = Args::parse_from([
            "multiclass_grid",
            "--dataset",
            zoo,
            "--label-column",
            "class",
        ]);
        let err = format!("{:#}", run(&args).err().expect("no KB"));
        assert!(
            err.contains("names no knowledge base: pass --kb FILE"),
            "{err}"
        );
        assert!(err.contains("zoo-train.tsv"), "{err}");
    }
}
