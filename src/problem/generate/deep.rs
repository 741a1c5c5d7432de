//! Large-signature problems with deep targets (issue 31 item 6), shaped like the DBpedia-derived
//! sets CELOE misses: a class hierarchy of 1,000+ classes, a few object properties, and
//! individuals whose r-successors' s-successors carry the classes a target names. Targets
//! are `A ⊓ ∃r.∃s.(B ⊔ C)`, `A ⊓ ∃r.∃s.(B ⊔ C ⊔ D)`, `A ⊓ ∃r.(B ⊔ C)`, `∃r.∃s.B`, and easy
//! ones (`A ⊓ ∃r.B`, `A`). Every individual is typed with one class and linked at random, so
//! a target's instances are read off the graph (the generator evaluates it itself); half of
//! each problem's negatives are near misses (all of the target but one part), so no shorter
//! concept separates the examples. Deterministic for a seed.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

use super::stratified;

/// The namespace of everything generated.
pub const NS: &str = "http://example.org/deep#";
/// Top-level classes (DBpedia has Agent, Place, Work, Event, Species, …).
const ROOTS: usize = 8;
/// Deepest level of the class hierarchy (a root is level 0).
const MAX_LEVEL: usize = 6;
/// Draws per problem before a target with enough instances is given up.
const TRIES: usize = 5_000;

/// What to generate.
#[derive(Clone, Debug)]
pub struct DeepSpec {
    pub seed: u64,
    /// Named classes in the hierarchy (≥ `ROOTS`).
    pub classes: usize,
    /// Object properties.
    pub properties: usize,
    /// Individuals in the KB.
    pub individuals: usize,
    /// Problems (their shapes cycle through [`SHAPES`]).
    pub problems: usize,
    /// Positive and negative examples per problem (each; training and test together).
    pub examples: usize,
    pub test_fraction: f64,
}

impl Default for DeepSpec {
    fn default() -> Self {
        DeepSpec {
            seed: 1,
            classes: 1_200,
            properties: 6,
            individuals: 6_000,
            problems: 10,
            examples: 40,
            test_fraction: 0.25,
        }
    }
}

/// A target's shape. The order of [`SHAPES`] puts the deep unions first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `A ⊓ ∃r.∃s.(B ⊔ C)`
    ClassPathUnion2,
    /// `A ⊓ ∃r.(B ⊔ C)`
    ClassStepUnion,
    /// `∃r.∃s.B`
    Path,
    /// `A ⊓ ∃r.∃s.(B ⊔ C ⊔ D)`
    ClassPathUnion3,
    /// `A ⊓ ∃r.B`
    ClassStep,
    /// `A`
    Class,
}

/// The shapes of problems 0, 1, 2, … (cycled): six deep, four easy in ten.
pub const SHAPES: [Shape; 10] = [
    Shape::ClassPathUnion2,
    Shape::ClassStepUnion,
    Shape::Path,
    Shape::ClassPathUnion3,
    Shape::ClassStep,
    Shape::ClassPathUnion2,
    Shape::ClassPathUnion3,
    Shape::Class,
    Shape::ClassPathUnion2,
    Shape::ClassStepUnion,
];

/// A target: an optional class conjunct, then a role path (0–2 steps) into a union of classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub class: Option<usize>,
    pub path: Vec<usize>,
    pub fillers: Vec<usize>,
}

impl Target {
    /// Manchester syntax with the generated local names (`C0042`, `p3`).
    pub fn manchester(&self) -> String {
        let fillers: Vec<String> = self.fillers.iter().map(|c| class_name(*c)).collect();
        let mut inner = fillers.join(" or ");
        if self.path.is_empty() {
            return inner;
        }
        if fillers.len() > 1 {
            inner = format!("({inner})");
        }
        for (i, p) in self.path.iter().enumerate().rev() {
            inner = format!("{} some {inner}", property_name(*p));
            if i > 0 {
                inner = format!("({inner})");
            }
        }
        match self.class {
            Some(a) => format!("{} and {inner}", class_name(a)),
            None => inner,
        }
    }
}

/// One problem: its target, and examples as individual indexes.
#[derive(Clone, Debug)]
pub struct DeepProblem {
    pub name: String,
    pub shape: Shape,
    pub target: Target,
    /// Individuals of the whole KB that are instances of the target.
    pub instances: usize,
    pub train: (Vec<usize>, Vec<usize>),
    pub test: (Vec<usize>, Vec<usize>),
}

/// The generated KB and its problems.
pub struct DeepKb {
    pub ntriples: String,
    pub triples: usize,
    pub problems: Vec<DeepProblem>,
}

