//! Terminological Bayesian classifiers end to end: over the hand-made fixture with
//! informatively missing colours, the shared family KB (skipped when absent), and the
//! target generator.

use crate::common;

use std::path::PathBuf;

use oxilearn::concept::Concept;
use oxilearn::eval::{auc_pr, auc_roc};
use oxilearn::learn::targets::{TargetOptions, generate_targets, targets_json};
use oxilearn::learn::tbc::{
    self as tbc, Dataset, FeatureSemantics, Missing, Selection, Structure, Tbc, TbcModel,
    TbcParams, TbcRun, conditional_log_likelihood,
};
use oxilearn::learn::{Examples, RunControl};
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::{
    CacheOptions, Cached, IndividualSet, MembershipOracle, Semantics, SparqlOracle,
};
use oxilearn::problem::load_problems;
use oxilearn::refine::rho::{Rho, RhoOptions};

type Oracle = Cached<SparqlOracle<EmbeddedBackend>>;

fn oracle_of(files: &[PathBuf]) -> Oracle {
    Cached::new(common::pair(files).sparql, CacheOptions::default())
}

fn shapes() -> (Oracle, IndividualSet, IndividualSet) {
    let oracle = oracle_of(&[common::repo_path("fixtures/tbc/shapes.ttl")]);
    let problems = load_problems(&common::repo_path("fixtures/tbc/problems.json")).expect("loads");
    let (pos, neg) = sets(&oracle, &problems[0].positives, &problems[0].negatives);
    (oracle, pos, neg)
}

fn sets(oracle: &Oracle, pos: &[String], neg: &[String]) -> (IndividualSet, IndividualSet) {
    let sig = oracle.signature();
    let pos = sig
        .set_of(pos.iter().map(String::as_str))
        .expect("positives known");
    let neg = sig
        .set_of(neg.iter().map(String::as_str))
        .expect("negatives known");
    (pos, neg)
}

/// AUC-PR and AUC-ROC of the model's ranking of the training examples.
fn ranking(
    model: &TbcModel,
    oracle: &Oracle,
    pos: &IndividualSet,
    neg: &IndividualSet,
) -> (f64, f64) {
    let predictions = model.predict(oracle, &pos.union(neg)).expect("predicts");
    let scored: Vec<(f64, bool)> = predictions
        .iter()
        .map(|p| (p.probability, pos.contains(p.individual)))
        .collect();
    (
        auc_pr(&scored).expect("has positives"),
        auc_roc(&scored).expect("both"),
    )
}

/// ρ restricted to the paper's language, as the CLI passes it.
fn rho(oracle: &Oracle) -> Rho {
    Rho::new(
        oracle.inner().shared_signature(),
        RhoOptions::boolean_existential(),
    )
}

/// One TBC run with the test budget the learner used to default to.
fn fit(
    oracle: &Oracle,
    pos: &IndividualSet,
    neg: &IndividualSet,
    rho: &Rho,
    params: &TbcParams,
) -> Result<TbcRun, oxilearn::learn::LearnError> {
    let control = RunControl::default().with_max_tests(20_000);
    tbc::fit(oracle, pos, neg, &pos.union(neg), rho, params, &control)
}

fn red() -> Concept {
    Concept::class("http://example.org/shapes#Red")
}

