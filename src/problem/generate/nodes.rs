//! A synthetic KB of entities linked to projects, topics, places and each other, with a
//! numeric score and age, whose class a hidden rule decides: links to specific individuals
//! (`worksOn value p3`), numeric thresholds (`score > 62`), a depth-2 path (`worksOn some
//! (fundedBy value f1)`), or a neighbour's link (`knows some (worksOn value p5)`). Each
//! entity's class is drawn first (the priors give the imbalance), then its facts are drawn
//! until the rule agrees (so the rule holds exactly); then a fraction of the labels is
//! flipped (label noise, on training and test examples alike, as in real data).

use std::fmt::Write as _;

use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

use super::{Split, stratified};

/// The namespace of everything generated.
pub const NS: &str = "http://example.org/gen#";
const PROJECTS: usize = 12;
const TOPICS: usize = 16;
const PLACES: usize = 6;
const FUNDERS: usize = 4;
const KINDS: usize = 8;
/// The age from which an entity of a multi-class problem is in the last class.
const SENIOR_AGE: u32 = 62;

/// What to generate.
#[derive(Clone, Debug)]
pub struct NodeSpec {
    pub seed: u64,
    /// Entities (the labelled individuals).
    pub entities: usize,
    /// 2: a binary problem; more: one class per funder's projects, plus a senior class.
    pub classes: usize,
    /// Fraction of labels flipped (0 ≤ noise < 0.5).
    pub noise: f64,
    /// Largest over smallest class prior (≥ 1).
    pub imbalance: f64,
    pub test_fraction: f64,
    /// A binary rule by number (0–4, see [`BinaryRule`]); default: the seed's.
    pub rule: Option<usize>,
}

impl Default for NodeSpec {
    fn default() -> Self {
        Self {
            seed: 1,
            entities: 400,
            classes: 2,
            noise: 0.2,
            imbalance: 3.0,
            test_fraction: 0.25,
            rule: None,
        }
    }
}

/// The binary target concepts.
#[derive(Clone, Copy, Debug)]
pub enum BinaryRule {
    /// `worksOn value pA or worksOn value pB`.
    TwoProjects(usize, usize),
    /// `hasTopic value t and score > s`.
    TopicAndScore(usize, u32),
    /// `basedIn value l or age >= a`.
    PlaceOrAge(usize, u32),
    /// `worksOn some (fundedBy value f)`.
    Funded(usize),
    /// `knows some (worksOn value p)`.
    KnowsProject(usize),
}

/// One entity's facts.
#[derive(Clone, Debug, Default)]
struct Facts {
    works_on: Vec<usize>,
    topics: Vec<usize>,
    place: usize,
    score: f64,
    age: u32,
    kind: usize,
    knows: Vec<usize>,
}

/// The world every entity refers to.
struct World {
    funder_of: Vec<usize>,
    classes: usize,
    rule: BinaryRule,
}

impl World {
    /// The class the rule gives `f` (binary: 0 positive, 1 negative), `done` the facts of
    /// the entities drawn before.
    fn class(&self, f: &Facts, done: &[Facts]) -> usize {
        if self.classes > 2 {
            if f.age >= SENIOR_AGE {
                return self.classes - 1;
            }
            return self.funder_of[f.works_on[0]] % (self.classes - 1);
        }
        let yes = match self.rule {
            BinaryRule::TwoProjects(a, b) => f.works_on.iter().any(|p| *p == a || *p == b),
            BinaryRule::TopicAndScore(t, s) => f.topics.contains(&t) && f.score > f64::from(s),
            BinaryRule::PlaceOrAge(l, a) => f.place == l || f.age >= a,
            BinaryRule::Funded(fu) => f.works_on.iter().any(|p| self.funder_of[*p] == fu),
            BinaryRule::KnowsProject(p) => f.knows.iter().any(|k| done[*k].works_on.contains(&p)),
        };
        usize::from(!yes)
    }