/// The world: the class tree, each individual's class, and its successors per property.
struct World {
    parent: Vec<Option<usize>>,
    level: Vec<usize>,
    /// Per class, how many individuals are its instances (its own and its subclasses').
    size: Vec<usize>,
    type_of: Vec<usize>,
    /// `edges[x][p]`: x's successors along property p.
    edges: Vec<Vec<Vec<usize>>>,
}

impl World {
    fn new(spec: &DeepSpec, rng: &mut StdRng) -> World {
        let mut parent = vec![None; ROOTS];
        let mut level = vec![0; ROOTS];
        for _ in ROOTS..spec.classes {
            // A random earlier class that is not at the deepest level (the tree's shape is a
            // random recursive tree: a few big subtrees, many small ones).
            let p = loop {
                let p = rng.random_range(0..parent.len());
                if level[p] < MAX_LEVEL {
                    break p;
                }
            };
            parent.push(Some(p));
            level.push(level[p] + 1);
        }
        let n = spec.individuals;
        let type_of: Vec<usize> = (0..n).map(|_| rng.random_range(0..spec.classes)).collect();
        let edges = (0..n)
            .map(|_| {
                (0..spec.properties)
                    .map(|_| {
                        if rng.random_bool(0.5) {
                            let k = rng.random_range(1..=3);
                            (0..k).map(|_| rng.random_range(0..n)).collect()
                        } else {
                            Vec::new()
                        }
                    })
                    .collect()
            })
            .collect();
        let mut world = World {
            parent,
            level,
            size: Vec::new(),
            type_of,
            edges,
        };
        world.size = vec![0; spec.classes];
        for x in 0..n {
            for c in world.ancestors(world.type_of[x]) {
                world.size[c] += 1;
            }
        }
        world
    }

    /// `c` and every class above it.
    fn ancestors(&self, c: usize) -> Vec<usize> {
        let mut out = vec![c];
        let mut at = c;
        while let Some(p) = self.parent[at] {
            out.push(p);
            at = p;
        }
        out
    }

    fn is_a(&self, x: usize, c: usize) -> bool {
        self.ancestors(self.type_of[x]).contains(&c)
    }

    /// `x` reaches an instance of one of `fillers` along `path`.
    fn reaches(&self, x: usize, path: &[usize], fillers: &[usize]) -> bool {
        match path.split_first() {
            None => fillers.iter().any(|c| self.is_a(x, *c)),
            Some((p, rest)) => self.edges[x][*p]
                .iter()
                .any(|y| self.reaches(*y, rest, fillers)),
        }
    }

    fn holds(&self, x: usize, t: &Target) -> bool {
        t.class.is_none_or(|a| self.is_a(x, a)) && self.reaches(x, &t.path, &t.fillers)
    }

    /// A class whose share of the individuals lies in `share` and whose level is at least
    /// `min_level`; `None` when no draw finds one.
    fn pick_class(&self, rng: &mut StdRng, share: (f64, f64), min_level: usize) -> Option<usize> {
        let n = self.type_of.len() as f64;
        (0..200).find_map(|_| {
            let c = rng.random_range(0..self.parent.len());
            let s = self.size[c] as f64 / n;
            (self.level[c] >= min_level && s >= share.0 && s <= share.1).then_some(c)
        })
    }
}

/// Checks `spec` and generates the KB and its problems (deterministic for a seed).
pub fn generate(spec: &DeepSpec) -> Result<DeepKb, String> {
    validate(spec)?;
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let world = World::new(spec, &mut rng);
    let mut problems = Vec::with_capacity(spec.problems);
    for i in 0..spec.problems {
        let shape = SHAPES[i % SHAPES.len()];
        let name = format!("deep-s{}-{i:02}", spec.seed);
        problems.push(problem(&world, spec, shape, name, &mut rng)?);
    }
    let (ntriples, triples) = ntriples(&world, spec.properties);
    Ok(DeepKb {
        ntriples,
        triples,
        problems,
    })
}

fn validate(spec: &DeepSpec) -> Result<(), String> {
    if spec.classes < ROOTS * 4 {
        return Err(format!(
            "at least {} classes, not {}",
            ROOTS * 4,
            spec.classes
        ));
    }
    if !(2..=50).contains(&spec.properties) {
        return Err(format!("2 to 50 properties, not {}", spec.properties));
    }
    if spec.individuals < 200 {
        return Err(format!(
            "at least 200 individuals, not {}",
            spec.individuals
        ));
    }
    if spec.examples < 4 {
        return Err(format!(
            "at least 4 examples per side, not {}",
            spec.examples
        ));
    }
    if !(0.0..1.0).contains(&spec.test_fraction) {
        return Err(format!(
            "test fraction in [0, 1), not {}",
            spec.test_fraction
        ));
    }
    Ok(())
}