#[test]
fn informative_missingness_im2_and_im3_beat_aca() {
    let (oracle, pos, neg) = shapes();
    let among = pos.union(&neg);
    let ids: Vec<_> = among.iter().collect();
    let column =
        tbc::column(&oracle, &red(), &ids, &among, FeatureSemantics::Open).expect("oracle answers");
    let class: Vec<u8> = ids.iter().map(|&a| u8::from(pos.contains(a))).collect();
    let mut results = Vec::new();
    for missing in [Missing::Aca, Missing::Im2, Missing::Im3] {
        let params = TbcParams {
            missing,
            ..TbcParams::default()
        };
        let data = Dataset {
            class: class.clone(),
            columns: vec![tbc::encode_column(&column, missing)],
            arity: vec![tbc::arity(missing)],
        };
        let (fitted, _) = tbc::fit_network(&data, &params);
        let cll = conditional_log_likelihood(&fitted, &data);
        let scored: Vec<(f64, bool)> = (0..data.len())
            .map(|n| (fitted.probability(&data.row(n)), class[n] == 1))
            .collect();
        results.push((missing, cll, auc_pr(&scored).expect("positives")));
    }
    let (_, aca_cll, aca_pr) = results[0];
    // ACA sees Red in half the observed cases on both sides: no information, a constant
    // ranking (AUC-PR = share of positives = ½) and CLL = 40·ln ½.
    assert!((aca_pr - 0.5).abs() < 1e-9, "{results:?}");
    assert!((aca_cll - 40.0 * 0.5f64.ln()).abs() < 1e-6, "{results:?}");
    for &(m, cll, pr) in &results[1..] {
        assert!(
            cll > aca_cll + 1.0 && pr > aca_pr + 0.05,
            "{m:?}: {results:?}"
        );
    }
    // IM3 also sees the unknowns themselves: best of the three.
    assert!(results[2].1 > results[1].1, "{results:?}");

    // The whole learner: ACA finds no feature worth its BIC cost, IM2/IM3 do. ρ reaches
    // "has a colour" as ¬Blue ⊔ ¬Red (disjointness makes ¬Blue provable for Red ones), which
    // has length 5, so the length limit is raised from the paper's 3.
    let learn = |missing| {
        let params = TbcParams {
            missing,
            max_length: 5,
            ..TbcParams::default()
        };
        let rho = rho(&oracle);
        fit(&oracle, &pos, &neg, &rho, &params).expect("learns")
    };
    let aca = learn(Missing::Aca);
    let im2 = learn(Missing::Im2);
    let im3 = learn(Missing::Im3);
    let (aca_pr, _) = ranking(&aca.model, &oracle, &pos, &neg);
    let (im2_pr, _) = ranking(&im2.model, &oracle, &pos, &neg);
    let (im3_pr, _) = ranking(&im3.model, &oracle, &pos, &neg);
    eprintln!(
        "ACA {:?} {aca_pr:.3}; IM2 {:?} {im2_pr:.3}; IM3 {:?} {im3_pr:.3}",
        aca.model.features.len(),
        im2.model.features.len(),
        im3.model.features.len()
    );
    assert!(im2_pr > aca_pr + 0.05 && im3_pr > aca_pr + 0.05);
    assert!(im2.score.cll > aca.score.cll && im3.score.cll > aca.score.cll);
}

#[test]
fn robust_posteriors_bracket_the_aca_estimate() {
    let (oracle, pos, neg) = shapes();
    let rho = rho(&oracle);
    // Force one feature in: FS with the feature cap at 1 still picks the best one.
    let params = TbcParams {
        missing: Missing::Robust,
        max_features: 2,
        ..TbcParams::default()
    };
    let run = fit(&oracle, &pos, &neg, &rho, &params).expect("learns");
    let iv = run
        .model
        .fitted
        .intervals
        .as_ref()
        .expect("robust keeps intervals");
    for (i, cpt) in run.model.fitted.network.cpt.iter().enumerate() {
        for (j, &p) in cpt.iter().enumerate() {
            assert!(iv.lower[i][j] <= p + 1e-12 && p <= iv.upper[i][j] + 1e-12);
        }
    }
    // With Red forced as the feature, every posterior interval contains the point
    // (ACA) posterior, and the midpoint it reports lies inside.
    let forced = TbcModel {
        features: vec![red()],
        ..run.model.clone()
    };
    let among = pos.union(&neg);
    let ids: Vec<_> = among.iter().collect();
    let column = tbc::column(&oracle, &red(), &ids, &among, FeatureSemantics::Open).unwrap();
    let data = Dataset {
        class: ids.iter().map(|&a| u8::from(pos.contains(a))).collect(),
        columns: vec![tbc::encode_column(&column, Missing::Robust)],
        arity: vec![2],
    };
    let (fitted, _) = tbc::fit_network(&data, &params);
    let forced = TbcModel { fitted, ..forced };
    let predictions = forced.predict(&oracle, &among).expect("predicts");
    let mut strict = 0;
    for (n, p) in predictions.iter().enumerate() {
        let (lo, hi) = p.interval.expect("robust gives intervals");
        let point = tbc::posterior(&forced.fitted.network, &data.row(n));
        assert!(
            lo <= point + 1e-12 && point <= hi + 1e-12,
            "{lo} ≤ {point} ≤ {hi}"
        );
        assert!(lo <= p.probability && p.probability <= hi);
        assert!((p.probability - (lo + hi) / 2.0).abs() < 1e-12);
        if hi - lo > 1e-6 {
            strict += 1;
        }
    }
    assert!(strict > 0, "unknown colours must widen some intervals");
}

