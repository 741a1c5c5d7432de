//! A small random social KB (people who know people, some `A`, some `B`), seeded, and
//! random changes to it: for checking that refreshing predictions equals a full rerun.

use std::collections::BTreeSet;
use std::path::Path;

use oxigraph::model::GraphNameRef;
use oxigraph::model::vocab::rdf;
use oxigraph::store::Store;

/// A seeded generator: the refresh test must be the same on every run.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

pub const SOCIAL: &str = "http://example.org/social#";

/// A random fact of the social KB: someone knows someone, or someone is an `A` or a `B`.
pub fn social_fact(rng: &mut Lcg, people: usize) -> (String, String, String) {
    let person = |i: usize| format!("<{SOCIAL}p{i:03}>");
    let s = person(rng.below(people));
    match rng.below(4) {
        0 => (
            s,
            format!("<{}>", rdf::TYPE.as_str()),
            format!("<{SOCIAL}A>"),
        ),
        1 => (
            s,
            format!("<{}>", rdf::TYPE.as_str()),
            format!("<{SOCIAL}B>"),
        ),
        _ => (s, format!("<{SOCIAL}knows>"), person(rng.below(people))),
    }
}

/// 150 people, some `A`, some `B`, each knowing about two others, as N-Quads.
pub fn social_kb(rng: &mut Lcg) -> String {
    let mut out = format!(
        "<{SOCIAL}A> <{t}> <http://www.w3.org/2002/07/owl#Class> .\n\
         <{SOCIAL}B> <{t}> <http://www.w3.org/2002/07/owl#Class> .\n\
         <{SOCIAL}knows> <{t}> <http://www.w3.org/2002/07/owl#ObjectProperty> .\n",
        t = rdf::TYPE.as_str()
    );
    for i in 0..150 {
        out.push_str(&format!(
            "<{SOCIAL}p{i:03}> <{SOCIAL}knows> <{SOCIAL}p{:03}> .\n",
            (i * 7 + 3) % 150
        ));
    }
    for _ in 0..300 {
        let (s, p, o) = social_fact(rng, 150);
        out.push_str(&format!("{s} {p} {o} .\n"));
    }
    out
}

/// A concept model written by hand: (concept, quality) solutions.
pub fn social_model(path: &Path, solutions: &[(&str, f64)]) {
    let solutions: Vec<serde_json::Value> = solutions
        .iter()
        .map(|(c, q)| {
            serde_json::json!({"concept": c.replace("<ex:", &format!("<{SOCIAL}")), "tp": 1, "fp": 0,
                "tn": 1, "fn": 0, "quality": q})
        })
        .collect();
    let doc = serde_json::json!({
        "format": "oxilearn-model", "version": 1, "algorithm": "celoe",
        "parameters": {}, "problem": format!("{SOCIAL}Target"),
        "signature_fingerprint": "fnv1a64:0",
        "model": {"quality": "f1", "semantics": "closed", "solutions": solutions}
    });
    std::fs::write(path, doc.to_string()).unwrap();
}

/// Deletes and inserts random facts in the default graph of `store`; both ends of every
/// changed fact that is a person.
pub fn change_randomly(store: &Store, rng: &mut Lcg, n: usize) -> BTreeSet<String> {
    let mut changed = BTreeSet::new();
    let facts: Vec<oxigraph::model::Quad> = store
        .quads_for_pattern(None, None, None, Some(GraphNameRef::DefaultGraph))
        .map(Result::unwrap)
        .filter(|q| q.subject.to_string().contains("#p"))
        .collect();
    let mut note = |t: String| {
        if t.contains("#p") {
            changed.insert(t.trim_matches(['<', '>']).to_owned());
        }
    };
    for _ in 0..n {
        let q = &facts[rng.below(facts.len())];
        store.remove(q).unwrap();
        note(q.subject.to_string());
        note(q.object.to_string());
        let (s, p, o) = social_fact(rng, 150);
        store
            .update(&format!("INSERT DATA {{ {s} {p} {o} }}"))
            .unwrap();
        note(s);
        note(o);
    }
    changed
}

/// A crisp model of role depth 2 with an inverse role.
pub const CRISP: &[(&str, f64)] = &[(
    "<ex:knows> some (<ex:A> and inverse <ex:knows> some <ex:B>)",
    1.0,
)];

/// Two solutions: with `--threshold 0.5` both decide, and scores are written.
pub const SCORED: &[(&str, f64)] = &[
    ("<ex:knows> some <ex:B>", 0.9),
    ("<ex:A> and <ex:knows> some <ex:A>", 0.6),
];