/// A target of `shape` with at least `spec.examples` instances and as many non-instances
/// (near misses preferred), split into training and test examples.
fn problem(
    world: &World,
    spec: &DeepSpec,
    shape: Shape,
    name: String,
    rng: &mut StdRng,
) -> Result<DeepProblem, String> {
    let n = spec.individuals;
    for _ in 0..TRIES {
        let Some(target) = draw_target(world, spec, shape, rng) else {
            continue;
        };
        let instances: Vec<usize> = (0..n).filter(|x| world.holds(*x, &target)).collect();
        if instances.len() < spec.examples || instances.len() * 3 > n {
            continue;
        }
        let misses = near_misses(world, &target, n);
        if misses.len() < spec.examples / 2 {
            continue;
        }
        let positives: Vec<usize> = instances
            .choose_multiple(rng, spec.examples)
            .copied()
            .collect();
        let negatives = negatives(world, &target, &misses, spec.examples, rng);
        let labelled: Vec<(String, usize)> = positives
            .iter()
            .map(|x| (x.to_string(), 0))
            .chain(negatives.iter().map(|x| (x.to_string(), 1)))
            .collect();
        let (train, test) = stratified(&labelled, 2, spec.test_fraction, rng);
        let sides = |rows: &[(String, usize)]| {
            let side = |c| -> Vec<usize> {
                rows.iter()
                    .filter(|r| r.1 == c)
                    .filter_map(|r| r.0.parse().ok())
                    .collect()
            };
            (side(0), side(1))
        };
        return Ok(DeepProblem {
            name,
            shape,
            target,
            instances: instances.len(),
            train: sides(&train),
            test: sides(&test),
        });
    }
    Err(format!(
        "no {shape:?} target with {} instances and near misses in {TRIES} draws (more individuals?)",
        spec.examples
    ))
}

fn draw_target(world: &World, spec: &DeepSpec, shape: Shape, rng: &mut StdRng) -> Option<Target> {
    let (class, steps, fillers) = match shape {
        Shape::ClassPathUnion2 => (true, 2, 2),
        Shape::ClassPathUnion3 => (true, 2, 3),
        Shape::ClassStepUnion => (true, 1, 2),
        Shape::Path => (false, 2, 1),
        Shape::ClassStep => (true, 1, 1),
        Shape::Class => (true, 0, 0),
    };
    let class = if class {
        let share = if steps == 0 {
            (0.01, 0.05)
        } else {
            (0.05, 0.6)
        };
        Some(world.pick_class(rng, share, 1)?)
    } else {
        None
    };
    let path: Vec<usize> = (0..steps)
        .map(|_| rng.random_range(0..spec.properties))
        .collect();
    // Filler classes deep in the hierarchy, each a few percent of the individuals, none
    // above another.
    let mut chosen: BTreeSet<usize> = BTreeSet::new();
    for _ in 0..fillers {
        let c = world.pick_class(rng, (0.005, 0.08), 2)?;
        let related = chosen
            .iter()
            .any(|d| world.ancestors(c).contains(d) || world.ancestors(*d).contains(&c));
        if related || !chosen.insert(c) {
            return None;
        }
    }
    let fillers: Vec<usize> = if fillers == 0 {
        vec![class?]
    } else {
        chosen.into_iter().collect()
    };
    let class = if steps == 0 { None } else { class };
    Some(Target {
        class,
        path,
        fillers,
    })
}

