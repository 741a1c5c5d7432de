//! `learn` and `cv` end to end: the documented JSON shapes, the text output, exit codes.

use crate::common;

use common::cli_run::{fails_with, json, oxilearn};

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";

/// `COMMAND --kb FAMILY --problems PROBLEMS REST…`: the bundled family fixture's arguments.
fn on_family<'a>(command: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![command, "--kb", FAMILY, "--problems", PROBLEMS];
    args.extend_from_slice(rest);
    args
}

#[test]
fn learn_json_has_the_documented_fields() {
    let v = json(&on_family(
        "learn",
        &[
            "--problem",
            "Father",
            "--problem",
            "Uncle",
            "--max-tests",
            "20000",
            "--json",
        ],
    ));
    let runs = v.as_array().expect("an array over problems");
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["problem"], "Father");
    assert_eq!(runs[1]["problem"], "Uncle");
    for r in runs {
        assert_eq!(r["algorithm"], "celoe");
        let best = &r["solutions"][0];
        for field in [
            "manchester",
            "dl",
            "length",
            "tp",
            "fp",
            "tn",
            "fn",
            "f1",
            "accuracy",
        ] {
            assert!(!best[field].is_null(), "solution field {field} in {best}");
        }
        assert_eq!(best["f1"], 1.0, "{r}");
        assert_eq!(best["fn"], 0);
        let stats = &r["stats"];
        for field in [
            "concepts_tested",
            "queries_sent",
            "cache_hits",
            "cache_misses",
            "elapsed_ms",
            "termination",
        ] {
            assert!(!stats[field].is_null(), "stats field {field} in {stats}");
        }
        assert_eq!(stats["termination"], "perfect_solution");
    }
    let father = runs[0]["solutions"][0]["manchester"].as_str().unwrap();
    assert!(
        father.contains("hasChild") && father.contains("Male"),
        "{father}"
    );
}

#[test]
fn learn_text_names_the_solution_and_the_statistics() {
    let out = oxilearn(&on_family("learn", &["--problem", "Father", "--quiet"]));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("problem Father"), "{text}");
    assert!(text.contains("DL: "), "{text}");
    assert!(text.contains("concepts tested"), "{text}");
    assert!(text.contains("termination: perfect_solution"), "{text}");
}

#[test]
fn cv_reports_every_fold_and_the_means() {
    let v = json(&on_family(
        "cv",
        &[
            "--problem",
            "Father",
            "--folds",
            "2",
            "--seed",
            "3",
            "--max-tests",
            "5000",
            "--json",
        ],
    ));
    let r = &v[0];
    assert_eq!(r["problem"], "Father");
    assert_eq!(r["folds"], 2);
    assert_eq!(r["per_fold"].as_array().unwrap().len(), 2);
    for key in ["train_f1", "test_f1", "train_accuracy", "test_accuracy"] {
        let s = &r[key];
        assert_eq!(s["folds"].as_array().unwrap().len(), 2, "{key}");
        assert!(s["mean"].as_f64().is_some() && s["sd"].as_f64().is_some());
    }
    assert_eq!(r["train_f1"]["mean"], 1.0);
    // Same seed, same folds, same answers.
    let again = json(&on_family(
        "cv",
        &[
            "--problem",
            "Father",
            "--folds",
            "2",
            "--seed",
            "3",
            "--max-tests",
            "5000",
            "--json",
        ],
    ));
    assert_eq!(again[0]["test_f1"], r["test_f1"]);
}

#[test]
fn cv_text_is_a_table_with_mean_and_sd() {
    let out = oxilearn(&on_family(
        "cv",
        &[
            "--problem",
            "Father",
            "--folds",
            "2",
            "--max-tests",
            "3000",
            "--quiet",
        ],
    ));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("test F1") && text.contains("±"), "{text}");
}

