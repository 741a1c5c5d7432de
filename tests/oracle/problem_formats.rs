//! Every learning-problem format, on our own small files and on the shared real ones.

use crate::common::datasets;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use oxilearn::files::KbFormat;
use oxilearn::problem::{
    LearningProblem, ProblemError, Setting, check_examples, load_multiclass, load_problems, select,
};

const P: &str = "http://example.org/p#";
const FAM: &str = "http://example.org/fam#";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/problems")
        .join(name)
}

fn load(name: &str) -> Vec<LearningProblem> {
    load_problems(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn err(name: &str) -> ProblemError {
    load_problems(&fixture(name)).expect_err(name)
}

fn iris(base: &str, locals: &[&str]) -> Vec<String> {
    locals.iter().map(|l| format!("{base}{l}")).collect()
}

#[test]
fn ontolearn_json_keeps_file_order_and_dedups() {
    let ps = load("multi.json");
    let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Zeta", "Alpha", "Mid"]);
    assert_eq!(ps[0].positives, iris(P, &["a", "b"]));
    assert_eq!(ps[0].negatives, iris(P, &["c"]));
    assert!(ps[1].negatives.is_empty());
    assert_eq!(ps[0].target, None);
    assert_eq!(ps[0].kb_file, None);
}

#[test]
fn single_ontolearn_json_is_named_after_the_file() {
    let ps = load("single.json");
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].name, "single");
    assert_eq!(ps[0].positives.len(), 2);
    assert_eq!(ps[0].negatives.len(), 1);
}

#[test]
fn list_json_names_p1_p2_or_its_name_field() {
    let ps = load("list.json");
    let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["p1", "p2", "named"]);
    assert_eq!(
        ps[0].target.as_deref(),
        Some("(Parent AND (hasChild some Female))")
    );
    assert_eq!(ps[0].negatives, iris(P, &["b", "c"]));
}

#[test]
fn conf_expands_prefixes_and_ignores_other_keys() {
    let ps = load("small.conf");
    assert_eq!(ps.len(), 1);
    let p = &ps[0];
    assert_eq!(p.name, "small");
    assert_eq!(p.positives, iris(FAM, &["ann", "bob", "carl"]));
    assert_eq!(
        p.negatives,
        vec![
            "http://example.org/other#dora".to_owned(),
            format!("{FAM}eve"),
            format!("{FAM}fred")
        ]
    );
    assert_eq!(
        p.kb_file.as_deref(),
        Some(fixture("../loading/entities.owl").as_path())
    );
}

#[test]
fn conf_variants() {
    let ps = load("posonly.conf");
    assert_eq!(ps[0].positives.len(), 2);
    assert!(ps[0].negatives.is_empty());
    assert_eq!(ps[0].kb_file, Some(fixture("kb.owl")));

    let ps = load("class.conf");
    assert_eq!(
        ps[0].target.as_deref(),
        Some("http://example.org/fam#Female")
    );
    assert!(ps[0].positives.is_empty());

    let e = err("fuzzy.conf").to_string();
    assert!(e.contains("fuzzy.conf") && e.contains("fuzzy"), "{e}");
}