    fn manchester(&self) -> String {
        if self.classes > 2 {
            return format!(
                "class k < {last}: worksOn some (fundedBy value f_j), j mod {last} = k, and age < \
                 {SENIOR_AGE}; class {last}: age >= {SENIOR_AGE}",
                last = self.classes - 1
            );
        }
        match self.rule {
            BinaryRule::TwoProjects(a, b) => {
                format!("worksOn value project{a} or worksOn value project{b}")
            }
            BinaryRule::TopicAndScore(t, s) => format!("hasTopic value topic{t} and score > {s}"),
            BinaryRule::PlaceOrAge(l, a) => format!("basedIn value place{l} or age >= {a}"),
            BinaryRule::Funded(f) => format!("worksOn some (fundedBy value funder{f})"),
            BinaryRule::KnowsProject(p) => format!("knows some (worksOn value project{p})"),
        }
    }
}

/// A generated problem: the KB as N-Triples, its split, and the rule in words.
pub struct NodeProblem {
    pub ntriples: String,
    pub split: Split,
    pub rule: String,
    /// Labels flipped by the noise.
    pub flipped: usize,
}

/// Checks `spec` and generates its problem (deterministic for a seed).
pub fn generate(spec: &NodeSpec) -> Result<NodeProblem, String> {
    validate(spec)?;
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let funder_of = (0..PROJECTS).map(|p| p % FUNDERS).collect::<Vec<_>>();
    let rule = pick_rule(spec.rule.unwrap_or(spec.seed as usize % 5), &mut rng);
    let world = World {
        funder_of,
        classes: spec.classes,
        rule,
    };
    let priors = priors(spec.classes, spec.imbalance);
    let mut facts: Vec<Facts> = Vec::with_capacity(spec.entities);
    let mut labels = Vec::with_capacity(spec.entities);
    for _ in 0..spec.entities {
        let wanted = draw_class(&priors, &mut rng);
        let (f, class) = draw_facts(&world, &facts, wanted, spec.classes, &mut rng);
        facts.push(f);
        labels.push(class);
    }
    let flipped = flip(&mut labels, spec.noise, spec.classes, &mut rng);
    let labelled: Vec<(String, usize)> = labels
        .iter()
        .enumerate()
        .map(|(i, c)| (entity_iri(i), *c))
        .collect();
    let (train, test) = stratified(&labelled, spec.classes, spec.test_fraction, &mut rng);
    let split = Split {
        name: format!("nodes-s{}", spec.seed),
        classes: class_names(spec.classes),
        train,
        test,
    };
    Ok(NodeProblem {
        ntriples: ntriples(&world, &facts),
        split,
        rule: world.manchester(),
        flipped,
    })
}

fn validate(spec: &NodeSpec) -> Result<(), String> {
    if spec.entities < 10 {
        return Err(format!("at least 10 entities, not {}", spec.entities));
    }
    if !(2..=FUNDERS + 1).contains(&spec.classes) {
        return Err(format!(
            "2 to {} classes, not {}",
            FUNDERS + 1,
            spec.classes
        ));
    }
    if !(0.0..0.5).contains(&spec.noise) {
        return Err(format!("noise in [0, 0.5), not {}", spec.noise));
    }
    if !(spec.imbalance >= 1.0 && spec.imbalance <= 100.0) {
        return Err(format!("imbalance in [1, 100], not {}", spec.imbalance));
    }
    if !(0.0..1.0).contains(&spec.test_fraction) {
        return Err(format!(
            "test fraction in [0, 1), not {}",
            spec.test_fraction
        ));
    }
    if spec.rule.is_some_and(|r| r > 4) {
        return Err("binary rules are numbered 0 to 4".to_owned());
    }
    Ok(())
}

fn pick_rule(n: usize, rng: &mut StdRng) -> BinaryRule {
    let project = rng.random_range(0..PROJECTS);
    match n {
        0 => BinaryRule::TwoProjects(
            project,
            (project + 1 + rng.random_range(0..PROJECTS - 1)) % PROJECTS,
        ),
        1 => BinaryRule::TopicAndScore(rng.random_range(0..TOPICS / 4), rng.random_range(30..60)),
        2 => BinaryRule::PlaceOrAge(rng.random_range(0..PLACES), rng.random_range(55..65)),
        3 => BinaryRule::Funded(rng.random_range(0..FUNDERS)),
        _ => BinaryRule::KnowsProject(project),
    }
}