#[test]
fn learner_is_deterministic_and_reports_statistics() {
    let (oracle, pos, neg) = shapes();
    let rho = rho(&oracle);
    let params = TbcParams {
        missing: Missing::Im2,
        selection: Selection::Ffsbe,
        max_length: 5,
        ..TbcParams::default()
    };
    let a = fit(&oracle, &pos, &neg, &rho, &params).expect("learns");
    let b = fit(&oracle, &pos, &neg, &rho, &params).expect("learns");
    assert_eq!(a.model, b.model);
    assert!(a.stats.concepts_tested > 0);
    // Concepts tested: the beam's candidates plus the proposal run's.
    let proposal_tests = a.stats.details["proposals"]["tests"]
        .as_u64()
        .expect("counted");
    assert!(proposal_tests > 0);
    assert_eq!(
        a.stats
            .detail_u64("features_tested")
            .map(|f| f + proposal_tests),
        Some(a.stats.concepts_tested)
    );
    assert!(!a.model.features.is_empty());
    // The second run is answered in good part from the cache (its byte budget per example
    // set is bounded: the proposal run's thousands of concepts evict some answers).
    assert!(
        b.stats.queries_sent * 2 < a.stats.queries_sent,
        "{} then {} queries",
        a.stats.queries_sent,
        b.stats.queries_sent
    );
    let text = a.model.describe(&oracle.signature().vocabulary());
    assert!(
        text.contains("F1 = ") && text.contains("P(F1=true | target=true)"),
        "{text}"
    );
    let json = serde_json::to_value(&a).expect("serialises");
    assert!(json["model"]["features"][0].is_string());
    assert!(json["stats"]["termination"].is_string());
}

#[test]
fn tan_and_em_variants_run_and_score() {
    let (oracle, pos, neg) = shapes();
    let rho = rho(&oracle);
    for (structure, missing) in [
        (Structure::Tan, Missing::Aca),
        (Structure::Tan, Missing::Sem),
        (Structure::Tan, Missing::Im2),
        (Structure::Naive, Missing::Em),
    ] {
        let params = TbcParams {
            structure,
            missing,
            max_length: 2,
            depth: 2,
            ..TbcParams::default()
        };
        let run = fit(&oracle, &pos, &neg, &rho, &params).expect("learns");
        let penalty = tbc::bic_penalty(run.score.individuals, run.score.parameters);
        assert!((run.score.bic - (run.score.cll - penalty)).abs() < 1e-9);
        assert_eq!(
            run.score.parameters,
            run.model.fitted.network.shape.parameter_count()
        );
        let (pr, roc) = ranking(&run.model, &oracle, &pos, &neg);
        assert!((0.0..=1.0).contains(&pr) && (0.0..=1.0).contains(&roc));
    }
}

#[test]
fn learner_ranks_family_targets_well() {
    // family-poor has only Person, Male and Female as classes, so the targets must be
    // assembled from features: Father = Male ⊓ ∃hasChild.⊤, Sister = Female ⊓ ∃hasSibling.⊤.
    let (Some(dir), Some(poor)) = (
        common::shared_dataset("family"),
        common::shared_dataset("family-poor"),
    ) else {
        return;
    };
    let oracle = oracle_of(&[poor.join("family-benchmark.owl")]);
    let problems = load_problems(&dir.join("lps.json")).expect("loads");
    for name in ["Father", "Sister"] {
        let p = problems.iter().find(|p| p.name == name).expect("problem");
        let (pos, neg) = sets(&oracle, &p.positives, &p.negatives);
        // The family KB declares no disjointness, so open-world features are never false:
        // read them closed-world (as a `--semantics closed` run would).
        let params = TbcParams {
            semantics: FeatureSemantics::Closed,
            ..TbcParams::default()
        };
        let rho = rho(&oracle);
        let run = fit(&oracle, &pos, &neg, &rho, &params).expect("learns");
        let (pr, roc) = ranking(&run.model, &oracle, &pos, &neg);
        eprintln!(
            "{name}: {:?}, AUC-PR {pr:.3}, AUC-ROC {roc:.3}, {} tested, {} queries",
            run.model
                .features
                .iter()
                .map(oxilearn::concept::to_dl_full)
                .collect::<Vec<_>>(),
            run.stats.concepts_tested,
            run.stats.queries_sent
        );
        assert!(pr >= 0.95, "{name}: AUC-PR {pr}");
    }
}