#[test]
fn conf_errors_name_file_and_line() {
    let e = err("unknown_prefix.conf");
    assert!(
        matches!(e, ProblemError::Syntax { line: Some(5), .. }),
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(msg.contains("unknown_prefix.conf:5"), "{msg}");
    assert!(msg.contains("\"zz\""), "{msg}");

    let e = err("broken.conf");
    let msg = e.to_string();
    assert!(msg.contains("broken.conf:5"), "{msg}");
    assert!(msg.contains("expected ',' or '}'"), "{msg}");
}

#[test]
fn json_errors() {
    let msg = err("bad.json").to_string();
    assert!(msg.contains("bad.json:3"), "{msg}");
    let msg = err("relative.json").to_string();
    assert!(
        msg.contains("relative.json") && msg.contains("F2F14"),
        "{msg}"
    );
    match err("conflict.json") {
        ProblemError::Conflict {
            problem,
            iris: both,
            ..
        } => {
            assert_eq!(problem, "Clash");
            assert_eq!(both, iris(P, &["c", "a"]));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn sml_layouts() {
    let ps = load("sml");
    let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["cat", "dog"]);
    assert_eq!(
        ps[0].positives,
        iris("http://example.org/zoo#", &["tom", "felix"])
    );
    assert_eq!(ps[1].negatives.len(), 2);
    // Pointing at lp/ itself, at one problem directory, or at its pos.txt.
    assert_eq!(load("sml/lp").len(), 2);
    assert_eq!(load("sml/lp/dog")[0].name, "dog");
    assert_eq!(load("sml/lp/dog/pos.txt")[0].name, "dog");
    let single = load("sml_single");
    assert_eq!(single[0].positives.len(), 2);

    let e = err("sml_bad");
    assert!(
        matches!(e, ProblemError::Syntax { line: Some(3), .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("pos.txt:3"), "{e}");
}

#[test]
fn select_and_check() {
    let ps = load("multi.json");
    let picked = select(ps.clone(), &["Mid".into(), "Zeta".into()]).expect("select");
    assert_eq!(picked[0].name, "Mid");
    assert_eq!(select(ps.clone(), &[]).expect("all").len(), 3);
    let msg = select(ps.clone(), &["Nope".into(), "Alpha".into()])
        .expect_err("unknown")
        .to_string();
    assert!(
        msg.contains("Nope") && msg.contains("Zeta, Alpha, Mid"),
        "{msg}"
    );

    let known: HashSet<String> = iris(P, &["b"]).into_iter().collect();
    match check_examples(&ps[2], |i| known.contains(i)) {
        Err(ProblemError::NotInKb {
            positives,
            negatives,
            ..
        }) => {
            assert!(positives.is_empty());
            assert_eq!(negatives, iris(P, &["a", "d"]));
        }
        other => panic!("{other:?}"),
    }
    assert!(check_examples(&ps[1], |_| true).is_ok());
}

const FAMILY: [&str; 18] = [
    "Aunt",
    "Brother",
    "Cousin",
    "Daughter",
    "Father",
    "Granddaughter",
    "Grandfather",
    "Grandgranddaughter",
    "Grandgrandfather",
    "Grandgrandmother",
    "Grandgrandson",
    "Grandmother",
    "Grandson",
    "Mother",
    "PersonWithASibling",
    "Sister",
    "Son",
    "Uncle",
];

#[test]
fn real_family_json_and_confs_agree() {
    let Some(dir) = datasets::datasets_or_skip("") else {
        return;
    };
    let ps = load_problems(&dir.join("family/lps.json")).expect("lps.json");
    let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, FAMILY);
    let mut differences = Vec::new();
    for p in &ps {
        let conf = dir.join(format!("family/dllearner-conf/{}.conf", p.name));
        let c = &load_problems(&conf).expect("conf")[0];
        let set = |v: &[String]| v.iter().cloned().collect::<HashSet<_>>();
        if set(&c.positives) != set(&p.positives) || set(&c.negatives) != set(&p.negatives) {
            differences.push(format!(
                "{}: json {}/{} conf {}/{}",
                p.name,
                p.positives.len(),
                p.negatives.len(),
                c.positives.len(),
                c.negatives.len()
            ));
        }
        println!("{}: {}/{}", p.name, p.positives.len(), p.negatives.len());
    }
    assert!(differences.is_empty(), "{differences:#?}");
    for class_conf in ["Female-owl.conf", "Female-sparql.conf"] {
        let c =
            &load_problems(&dir.join("family/dllearner-conf").join(class_conf)).expect("conf")[0];
        assert_eq!(
            c.target.as_deref(),
            Some("http://www.benchmark.org/family#Female")
        );
    }
}

#[test]
fn real_other_problem_files() {
    let Some(dir) = datasets::datasets_or_skip("") else {
        return;
    };
    let one = |f: &str| {
        let ps = load_problems(&dir.join(f)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ps.len(), 1, "{f}");
        ps.into_iter().next().expect("one")
    };
    let c = one("carcinogenesis/train.conf");
    assert_eq!((c.positives.len(), c.negatives.len()), (182, 155));
    assert!(c.positives[0].starts_with("http://dl-learner.org/carcinogenesis#d"));
    assert_eq!(
        c.kb_file,
        Some(dir.join("carcinogenesis/carcinogenesis.owl"))
    );
    let c = one("carcinogenesis/lp.json");
    assert_eq!((c.positives.len(), c.negatives.len()), (162, 136));
    let f = one("father/father.conf");
    assert_eq!((f.positives.len(), f.negatives.len()), (3, 3));
    assert_eq!(f.positives[0], "http://example.com/father#stefan");
    let t = one("trains/trains_owl.conf");
    assert_eq!((t.positives.len(), t.negatives.len()), (5, 5));
    let m = one("mammographic/train.conf");
    assert_eq!((m.positives.len(), m.negatives.len()), (445, 516));
    let h = one("heart/train.conf");
    assert_eq!((h.positives.len(), h.negatives.len()), (120, 150));
    let d = one("literals/doubles.conf");
    assert_eq!((d.positives.len(), d.negatives.len()), (3, 3));
    for (i, sizes) in [(1, (2, 146)), (2, (81, 67)), (3, (61, 87)), (4, (4, 144))] {
        let l = one(&format!("lymphography/lymphography_Class{i}.conf"));
        assert_eq!((l.positives.len(), l.negatives.len()), sizes, "Class{i}");
    }
    let s = load_problems(&dir.join("suramin/suramin.json")).expect("suramin");
    assert_eq!((s[0].positives.len(), s[0].negatives.len()), (7, 10));

    let b = load_problems(&dir.join("biopax/lp.json")).expect("biopax");
    assert_eq!(b.len(), 96);
    assert!(
        b.iter()
            .all(|p| p.target.is_some() && !p.positives.is_empty())
    );

    let a = load_problems(&dir.join("animals")).expect("animals");
    let names: Vec<&str> = a.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["bird", "fish", "mammal", "reptile"]);

    // The fuzzy problems also carry crisp example sets; those are what we read.
    for fuzzy in [
        "fuzzytrains/fuzzy_trains.conf",
        "fuzzytrains/fuzzytrains.conf",
    ] {
        let f = one(fuzzy);
        assert_eq!((f.positives.len(), f.negatives.len()), (2, 2), "{fuzzy}");
    }
}

/// The examples of the real problems are individuals of their KBs.
#[test]
fn real_examples_are_in_their_kbs() {
    let Some(dir) = datasets::datasets_or_skip("") else {
        return;
    };
    let cases = [
        (
            "family/lps.json",
            "family/family-benchmark_rich_background.owl",
        ),
        (
            "carcinogenesis/train.conf",
            "carcinogenesis/carcinogenesis.nt.gz",
        ),
        ("animals", "animals/animals.owl"),
        ("biopax/lp.json", "biopax/biopax.owl"),
    ];
    for (problems, kb) in cases {
        let store = oxigraph::store::Store::new().expect("store");
        oxilearn::files::load_file(&store, &dir.join(kb), None).expect("kb");
        let subjects: HashSet<String> = store
            .iter()
            .filter_map(Result::ok)
            .filter_map(|q| match q.subject {
                oxigraph::model::NamedOrBlankNode::NamedNode(n) => Some(n.into_string()),
                _ => None,
            })
            .collect();
        for p in load_problems(&dir.join(problems)).expect("problems") {
            if let Err(e) = check_examples(&p, |i| subjects.contains(i)) {
                panic!("{problems}: {e}");
            }
        }
    }
}

/// The shared multi-class data sets: a folder of one `.conf` per class (lymphography, with
/// its ignored target classes) and SML-Bench's `lp/<class>/` (animals).
#[test]
fn real_multi_class_problems() {
    let Some(dir) = datasets::datasets_or_skip("") else {
        return;
    };
    let l = load_multiclass(&dir.join("lymphography"), None).expect("lymphography");
    assert_eq!(l.len(), 1);
    let l = &l[0];
    assert_eq!(l.classes, ["Class1", "Class2", "Class3", "Class4"]);
    let sizes: Vec<usize> = (0..4).map(|c| l.members(c).len()).collect();
    assert_eq!(sizes, [2, 81, 61, 4]);
    assert_eq!(l.examples.len(), 148);
    assert_eq!(l.ignored_classes.len(), 4);
    assert!(
        l.ignored_classes
            .iter()
            .all(|c| c.starts_with("http://www.example.org/lymphography#Target"))
    );
    assert!(
        l.kb_file
            .as_ref()
            .is_some_and(|f| f.ends_with("lymphography.owl"))
    );
    let a = &load_multiclass(&dir.join("animals"), None).expect("animals")[0];
    assert_eq!(a.classes, ["bird", "fish", "mammal", "reptile"]);
    let sizes: Vec<usize> = (0..4).map(|c| a.members(c).len()).collect();
    assert_eq!(sizes, [3, 4, 4, 5]);
    assert!(
        a.kb_file
            .as_ref()
            .is_some_and(|f| f.ends_with("animals.owl"))
    );
    // A binary problem is a two-class one.
    let c = &load_multiclass(&dir.join("carcinogenesis/lp.json"), None).expect("carcinogenesis")[0];
    assert_eq!(c.classes, ["negative", "positive"]);
    assert_eq!((c.members(0).len(), c.members(1).len()), (136, 162));
}

// DL-Learner's two conf dialects and `.kb` files (fixtures/dllearner, hand-written).

const FOO: &str = "http://localhost/foo#";

fn dllearner(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/dllearner")
        .join(name)
}

fn one(name: &str) -> LearningProblem {
    let mut ps = load_problems(&dllearner(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(ps.len(), 1, "{name}");
    ps.remove(0)
}

fn settings_of(p: &LearningProblem) -> Vec<(usize, Setting)> {
    p.settings
        .as_ref()
        .expect("a conf has settings")
        .settings
        .iter()
        .map(|s| (s.line, s.setting.clone()))
        .collect()
}

fn notes_of(p: &LearningProblem) -> Vec<(usize, String)> {
    p.settings
        .as_ref()
        .expect("settings")
        .not_understood
        .clone()
}

#[test]
fn old_dialect_over_a_kb_file() {
    let p = one("old_kb.conf");
    // import("family.kb"): the file, read as DL-Learner KB syntax.
    assert_eq!(p.kb_file, Some(dllearner("family.kb")));
    assert_eq!(p.kb_format, Some(KbFormat::DlLearnerKb));
    assert!(p.endpoint.is_none());
    // `+heinrich`, `+ otto`: bare names in DL-Learner's namespace, file order kept.
    assert_eq!(
        p.positives,
        iris(FOO, &["heinrich", "susi", "otto", "karl"])
    );
    assert_eq!(p.negatives, iris(FOO, &["lisa", "erna"]));
    assert_eq!(
        settings_of(&p),
        vec![
            (7, Setting::Algorithm("celoe".into())),
            (8, Setting::Noise(10.0)),
            (9, Setting::UseNegation(false)),
            (10, Setting::FrequencyThreshold(2)),
            (11, Setting::OpenWorld(false)),
        ]
    );
    assert!(notes_of(&p).is_empty(), "{:?}", notes_of(&p));
}

#[test]
fn old_dialect_with_format_argument_iris_and_unknown_parts() {
    let p = one("old_owl.conf");
    assert_eq!(p.kb_file, Some(dllearner("family.nt")));
    assert_eq!(p.kb_format, Some(KbFormat::NTriples));
    assert_eq!(p.positives, iris(FAM, &["bert", "anna"]));
    assert_eq!(p.negatives, iris(FAM, &["carl", "dora"]));
    // The OWL API reasoner is open-world.
    assert_eq!(settings_of(&p), vec![(6, Setting::OpenWorld(true))]);
    // A learner we lack: named, with its line and what runs instead; unknown options too.
    let notes = notes_of(&p);
    let lines: Vec<usize> = notes.iter().map(|n| n.0).collect();
    assert_eq!(lines, vec![4, 5, 7, 8], "{notes:?}");
    assert!(
        notes[0].1.contains("algorithm = gp") && notes[0].1.contains("runs instead"),
        "{notes:?}"
    );
    assert!(notes[1].1.contains("gp.generations"), "{notes:?}");
    assert!(notes[2].1.contains("hidePrefix"), "{notes:?}");
    assert!(notes[3].1.contains("refexamples.ignoredRoles"), "{notes:?}");
}

#[test]
fn new_dialect_over_a_kb_file() {
    let p = one("new_kb.conf");
    assert_eq!(p.kb_file, Some(dllearner("family.kb")));
    assert_eq!(p.kb_format, Some(KbFormat::DlLearnerKb));
    // "otto" without a prefix is in DL-Learner's namespace, like kb:heinrich.
    assert_eq!(
        p.positives,
        iris(FOO, &["heinrich", "susi", "otto", "karl"])
    );
    // the negatives were written as a set without '='.
    assert_eq!(p.negatives, iris(FOO, &["lisa", "erna"]));
    assert_eq!(
        settings_of(&p),
        vec![
            (7, Setting::OpenWorld(false)),
            (15, Setting::Algorithm("celoe".into())),
            (16, Setting::MaxRuntime(5.0)),
            (17, Setting::MaxResults(3)),
            (18, Setting::StartClass(format!("{FOO}man"))),
            (20, Setting::UseHasValue(true)),
            (21, Setting::UseCardinality(false)),
        ]
    );
    assert!(notes_of(&p).is_empty(), "{:?}", notes_of(&p));
}

#[test]
fn endpoints_in_either_dialect() {
    let p = one("endpoint.conf");
    assert!(p.kb_file.is_none());
    let e = p.endpoint.as_ref().expect("an endpoint");
    assert_eq!(e.url, "http://127.0.0.1:9/sparql");
    assert_eq!(
        e.default_graphs,
        vec!["http://example.org/graph".to_owned()]
    );
    assert_eq!(e.line, 3);
    assert_eq!(p.positives, iris(FAM, &["bert", "anna"]));
    // alg.type = "qtl2dis": named, with its line and what runs instead.
    let notes = notes_of(&p);
    assert!(
        notes
            .iter()
            .any(|(l, m)| *l == 11 && m.contains("qtl2dis") && m.contains("runs instead")),
        "{notes:?}"
    );

    let p = one("old_endpoint.conf");
    let e = p.endpoint.as_ref().expect("an endpoint");
    assert_eq!(e.url, "http://127.0.0.1:9/sparql");
    assert_eq!(
        e.default_graphs,
        vec!["http://example.org/graph".to_owned()]
    );
    let notes = notes_of(&p);
    assert!(
        notes.iter().any(|(l, m)| *l == 1 && m.contains("directly")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|(l, m)| *l == 2 && m.contains("recursionDepth")),
        "{notes:?}"
    );
}

#[test]
fn old_dialect_class_learning() {
    let p = one("old_class.conf");
    assert_eq!(p.target.as_deref(), Some(format!("{FOO}man").as_str()));
    assert!(p.positives.is_empty() && p.negatives.is_empty());
}

#[test]
fn dialect_errors_name_file_line_and_column() {
    let e = load_problems(&dllearner("bad_example.conf")).expect_err("bad example line");
    assert!(
        matches!(
            e,
            ProblemError::Syntax {
                line: Some(3),
                column: Some(3),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("bad_example.conf:3:3:"), "{e}");

    let e = load_problems(&dllearner("two_sources.conf")).expect_err("two sources");
    let msg = e.to_string();
    assert!(
        msg.contains("line 1: import(\"family.kb\")") && msg.contains("line 2: ks.type"),
        "{msg}"
    );
}

/// The individuals a conf names are the ones its `.kb` file defines: both dialects, loaded
/// through the same paths the CLI takes.
#[test]
fn kb_conf_examples_are_individuals_of_the_kb() {
    for conf in ["old_kb.conf", "new_kb.conf"] {
        let p = one(conf);
        let store = oxigraph::store::Store::new().expect("store");
        let file = p.kb_file.clone().expect("a KB file");
        oxilearn::files::load_file(&store, &file, p.kb_format).expect("the .kb loads");
        let subjects: HashSet<String> = store
            .iter()
            .map(|q| q.expect("quad").subject.to_string())
            .collect();
        for iri in p.positives.iter().chain(&p.negatives) {
            assert!(subjects.contains(&format!("<{iri}>")), "{conf}: {iri}");
        }
    }
}