/// Class priors, geometric so that largest / smallest = `imbalance`; the smallest is
/// class 0 (a binary problem's positives), the largest the last class.
fn priors(classes: usize, imbalance: f64) -> Vec<f64> {
    let step = imbalance.powf(1.0 / (classes - 1) as f64);
    let p: Vec<f64> = (0..classes).map(|i| step.powi(i as i32)).collect();
    let sum: f64 = p.iter().sum();
    p.iter().map(|x| x / sum).collect()
}

fn draw_class(priors: &[f64], rng: &mut StdRng) -> usize {
    let mut u: f64 = rng.random();
    for (c, p) in priors.iter().enumerate() {
        if u < *p {
            return c;
        }
        u -= p;
    }
    priors.len() - 1
}

/// Facts drawn until the rule gives `wanted` (at most 2,000 draws; then the last draw and
/// its own class, so the rule always holds).
fn draw_facts(
    world: &World,
    done: &[Facts],
    wanted: usize,
    classes: usize,
    rng: &mut StdRng,
) -> (Facts, usize) {
    let mut last = Facts::default();
    for _ in 0..2000 {
        let f = random_facts(done.len(), classes, rng);
        let class = world.class(&f, done);
        if class == wanted {
            return (f, class);
        }
        last = f;
    }
    let class = world.class(&last, done);
    (last, class)
}

fn random_facts(before: usize, classes: usize, rng: &mut StdRng) -> Facts {
    let projects = if classes > 2 {
        1
    } else {
        rng.random_range(1..=2)
    };
    let mut works_on: Vec<usize> = (0..PROJECTS).collect();
    works_on.shuffle(rng);
    works_on.truncate(projects);
    let mut topics: Vec<usize> = (0..TOPICS).collect();
    topics.shuffle(rng);
    topics.truncate(rng.random_range(0..=3));
    let knows = (0..rng.random_range(0..=3).min(before))
        .map(|_| rng.random_range(0..before))
        .collect();
    Facts {
        works_on,
        topics,
        place: rng.random_range(0..PLACES),
        score: f64::from(rng.random_range(0..1000u32)) / 10.0,
        age: rng.random_range(20..70),
        kind: rng.random_range(0..KINDS),
        knows,
    }
}

/// Flips `noise` × n labels (to another class, drawn uniformly); returns how many.
fn flip(labels: &mut [usize], noise: f64, classes: usize, rng: &mut StdRng) -> usize {
    let n = (labels.len() as f64 * noise).round() as usize;
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.shuffle(rng);
    for &i in &order[..n] {
        let others: Vec<usize> = (0..classes).filter(|c| *c != labels[i]).collect();
        labels[i] = *others.choose(rng).unwrap_or(&labels[i]);
    }
    n
}

fn class_names(classes: usize) -> Vec<String> {
    if classes == 2 {
        return vec!["positive".to_owned(), "negative".to_owned()];
    }
    let mut names: Vec<String> = (0..classes - 1).map(|k| format!("group{k}")).collect();
    names.push("senior".to_owned());
    names
}

pub fn entity_iri(i: usize) -> String {
    format!("{NS}e{i:04}")
}

/// The KB: schema, hubs, then each entity's facts.
fn ntriples(world: &World, facts: &[Facts]) -> String {
    let mut out = schema();
    for (p, f) in world.funder_of.iter().enumerate() {
        triple(
            &mut out,
            &format!("project{p}"),
            "fundedBy",
            &format!("<{NS}funder{f}>"),
        );
    }
    for (i, f) in facts.iter().enumerate() {
        entity(&mut out, i, f);
    }
    out
}