/// Non-instances that satisfy all of the target but one part: the class without the path,
/// the path into any class without the class, the path into one filler's parent.
fn near_misses(world: &World, t: &Target, n: usize) -> Vec<usize> {
    let weaker: Vec<Target> = [
        t.class.map(|a| Target {
            class: Some(a),
            path: t.path[..t.path.len().saturating_sub(1)].to_vec(),
            fillers: parents_or_roots(world, &t.fillers),
        }),
        Some(Target {
            class: None,
            ..t.clone()
        }),
        Some(Target {
            fillers: parents_or_roots(world, &t.fillers),
            ..t.clone()
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    (0..n)
        .filter(|x| !world.holds(*x, t) && weaker.iter().any(|w| world.holds(*x, w)))
        .collect()
}

/// The fillers' parents (a root stays itself).
fn parents_or_roots(world: &World, fillers: &[usize]) -> Vec<usize> {
    fillers
        .iter()
        .map(|c| world.parent[*c].unwrap_or(*c))
        .collect()
}

/// `k` negatives: half near misses, the rest any non-instances.
fn negatives(
    world: &World,
    t: &Target,
    misses: &[usize],
    k: usize,
    rng: &mut StdRng,
) -> Vec<usize> {
    let mut out: BTreeSet<usize> = misses.choose_multiple(rng, k / 2).copied().collect();
    let n = world.type_of.len();
    while out.len() < k {
        let x = rng.random_range(0..n);
        if !world.holds(x, t) {
            out.insert(x);
        }
    }
    let mut v: Vec<usize> = out.into_iter().collect();
    v.shuffle(rng);
    v
}

pub fn class_name(c: usize) -> String {
    format!("C{c:04}")
}

pub fn property_name(p: usize) -> String {
    format!("p{p}")
}

pub fn individual_iri(x: usize) -> String {
    format!("{NS}x{x:05}")
}

/// The KB as N-Triples, and its number of triples.
fn ntriples(world: &World, properties: usize) -> (String, usize) {
    const RDF_TYPE: &str = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    const SUB: &str = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>";
    const OWL: &str = "http://www.w3.org/2002/07/owl#";
    let mut out = String::new();
    let mut count = 0;
    let mut line = |out: &mut String, s: String, p: &str, o: String| {
        let _ = writeln!(out, "{s} {p} {o} .");
        count += 1;
    };
    for (c, parent) in world.parent.iter().enumerate() {
        let iri = format!("<{NS}{}>", class_name(c));
        line(&mut out, iri.clone(), RDF_TYPE, format!("<{OWL}Class>"));
        if let Some(p) = parent {
            line(&mut out, iri, SUB, format!("<{NS}{}>", class_name(*p)));
        }
    }
    for p in 0..properties {
        let iri = format!("<{NS}{}>", property_name(p));
        line(&mut out, iri, RDF_TYPE, format!("<{OWL}ObjectProperty>"));
    }
    for (x, c) in world.type_of.iter().enumerate() {
        let s = format!("<{}>", individual_iri(x));
        line(
            &mut out,
            s.clone(),
            RDF_TYPE,
            format!("<{NS}{}>", class_name(*c)),
        );
        for (p, targets) in world.edges[x].iter().enumerate() {
            for y in targets {
                let pred = format!("<{NS}{}>", property_name(p));
                line(
                    &mut out,
                    s.clone(),
                    &pred,
                    format!("<{}>", individual_iri(*y)),
                );
            }
        }
    }
    (out, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> DeepSpec {
        DeepSpec {
            classes: 300,
            individuals: 1_500,
            problems: 6,
            examples: 20,
            ..DeepSpec::default()
        }
    }

    #[test]
    fn generation_is_deterministic_and_examples_follow_the_target() {
        let a = generate(&small()).unwrap();
        let b = generate(&small()).unwrap();
        assert_eq!(a.ntriples, b.ntriples);
        assert_eq!(a.problems.len(), 6);
        let mut rng = StdRng::seed_from_u64(small().seed);
        let world = World::new(&small(), &mut rng);
        for (p, q) in a.problems.iter().zip(&b.problems) {
            assert_eq!(p.train, q.train);
            assert_eq!(p.target, q.target);
            let (pos, neg) = (&p.train.0, &p.train.1);
            assert!(
                pos.iter()
                    .chain(&p.test.0)
                    .all(|x| world.holds(*x, &p.target))
            );
            assert!(
                !neg.iter()
                    .chain(&p.test.1)
                    .any(|x| world.holds(*x, &p.target))
            );
            assert_eq!(pos.len() + p.test.0.len(), 20);
            assert_eq!(neg.len() + p.test.1.len(), 20);
        }
        assert_eq!(a.problems[0].shape, Shape::ClassPathUnion2);
        assert_eq!(a.problems[0].target.path.len(), 2);
        assert_eq!(a.problems[0].target.fillers.len(), 2);
    }

    #[test]
    fn the_target_reads_as_manchester() {
        let t = Target {
            class: Some(3),
            path: vec![1, 2],
            fillers: vec![40, 41],
        };
        assert_eq!(
            t.manchester(),
            "C0003 and p1 some (p2 some (C0040 or C0041))"
        );
        let t = Target {
            class: None,
            path: vec![0],
            fillers: vec![7],
        };
        assert_eq!(t.manchester(), "p0 some C0007");
    }
}