#[test]
fn generated_problems_load_back_and_are_seeded() {
    let oracle = oracle_of(&[common::repo_path("fixtures/tbc/shapes.ttl")]);
    for semantics in [Semantics::Open, Semantics::Closed] {
        let options = TargetOptions::new(5, 7, semantics);
        let a = generate_targets(&oracle, &options).expect("generates");
        let b = generate_targets(&oracle, &options).expect("generates");
        assert_eq!(a, b, "same seed, same targets");
        assert!(!a.is_empty(), "{semantics:?}: no target found");
        let json = targets_json(&oracle, &oracle.signature().vocabulary(), &a);
        let dir = std::env::temp_dir().join(format!("oxilearn-tbc-gen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{semantics:?}.json"));
        std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
        let loaded = load_problems(&path).expect("loads back");
        assert_eq!(loaded.len(), a.len());
        for (p, t) in loaded.iter().zip(&a) {
            assert!(p.positives.len() >= 10 && p.negatives.len() >= 10, "{p:?}");
            let (small, large) = (
                p.positives.len().min(p.negatives.len()),
                p.positives.len().max(p.negatives.len()),
            );
            assert!(large <= 10 * small);
            assert_eq!(p.positives.len(), t.positives.len());
            assert!(p.target.is_some());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn generate_problems_command_writes_loadable_json() {
    let dir = std::env::temp_dir().join(format!("oxilearn-tbc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("targets.json");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args(["generate-problems", "--kb"])
        .arg(common::repo_path("fixtures/tbc/shapes.ttl"))
        .args([
            "--count",
            "3",
            "--seed",
            "11",
            "--semantics",
            "open",
            "--out",
        ])
        .arg(&out)
        .status()
        .expect("runs");
    assert!(status.success());
    let loaded = load_problems(&out).expect("loads back");
    assert!(!loaded.is_empty() && loaded.len() <= 3);
    assert!(
        loaded
            .iter()
            .all(|p| p.positives.len() >= 10 && p.negatives.len() >= 10)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cross_validation_reports_fold_summaries() {
    use oxilearn::learn::experiment::cross_validate;
    let (oracle, pos, neg) = shapes();
    let rho = rho(&oracle);
    let params = TbcParams {
        missing: Missing::Im3,
        ..TbcParams::default()
    };
    let learner = Tbc::new(params, &rho).expect("valid");
    let examples = Examples::new(pos, neg).expect("disjoint");
    let control = RunControl::default().with_max_tests(20_000);
    let cv = || cross_validate(&learner, &oracle, &examples, 5, 3, &control).expect("cv");
    let a = cv();
    let pr = a.ranking_summary(|f| f.auc_pr).expect("TBC is scored");
    assert_eq!(pr.folds.len(), 5);
    assert!(pr.folds.iter().all(|v| (0.0..=1.0).contains(v)));
    // Missingness is informative: held-out ranking beats the constant ranking's ½.
    assert!(pr.mean > 0.6, "{pr:?}");
    let b = cv();
    assert_eq!(
        Some(pr),
        b.ranking_summary(|f| f.auc_pr),
        "same seed, same folds, same figures"
    );
    assert!(a.ranking_summary(|f| f.auc_roc).is_some());
}

#[test]
fn learn_and_cv_commands_run_tbc() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_oxilearn"))
            .args(args)
            .arg("--kb")
            .arg(common::repo_path("fixtures/tbc/shapes.ttl"))
            .arg("--problems")
            .arg(common::repo_path("fixtures/tbc/problems.json"))
            .args(["--semantics", "open", "--quiet", "--json"])
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("one JSON document")
    };
    let learned = run(&["learn", "--algorithm", "tbc", "--missing", "robust"]);
    assert_eq!(learned[0]["algorithm"], "tbc");
    assert_eq!(learned[0]["predictions"].as_array().map(Vec::len), Some(40));
    assert!(learned[0]["score"]["bic"].is_number());
    let cv = run(&[
        "cv",
        "--algorithm",
        "tbc",
        "--missing",
        "im3",
        "--folds",
        "5",
    ]);
    assert_eq!(cv[0]["auc_pr"]["folds"].as_array().map(Vec::len), Some(5));
    assert!(cv[0]["auc_roc"]["mean"].is_number() && cv[0]["auc_pr"]["sd"].is_number());
}

#[test]
fn a_query_budget_ends_a_tbc_run_with_the_features_so_far() {
    let (oracle, pos, neg) = shapes();
    let rho = rho(&oracle);
    let params = TbcParams {
        missing: Missing::Im3,
        ..TbcParams::default()
    };
    let control = RunControl::default().with_max_queries(1);
    let run = tbc::fit(
        &oracle,
        &pos,
        &neg,
        &pos.union(&neg),
        &rho,
        &params,
        &control,
    )
    .expect("a budget is not an error");
    assert_eq!(
        run.stats.termination,
        oxilearn::learn::Termination::QueryBudget
    );
    // The network over what was chosen still predicts.
    assert_eq!(
        run.model.predict(&oracle, &pos.union(&neg)).unwrap().len(),
        pos.len() + neg.len()
    );
}

#[test]
fn a_query_budget_running_out_mid_level_keeps_the_candidates_answered() {
    // One thread answers a level's candidates in order, so the budget runs out at the same
    // candidate every time: with 5 queries, the first level is answered in part.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let run_with = |control: RunControl| {
        let (oracle, pos, neg) = shapes();
        let rho = rho(&oracle);
        // The beam's levels alone (no proposal run spending the queries first).
        let params = TbcParams {
            missing: Missing::Im3,
            proposals: 0,
            ..TbcParams::default()
        };
        pool.install(|| {
            tbc::fit(
                &oracle,
                &pos,
                &neg,
                &pos.union(&neg),
                &rho,
                &params,
                &control,
            )
        })
        .expect("a budget is not an error")
    };
    let whole = run_with(RunControl::default().with_max_tests(20_000));
    let cut = run_with(RunControl::default().with_max_queries(5));
    assert_eq!(
        cut.stats.termination,
        oxilearn::learn::Termination::QueryBudget
    );
    assert!(
        cut.stats.concepts_tested < whole.stats.concepts_tested,
        "the budget cut the search: {} of {} candidates",
        cut.stats.concepts_tested,
        whole.stats.concepts_tested
    );
    // The answered part of the level held the feature the whole run chooses first; it is
    // kept instead of being dropped with the level.
    assert!(!whole.model.features.is_empty());
    assert_eq!(cut.model.features[..], whole.model.features[..1]);
}

/// Family Uncle (naive, IM2, closed-world features): within the paper's scope (features of
/// length 3) the search stops after `¬Female`, since no single short feature adds enough
/// to a naive network; widening the scope when nothing helps (the default, up to length 8)
/// keeps adding features and ranks the training examples far better.
#[test]
fn widening_the_feature_scope_keeps_adding_features_on_family_uncle() {
    let Some(dir) = common::shared_dataset("family") else {
        return;
    };
    let oracle = oracle_of(&[dir.join("family-benchmark_rich_background.owl")]);
    let problems = load_problems(&dir.join("lps.json")).expect("loads");
    let p = problems
        .iter()
        .find(|p| p.name == "Uncle")
        .expect("problem");
    let (pos, neg) = sets(&oracle, &p.positives, &p.negatives);
    let rho = rho(&oracle);
    // The beam alone: the CELOE proposals would hand it the definition at once.
    let params = |widen_to| TbcParams {
        missing: Missing::Im2,
        semantics: FeatureSemantics::Closed,
        widen_to,
        proposals: 0,
        ..TbcParams::default()
    };
    let paper = fit(&oracle, &pos, &neg, &rho, &params(3)).expect("learns");
    assert_eq!(paper.model.features.len(), 1, "{:?}", paper.model.features);
    assert_eq!(paper.stats.details["widenings"], 0);
    let widened = fit(
        &oracle,
        &pos,
        &neg,
        &rho,
        &params(TbcParams::default().widen_to),
    )
    .expect("learns");
    assert!(
        widened.model.features.len() >= 2,
        "{:?}",
        widened.model.features
    );
    assert!(widened.stats.details["widenings"].as_u64().unwrap() >= 1);
    assert!(
        widened
            .model
            .features
            .iter()
            .any(|f| oxilearn::concept::length(f) > 3)
    );
    let (paper_pr, _) = ranking(&paper.model, &oracle, &pos, &neg);
    let (widened_pr, _) = ranking(&widened.model, &oracle, &pos, &neg);
    assert!(
        widened_pr >= 0.95 && widened_pr > paper_pr + 0.1,
        "AUC-PR {paper_pr} → {widened_pr}"
    );
}

/// The fixture's Father is `Male ⊓ ∃hasChild.⊤` (length 4). The beam from ⊤ scores each
/// prefix by the network's BIC: `¬Male` is the best first step, and no refinement of the
/// beam, even widened to length 8, gets back to the definition, so the network stops at a
/// ranking of AUC-PR 0.56. The CELOE proposals offer the definition; BIC takes it and it
/// ranks the examples perfectly, with a higher score. Deterministic: the proposal run has
/// a test budget.
#[test]
fn celoe_proposals_find_a_feature_the_beam_misses() {
    let oracle = oracle_of(&[common::repo_path("fixtures/family/family.ttl")]);
    let problems =
        load_problems(&common::repo_path("fixtures/family/problems.json")).expect("loads");
    let p = problems
        .iter()
        .find(|p| p.name == "Father")
        .expect("problem");
    let (pos, neg) = sets(&oracle, &p.positives, &p.negatives);
    let rho = rho(&oracle);
    let params = |proposals| TbcParams {
        missing: Missing::Im2,
        semantics: FeatureSemantics::Closed,
        proposals,
        ..TbcParams::default()
    };
    let father = oxilearn::concept::normalize(
        &oxilearn::concept::parse(
            "Male and hasChild some Thing",
            &oracle.signature().vocabulary(),
        )
        .expect("parses"),
    );
    let beam = fit(&oracle, &pos, &neg, &rho, &params(0)).expect("learns");
    assert!(
        !beam.model.features.contains(&father),
        "{:?}",
        beam.model.features
    );
    let (beam_pr, _) = ranking(&beam.model, &oracle, &pos, &neg);
    assert!(beam_pr < 0.9, "beam alone: AUC-PR {beam_pr}");
    assert_eq!(beam.stats.details["proposals"]["offered"], 0);

    let proposed = fit(&oracle, &pos, &neg, &rho, &params(10)).expect("learns");
    // The definition, or a proposal that covers the same examples (CELOE's mixes are
    // proposals too: `Male ⊓ (Father ⊔ ∃hasBirthPlace.⊤)` on this fixture).
    assert_eq!(
        proposed.model.features.len(),
        1,
        "{:?}",
        proposed.model.features
    );
    let all = pos.union(&neg);
    let covers = |c: &Concept| oracle.covered(c, &all).expect("answers");
    assert_eq!(covers(&proposed.model.features[0]), covers(&father));
    assert_eq!(proposed.stats.details["proposals"]["chosen"], 1);
    let (pr, roc) = ranking(&proposed.model, &oracle, &pos, &neg);
    assert_eq!((pr, roc), (1.0, 1.0));
    assert!(
        proposed.score.bic > beam.score.bic + 1.0,
        "BIC {} vs {}",
        proposed.score.bic,
        beam.score.bic
    );
    // Same data, same budgets: the same network and the same proposal run.
    let again = fit(&oracle, &pos, &neg, &rho, &params(10)).expect("learns");
    assert_eq!(again.model, proposed.model);
    assert_eq!(
        again.stats.details["proposals"],
        proposed.stats.details["proposals"]
    );
}

/// The progress reports cover the proposal run and the beam search as one run: the count
/// of tested concepts never goes back, it ends at the run's total, and no quality is shown
/// (CELOE's F1 during the proposals is not the network's score).
#[test]
fn progress_counts_on_through_the_proposal_run_without_a_quality() {
    use std::sync::{Arc, Mutex};
    let oracle = oracle_of(&[common::repo_path("fixtures/family/family.ttl")]);
    let problems =
        load_problems(&common::repo_path("fixtures/family/problems.json")).expect("loads");
    let p = problems
        .iter()
        .find(|p| p.name == "Uncle")
        .expect("problem");
    let (pos, neg) = sets(&oracle, &p.positives, &p.negatives);
    let rho = rho(&oracle);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let control = RunControl::default()
        .with_max_tests(20_000)
        .with_progress(move |p| sink.lock().unwrap().push(*p));
    let run = tbc::fit(
        &oracle,
        &pos,
        &neg,
        &pos.union(&neg),
        &rho,
        &TbcParams::default(),
        &control,
    )
    .expect("learns");
    let reports = seen.lock().unwrap();
    let proposal_tests = run.stats.details["proposals"]["tests"].as_u64().unwrap();
    assert!(proposal_tests > 0);
    assert!(reports.len() > 1);
    assert!(reports.iter().all(|r| r.best_quality.is_none()));
    assert!(
        reports
            .windows(2)
            .all(|w| w[0].concepts_tested <= w[1].concepts_tested),
        "{reports:?}"
    );
    let last = reports.last().unwrap().concepts_tested;
    assert!(last > proposal_tests, "{last} after {proposal_tests}");
    assert!(last <= run.stats.concepts_tested);
}