fn schema() -> String {
    const RDF_TYPE: &str = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    const SUB: &str = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>";
    const OWL: &str = "http://www.w3.org/2002/07/owl#";
    let mut out = String::new();
    let mut class = |c: &str, sup: Option<&str>| {
        let _ = writeln!(out, "<{NS}{c}> {RDF_TYPE} <{OWL}Class> .");
        if let Some(s) = sup {
            let _ = writeln!(out, "<{NS}{c}> {SUB} <{NS}{s}> .");
        }
    };
    for c in ["Entity", "Project", "Topic", "Place", "Funder"] {
        class(c, None);
    }
    class("GroupA", Some("Entity"));
    class("GroupB", Some("Entity"));
    for k in 0..KINDS {
        class(
            &format!("Kind{k}"),
            Some(if k < KINDS / 2 { "GroupA" } else { "GroupB" }),
        );
    }
    for p in ["worksOn", "hasTopic", "basedIn", "knows", "fundedBy"] {
        let _ = writeln!(out, "<{NS}{p}> {RDF_TYPE} <{OWL}ObjectProperty> .");
    }
    for p in ["score", "age"] {
        let _ = writeln!(out, "<{NS}{p}> {RDF_TYPE} <{OWL}DatatypeProperty> .");
    }
    let hubs = [("project", PROJECTS, "Project"), ("topic", TOPICS, "Topic")];
    let more = [("place", PLACES, "Place"), ("funder", FUNDERS, "Funder")];
    for (stem, n, c) in hubs.into_iter().chain(more) {
        for i in 0..n {
            let _ = writeln!(out, "<{NS}{stem}{i}> {RDF_TYPE} <{NS}{c}> .");
        }
    }
    out
}

fn triple(out: &mut String, subject: &str, property: &str, object: &str) {
    let _ = writeln!(out, "<{NS}{subject}> <{NS}{property}> {object} .");
}

fn entity(out: &mut String, i: usize, f: &Facts) {
    const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
    const XSD: &str = "http://www.w3.org/2001/XMLSchema#";
    let s = format!("e{i:04}");
    let _ = writeln!(out, "<{NS}{s}> <{RDF_TYPE}> <{NS}Kind{}> .", f.kind);
    for p in &f.works_on {
        triple(out, &s, "worksOn", &format!("<{NS}project{p}>"));
    }
    for t in &f.topics {
        triple(out, &s, "hasTopic", &format!("<{NS}topic{t}>"));
    }
    triple(out, &s, "basedIn", &format!("<{NS}place{}>", f.place));
    for k in &f.knows {
        triple(out, &s, "knows", &format!("<{}>", entity_iri(*k)));
    }
    triple(
        out,
        &s,
        "score",
        &format!("\"{:.1}\"^^<{XSD}double>", f.score),
    );
    triple(out, &s, "age", &format!("\"{}\"^^<{XSD}integer>", f.age));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_noise_free_labels_follow_the_rule() {
        let spec = NodeSpec {
            noise: 0.0,
            ..NodeSpec::default()
        };
        let a = generate(&spec).unwrap();
        let b = generate(&spec).unwrap();
        assert_eq!(a.ntriples, b.ntriples);
        assert_eq!(a.split.train, b.split.train);
        assert_eq!(a.flipped, 0);
        let n = a.split.train.len() + a.split.test.len();
        assert_eq!(n, 400);
        let positives = a
            .split
            .train
            .iter()
            .chain(&a.split.test)
            .filter(|l| l.1 == 0)
            .count();
        // Imbalance 1:3 (±), and both classes present.
        assert!((60..=150).contains(&positives), "{positives} positives");
    }

    #[test]
    fn noise_flips_the_asked_fraction_and_multi_class_has_every_class() {
        let spec = NodeSpec {
            classes: 4,
            noise: 0.1,
            ..NodeSpec::default()
        };
        let p = generate(&spec).unwrap();
        assert_eq!(p.flipped, 40);
        for c in 0..4 {
            assert!(p.split.train.iter().any(|l| l.1 == c), "class {c}");
        }
        assert_eq!(p.split.classes.len(), 4);
    }
}