#[test]
fn bad_learner_input_fails_clearly() {
    let e = fails_with(&on_family("cv", &["--problem", "Father", "--folds", "50"]));
    assert!(
        e.contains("50 stratified folds need at least 50 positive"),
        "{e}"
    );
    let e = fails_with(&on_family("learn", &["--noise", "150"]));
    assert!(e.contains("noise_percentage"), "{e}");
    let e = fails_with(&on_family("learn", &["--expansion-penalty", "NaN"]));
    assert!(e.contains("expansion_penalty_factor"), "{e}");
    let e = fails_with(&on_family("learn", &["--start-class", "Nonsense"]));
    assert!(e.contains("Nonsense"), "{e}");
    let e = fails_with(&on_family("learn", &["--problem", "Nope"]));
    assert!(e.contains("Nope"), "{e}");
    // Huge budgets are refused with the flag's name (Duration::from_secs_f64 would panic).
    let e = fails_with(&on_family("learn", &["--max-runtime", "1e20"]));
    assert!(e.contains("--max-runtime"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

/// `cv --algorithm a,b`: each learner on the same folds, one JSON entry per learner in the
/// order given, flags handed to the learners that take them, and a side-by-side table.
#[test]
fn cv_compares_several_learners_side_by_side() {
    let base = [
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--folds",
        "2",
        "--max-tests",
        "3000",
        "--algorithm",
        "celoe,owl-boost",
        // CELOE's flag and owl-boost's: each goes to its learner only.
        "--noise",
        "5",
        "--rounds",
        "3",
    ];
    let mut args = base.to_vec();
    args.push("--json");
    let v = json(&args);
    let runs = v.as_array().expect("an array over learners");
    assert_eq!(runs.len(), 2, "{v}");
    assert_eq!(runs[0]["algorithm"], "celoe");
    assert_eq!(runs[1]["algorithm"], "owl-boost");
    for r in runs {
        assert_eq!(r["problem"], "Father");
        assert_eq!(r["folds_completed"], 2, "{r}");
    }
    // Father is learnable exactly by both on its training folds.
    assert_eq!(runs[0]["train_f1"]["mean"], 1.0, "{}", runs[0]);
    for f in runs[1]["per_fold"].as_array().unwrap() {
        let rounds = f["alphas"]
            .as_array()
            .expect("owl-boost's α per round")
            .len();
        assert!((1..=3).contains(&rounds), "{f}");
    }
    let mut args = base.to_vec();
    args.push("--quiet");
    let out = oxilearn(&args);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let table = text
        .split("test means ± sd")
        .nth(1)
        .unwrap_or_else(|| panic!("no side-by-side table in {text}"));
    assert!(table.contains("AUC-ROC"), "{text}");
    let celoe_row = table.lines().find(|l| l.trim_start().starts_with("celoe"));
    let boost_row = table
        .lines()
        .find(|l| l.trim_start().starts_with("owl-boost"));
    assert!(celoe_row.is_some() && boost_row.is_some(), "{table}");
    // A learner flag none of the learners takes is refused, naming it.
    let e = fails_with(&on_family(
        "cv",
        &["--algorithm", "celoe,wfoil-dl", "--rounds", "3"],
    ));
    assert!(e.contains("--rounds"), "{e}");
    // A list outside `cv`, an unknown name and a repeated one are refused.
    let e = fails_with(&on_family("learn", &["--algorithm", "celoe,tbc"]));
    assert!(e.contains("`cv` compares several"), "{e}");
    let e = fails_with(&on_family("cv", &["--algorithm", "celoe,nope"]));
    assert!(e.contains("nope"), "{e}");
    let e = fails_with(&on_family("cv", &["--algorithm", "celoe,celoe"]));
    assert!(e.contains("twice"), "{e}");
}

/// owl-boost refuses the open world, saying why (its degrees would not be sound).
#[test]
fn owl_boost_refuses_the_open_world_with_the_reason() {
    let e = fails_with(&on_family(
        "learn",
        &["--algorithm", "owl-boost", "--semantics", "open"],
    ));
    assert!(e.contains("closed-world semantics only"), "{e}");
    assert!(e.contains("unknown rather than degree 0"), "{e}");
}

const ZOO: &str = "fixtures/multiclass/zoo.ttl";
const ZOO_TRAIN: &str = "fixtures/multiclass/zoo-train.tsv";
const ZOO_TEST: &str = "fixtures/multiclass/zoo-test.tsv";

/// `COMMAND --algorithm multiclass --kb ZOO --problems ZOO_TRAIN --label-column class REST…`.
fn on_zoo<'a>(command: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        command,
        "--algorithm",
        "multiclass",
        "--kb",
        ZOO,
        "--problems",
        ZOO_TRAIN,
        "--label-column",
        "class",
    ];
    args.extend_from_slice(rest);
    args
}

fn zoo_learn(extra: &[&str]) -> serde_json::Value {
    let mut args = on_zoo("learn", &["--quiet", "--json"]);
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn multiclass_train_test_split_runs_end_to_end() {
    let v = zoo_learn(&["--test", ZOO_TEST, "--combine", "mrl"]);
    let r = &v[0];
    assert_eq!(r["algorithm"], "multiclass");
    assert_eq!(r["combine"], "mrl");
    assert_eq!(
        r["classes"],
        serde_json::json!(["bird", "fish", "mammal", "reptile"])
    );
    // Every class gets at least one rule, and on the training animals the theory is exact.
    let rules = r["rules"].as_array().expect("rules");
    for class in ["bird", "fish", "mammal", "reptile"] {
        assert!(
            rules.iter().any(|x| x["class"] == class),
            "{class}: {rules:?}"
        );
    }
    assert_eq!(r["train"]["accuracy"], 1.0, "{r}");
    let test = &r["test"];
    for key in [
        "accuracy",
        "multi_model_accuracy",
        "average_recall",
        "weighted_auc",
    ] {
        assert!(test[key].is_number(), "test.{key} in {test}");
    }
    // Eight held-out animals, two per class; only the whale (no fur, no gills, in the
    // water) has nothing a mammal rule can see.
    let m = &test["confusion"]["matrix"];
    let rows: Vec<Vec<u64>> = serde_json::from_value(m.clone()).expect("matrix");
    assert!(rows.iter().all(|row| row.iter().sum::<u64>() == 2), "{m}");
    let diagonal: u64 = (0..4).map(|i| rows[i][i]).sum();
    assert_eq!(diagonal, 7, "{m}");
    assert_eq!(test["accuracy"], 0.875);
    assert_eq!(rows[2][2], 1, "one mammal (the whale) is missed: {m}");
}

#[test]
fn multiclass_runs_are_deterministic_and_models_save_and_predict() {
    let a = zoo_learn(&["--combine", "mrl", "--test", ZOO_TEST]);
    let b = zoo_learn(&["--combine", "mrl", "--test", ZOO_TEST]);
    assert_eq!(a[0]["rules"], b[0]["rules"]);
    assert_eq!(a[0]["test"], b[0]["test"]);
    let dir = std::env::temp_dir().join(format!("oxilearn-mc-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("zoo.json");
    let model = model.to_str().expect("utf-8 path");
    zoo_learn(&["--combine", "mrsu", "--save-model", model]);
    let p = json(&[
        "predict",
        "--kb",
        ZOO,
        "--model",
        model,
        "--class",
        "Feathers or Gills",
        "--json",
    ]);
    let labels: std::collections::BTreeMap<String, String> = p["predictions"]
        .as_array()
        .expect("predictions")
        .iter()
        .map(|x| {
            (
                x["individual"].as_str().expect("iri").to_owned(),
                x["label"].as_str().expect("a label").to_owned(),
            )
        })
        .collect();
    assert_eq!(labels.len(), 12, "{labels:?}");
    assert_eq!(labels["http://example.org/zoo#ostrich"], "bird");
    assert_eq!(labels["http://example.org/zoo#eel"], "fish");
    assert!(p["predictions"][0]["distribution"].is_array());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn multiclass_cv_reports_mean_sd_and_folds_per_measure() {
    let v = json(&on_zoo("cv", &["--folds", "4", "--quiet", "--json"]));
    let r = &v[0];
    assert_eq!(r["folds_completed"], 4);
    for key in ["accuracy", "multi_model_accuracy", "average_recall"] {
        let folds = r[key]["folds"].as_array().expect("folds");
        assert_eq!(folds.len(), 4, "{key}");
        let mean = folds
            .iter()
            .map(|x| x.as_f64().expect("number"))
            .sum::<f64>()
            / 4.0;
        assert!((r[key]["mean"].as_f64().expect("mean") - mean).abs() < 1e-12);
        assert!(r[key]["sd"].is_number());
    }
    // Per-class stratification: each fold tests one animal of each class.
    let total: u64 = r["confusion"]["matrix"]
        .as_array()
        .expect("matrix")
        .iter()
        .flat_map(|row| {
            row.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_u64().unwrap_or(0))
        })
        .sum();
    assert_eq!(total, 16);
}

#[test]
fn multiclass_input_errors_name_the_file_and_flags_of_others_are_refused() {
    let dir = std::env::temp_dir().join(format!("oxilearn-mc-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("test.tsv");
    std::fs::write(
        &bad,
        "individual\tclass\nhttp://example.org/zoo#cat\tdragon\n",
    )
    .expect("write");
    let bad_path = bad.to_str().expect("utf-8");
    let e = fails_with(&on_zoo("learn", &["--test", bad_path, "--quiet"]));
    assert!(e.contains("test.tsv") && e.contains("dragon"), "{e}");
    // A mistyped class to hide is an error, not a silently ignored flag.
    let e = fails_with(&on_zoo(
        "learn",
        &["--ignore-class", "http://example.org/zoo#Furr", "--quiet"],
    ));
    assert!(
        e.contains("http://example.org/zoo#Furr") && e.contains("not a class"),
        "{e}"
    );
    let e = fails_with(&[
        "learn",
        "--kb",
        ZOO,
        "--problems",
        "fixtures/family/problems.json",
        "--combine",
        "mrl",
    ]);
    assert!(e.contains("--combine"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `.conf` learner settings are defaults: flags given win, what is not understood or not
/// used by the learner is reported with its file and line.
#[test]
fn conf_learner_settings_are_defaults_that_flags_override() {
    let dir = std::env::temp_dir().join(format!("oxilearn-conf-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kb = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FAMILY);
    let fixture = std::fs::read_to_string("fixtures/family/family.conf").unwrap();
    let conf = fixture
        .replace("\"family.ttl\"", &format!("{:?}", kb.display().to_string()))
        .replace(
            "alg.maxExecutionTimeInSeconds = 10\n",
            "alg.maxExecutionTimeInSeconds = 10\nalg.noisePercentage = 10\n\
             alg.maxNrOfResults = 2\nalg.writeSearchTree = false\n\
             h.expansionPenaltyFactor = 0.05\nop.useNegation = false\n",
        );
    let conf_path = dir.join("father.conf");
    std::fs::write(&conf_path, &conf).unwrap();
    let line_of = |key: &str| conf.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    let model = dir.join("model.json");
    let out = oxilearn(&[
        "learn",
        "--problems",
        conf_path.to_str().unwrap(),
        "--noise",
        "20",
        "--max-tests",
        "3000",
        "--quiet",
        "--json",
        "--save-model",
        model.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let expected = format!(
        "{}:{}: alg.writeSearchTree: not understood, ignored",
        conf_path.display(),
        line_of("alg.writeSearchTree")
    );
    assert!(stderr.contains(&expected), "{stderr}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let p = &doc["parameters"];
    // The flag wins over alg.noisePercentage; the others come from the file.
    assert_eq!(p["noise_percentage"], 20.0, "{p}");
    assert_eq!(p["max_results"], 2, "{p}");
    assert_eq!(p["heuristic"]["expansion_penalty_factor"], 0.05, "{p}");
    let learned: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in learned[0]["solutions"].as_array().unwrap() {
        assert!(!s["manchester"].as_str().unwrap().contains("not "), "{s}");
    }
    // A setting the learner does not use is named with its line.
    let tbc = oxilearn(&[
        "learn",
        "--problems",
        conf_path.to_str().unwrap(),
        "--algorithm",
        "tbc",
        "--max-tests",
        "200",
        "--quiet",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&tbc.stderr);
    let expected = format!(
        "{}:{}: alg.noisePercentage: not used by --algorithm tbc, ignored",
        conf_path.display(),
        line_of("alg.noisePercentage")
    );
    assert!(stderr.contains(&expected), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A saved multi-class model: `evaluate` gives the measures `learn --test` gives on the
/// same examples; a binary problem file, `--label-column` with a binary model, and
/// `export` / `enrich` of a multi-class model are refused with what to do instead.
#[test]
fn saved_multiclass_model_evaluates_and_export_enrich_refuse_it() {
    let dir = std::env::temp_dir().join(format!("oxilearn-mc-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("zoo.json");
    let model = model.to_str().expect("utf-8 path");
    let learned = zoo_learn(&[
        "--combine",
        "mrl",
        "--test",
        ZOO_TEST,
        "--save-model",
        model,
    ]);
    let evaluated = json(&[
        "evaluate",
        "--kb",
        ZOO,
        "--problems",
        ZOO_TEST,
        "--label-column",
        "class",
        "--model",
        model,
        "--json",
    ]);
    assert_eq!(evaluated["algorithm"], "multiclass");
    assert_eq!(evaluated["combine"], "mrl");
    let test = &learned[0]["test"];
    for key in [
        "accuracy",
        "multi_model_accuracy",
        "average_recall",
        "weighted_auc",
        "confusion",
        "default_rule_share",
    ] {
        assert_eq!(
            evaluated[key], test[key],
            "{key}: {evaluated} against {test}"
        );
    }
    assert_eq!(evaluated["accuracy"], 0.875);
    assert_eq!(evaluated["examples"]["mammal"], 2);
    // The text form prints the confusion too.
    let out = oxilearn(&[
        "evaluate",
        "--kb",
        ZOO,
        "--problems",
        ZOO_TEST,
        "--label-column",
        "class",
        "--model",
        model,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("accuracy 0.8750") && text.contains("mammal"),
        "{text}"
    );
    // A binary problem has no labels the model knows.
    let binary = dir.join("binary.json");
    std::fs::write(
        &binary,
        r#"{"problems": {"birds": {"positive_examples": ["http://example.org/zoo#eagle"],
            "negative_examples": ["http://example.org/zoo#cat"]}}}"#,
    )
    .expect("write");
    let e = fails_with(&[
        "evaluate",
        "--kb",
        ZOO,
        "--problems",
        binary.to_str().expect("utf-8"),
        "--model",
        model,
    ]);
    assert!(
        e.contains("binary.json is a binary problem") && e.contains("bird, fish, mammal, reptile"),
        "{e}"
    );
    // --label-column belongs to multi-class models.
    let celoe = dir.join("father.json");
    let celoe = celoe.to_str().expect("utf-8 path");
    json(&on_family(
        "learn",
        &[
            "--problem",
            "Father",
            "--max-tests",
            "500",
            "--quiet",
            "--json",
            "--save-model",
            celoe,
        ],
    ));
    let e = fails_with(&on_family(
        "evaluate",
        &["--model", celoe, "--label-column", "class"],
    ));
    assert!(
        e.contains("--label-column") && e.contains("celoe model"),
        "{e}"
    );
    // export and enrich say what the model is and what to use, without needing a KB.
    let e = fails_with(&["export", "--model", model]);
    assert!(
        e.contains("is a multi-class model") && e.contains("export writes one class expression"),
        "{e}"
    );
    assert!(e.contains("oxilearn predict --kb KB --model"), "{e}");
    let e = fails_with(&[
        "enrich",
        "--kb",
        ZOO,
        "--model",
        model,
        "--graph",
        "http://example.org/g",
        "--dry-run",
    ]);
    assert!(
        e.contains("is a multi-class model") && e.contains("enrich types the predicted members"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A train/test TSV split made from a shared data set (lymphography: every third example of
/// each class held out) runs end to end, its classes hidden as its `.conf` files hide them,
/// and the theory beats the majority class on the held-out patients.
#[test]
fn multiclass_tsv_split_of_lymphography_runs_end_to_end() {
    let Some(dir) = common::shared_dataset("lymphography") else {
        return;
    };
    let problem = &oxilearn::problem::load_multiclass(&dir, None).expect("lymphography")[0];
    let (mut train, mut test) = (String::new(), String::new());
    for c in 0..problem.classes.len() {
        for (i, iri) in problem.members(c).iter().enumerate() {
            let row = format!("{iri}\t{}\n", problem.classes[c]);
            if i % 3 == 2 { &mut test } else { &mut train }.push_str(&row);
        }
    }
    let (train_path, test_path) = (
        common::temp_path("cli-learn", "lymph-train.tsv"),
        common::temp_path("cli-learn", "lymph-test.tsv"),
    );
    std::fs::write(&train_path, format!("individual\tclass\n{train}")).unwrap();
    std::fs::write(&test_path, format!("individual\tclass\n{test}")).unwrap();
    let kb = dir.join("lymphography.owl");
    let mut args = vec![
        "learn",
        "--algorithm",
        "multiclass",
        "--kb",
        kb.to_str().unwrap(),
        "--problems",
        train_path.to_str().unwrap(),
        "--test",
        test_path.to_str().unwrap(),
        "--label-column",
        "class",
        "--quiet",
        "--json",
    ];
    for iri in &problem.ignored_classes {
        args.extend(["--ignore-class", iri.as_str()]);
    }
    let out = json(&args);
    let test = &out[0]["test"];
    let rows: Vec<Vec<u64>> =
        serde_json::from_value(test["confusion"]["matrix"].clone()).expect("matrix");
    let per_class: Vec<u64> = rows.iter().map(|r| r.iter().sum()).collect();
    // Held out: every third of 2/81/61/4 patients.
    assert_eq!(per_class, [0, 27, 20, 1], "{test}");
    let majority = 27.0 / 48.0;
    let accuracy = test["accuracy"].as_f64().expect("accuracy");
    assert!(
        accuracy > majority,
        "accuracy {accuracy} vs majority {majority}: {test}"
    );
    for rule in out[0]["rules"].as_array().expect("rules") {
        let m = rule["manchester"].as_str().unwrap();
        assert!(!m.contains("Target"), "an ignored class in a rule: {m}");
    }
}

/// A DL-Learner `.conf` of either dialect over its `.kb` file runs with defaults, and the
/// learner sees exactly the individuals the conf names.
#[test]
fn learn_reads_dl_learner_confs_over_kb_files() {
    for conf in [
        "fixtures/dllearner/old_kb.conf",
        "fixtures/dllearner/new_kb.conf",
    ] {
        let v = json(&["learn", "--problems", conf, "--max-runtime", "3", "--json"]);
        let run = &v[0];
        assert_eq!(run["positives"], 4, "{conf}");
        assert_eq!(run["negatives"], 2, "{conf}");
        let best = &run["solutions"][0];
        let counted = ["tp", "fp", "tn", "fn"]
            .iter()
            .map(|k| best[k].as_u64().expect("count"))
            .sum::<u64>();
        assert_eq!(counted, 6, "{conf}: {best}");
    }
    let v = json(&[
        "learn",
        "--problems",
        "fixtures/dllearner/old_kb.conf",
        "--max-runtime",
        "3",
        "--json",
    ]);
    assert_eq!(v[0]["solutions"][0]["f1"], 1.0, "{v}");
}

/// A conf's SPARQL endpoint is queried directly; unreachable, it is a clear error naming
/// it, and `--endpoint` overrides it.
#[test]
fn learn_queries_a_conf_endpoint_and_endpoint_flag_overrides_it() {
    let conf = "fixtures/dllearner/endpoint.conf";
    let err = fails_with(&["learn", "--problems", conf, "--timeout", "2"]);
    assert!(
        err.contains("endpoint.conf:3: querying the SPARQL endpoint"),
        "{err}"
    );
    assert!(err.contains("http://127.0.0.1:9/sparql"), "{err}");
    assert!(
        err.contains("endpoint.conf:11: alg.type = \"qtl2dis\""),
        "{err}"
    );
    let err = fails_with(&[
        "learn",
        "--problems",
        conf,
        "--endpoint",
        "http://127.0.0.1:1/sparql",
        "--timeout",
        "2",
    ]);
    assert!(err.contains("http://127.0.0.1:1/sparql"), "{err}");
    assert!(!err.contains("127.0.0.1:9"), "{err}");
}

/// One problem whose examples are not in the KB: the reason is the error's first line.
#[test]
fn one_unrunnable_problem_says_why_on_the_first_line() {
    let path = std::env::temp_dir().join(format!("ghost-{}.json", std::process::id()));
    std::fs::write(
        &path,
        r#"{"problems": {"Ghost": {
            "positive_examples": ["http://example.org/family#nobody"],
            "negative_examples": ["http://example.org/family#carlos"]}}}"#,
    )
    .unwrap();
    let e = fails_with(&[
        "learn",
        "--kb",
        "fixtures/family/family.ttl",
        "--problems",
        path.to_str().unwrap(),
        "--quiet",
    ]);
    let first = e.lines().next().unwrap_or_default();
    assert!(
        first.contains("problem \"Ghost\"") && first.contains("not individuals"),
        "{e}"
    );
    let _ = std::fs::remove_file(path);
}
