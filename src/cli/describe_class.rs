//! Problems whose examples come from the KB: `learn --describe-class CLASS` (DL-Learner's
//! class learning: a definition for an existing class) and `--positives-query` /
//! `--negatives-query` (SELECTs with one variable), on the command line, in JSON problems
//! (`positives_query`, `negatives_query`) and in `.conf` files (`classToDescribe`).
//!
//! The examples are drawn before the learning run opens its KB, because that run reads
//! the examples' neighbourhood: a first, examples-free opening (no individuals: schema
//! only) lists them. Every listing is a seeded sample of at most `--max-examples` IRIs,
//! taken without listing everything and without `ORDER BY`: the store counts the answers,
//! then answers them a bucket at a time, a bucket being the IRIs whose
//! `MD5(CONCAT(seed, STR(?x)))` starts with given hex digits (enough digits that a bucket
//! stays well under a row cap such as Virtuoso's); buckets are taken in order until the
//! bound is reached, and the last one is cut by a seeded hash of the IRI. The same seed
//! draws the same sample from the same data, whatever the store.
//!
//! Negatives, when a problem gives none (a class to describe, or a positives query alone),
//! are a seeded sample of at most `--max-examples` non-positives, in two tiers: (1) the
//! instances of the class's direct superclasses (siblings included), or, for a positives
//! query, of the named classes of the sampled positives; (2) if that leaves room, the
//! individuals one object-property step from a sampled positive. A non-positive is not an
//! instance of the class (or not an answer of the positives query).
//!
//! The class to describe and its schema equivalents (`owl:equivalentClass`, mutual
//! `rdfs:subClassOf`) are hidden from the refinement operator
//! ([`crate::refine::rho::Rho::hide_classes`]). Classes that merely have the same instances
//! in the data stay visible: finding one is a genuine equivalence suggestion.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, bail};
use clap::Args;
use oxigraph::model::{Literal, Term};
use spargebra::Query;
use spargebra::algebra::{Expression, Function, GraphPattern};
use spargebra::term::Variable;

use super::kb_source;
use super::learn::LearnJson;
use super::learner::Prepared;
use super::learners::LearnArgs;
use crate::KnowledgeBase;
use crate::concept::{EntityKind, Iri};
use crate::knowledge_base::ScopeQuery;
use crate::oracle::sparql::SUBJECT;
use crate::oracle::sparql::pages::{bucket_prefixes, count_query};
use crate::oracle::{IndividualScope, Neighbourhood};
use crate::problem::LearningProblem;

/// The heading of these options: `learn --help` leaves them to `oxilearn help examples`.
pub const EXAMPLES_HEADING: &str = "Examples drawn from the KB (class learning, SPARQL)";

/// The flags that define a problem from the KB instead of a problems file.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = EXAMPLES_HEADING)]
pub struct ExampleSourceArgs {
    /// Learn a definition of this existing class (IRI or name): positives are its
    /// instances, negatives a seeded sample of non-instances; the class and its
    /// equivalents are left out of the search. Replaces --problems.
    #[arg(long, value_name = "CLASS")]
    pub describe_class: Option<String>,
    /// Positive examples: the answers of a SELECT with one variable (`@FILE` reads it from
    /// a file). Replaces --problems; without --negatives-query, negatives are sampled.
    #[arg(long, value_name = "QUERY|@FILE")]
    pub positives_query: Option<String>,
    /// Negative examples: the answers of a SELECT with one variable (`@FILE` reads it).
    #[arg(long, value_name = "QUERY|@FILE", requires = "positives_query")]
    pub negatives_query: Option<String>,
    /// Most positives and most negatives drawn from the KB per problem (seeded sample).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_examples: usize,
    /// Seed of the examples' sample.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub example_seed: u64,
}

impl ExampleSourceArgs {
    fn defines_problem(&self) -> bool {
        self.describe_class.is_some() || self.positives_query.is_some()
    }
}

/// The problems of `--problems`, or the one the command line defines.
pub fn load(args: &LearnArgs) -> anyhow::Result<Vec<LearningProblem>> {
    let ex = &args.examples;
    let from_file = !args.problems.as_os_str().is_empty();
    if from_file && ex.defines_problem() {
        bail!("--describe-class and --positives-query define the problem: drop --problems");
    }
    if from_file {
        return super::problems::load_selected(&args.problems, &args.problem);
    }
    if !ex.defines_problem() {
        bail!("no learning problem: pass --problems LPFILE, --describe-class or --positives-query");
    }
    if ex.describe_class.is_some() && ex.positives_query.is_some() {
        bail!("--describe-class and --positives-query are two ways to give positives: pick one");
    }
    let mut p = crate::problem::LearningProblem::from_queries(
        "query",
        read_argument(ex.positives_query.as_deref(), "--positives-query")?,
        read_argument(ex.negatives_query.as_deref(), "--negatives-query")?,
    );
    if let Some(class) = &ex.describe_class {
        p.name = local_name(class).to_owned();
        p.describe_class = Some(class.clone());
    }
    Ok(vec![p])
}

/// A query flag's text, or the file `@FILE` names (as `enrich --changed-query`).
fn read_argument(arg: Option<&str>, flag: &str) -> anyhow::Result<Option<String>> {
    match arg.map(|a| (a, a.strip_prefix('@'))) {
        None => Ok(None),
        Some((_, Some(file))) => std::fs::read_to_string(file)
            .with_context(|| format!("{flag}: reading {file}"))
            .map(Some),
        Some((a, None)) => Ok(Some(a.to_owned())),
    }
}

fn local_name(iri: &str) -> &str {
    let t = iri.trim().trim_start_matches('<').trim_end_matches('>');
    t.rsplit(['#', '/', ':']).next().unwrap_or(t)
}

/// What drawing the examples decided, for the run: the classes to hide and, per problem,
/// the class it describes.
#[derive(Default)]
pub struct Drawn {
    hidden: BTreeSet<Iri>,
    described: BTreeMap<String, Iri>,
}

/// Fills in the examples of every problem that takes them from the KB (opened once,
/// without individuals); other problems are left as they are.
pub fn draw(args: &LearnArgs, problems: &mut [LearningProblem]) -> anyhow::Result<Drawn> {
    let mut drawn = Drawn::default();
    if !problems.iter().any(LearningProblem::needs_kb_examples) {
        return Ok(drawn);
    }
    let fallback = super::problems::fallback_kb(problems);
    let scope = IndividualScope::Neighbourhood(Neighbourhood::of(std::iter::empty()));
    let kb = kb_source::open_kb(&args.kb, fallback, scope)
        .context("opening the KB to draw the examples")?;
    let sampler = Sampler {
        kb: &kb,
        bound: args.examples.max_examples.max(1),
        seed: args.examples.example_seed,
    };
    for p in problems.iter_mut().filter(|p| p.needs_kb_examples()) {
        sampler
            .fill(p, &mut drawn)
            .with_context(|| format!("drawing the examples of problem {}", p.name))?;
    }
    Ok(drawn)
}

impl Drawn {
    /// Hides the described classes (and their equivalents) from the run's operator.
    pub fn hide(&self, prep: &mut Prepared) {
        if !self.hidden.is_empty() {
            prep.rho.hide_classes(&self.hidden);
        }
    }

    /// Adds the class-learning suggestions to a described class's result (JSON
    /// `class_learning`): the solutions as equivalent-class suggestions, ranked as the
    /// learner ranked them, with F1 and accuracy (those covering some positive); and as
    /// subclass suggestions (`C ⊑ D`) those covering every positive and leaving out some
    /// negative, most precise first.
    pub fn annotate(&self, r: &mut LearnJson) {
        let Some(class) = self.described.get(&r.problem) else {
            return;
        };
        let equivalent: Vec<serde_json::Value> = r
            .solutions
            .iter()
            .filter(|s| s.tp > 0)
            .map(|s| {
                serde_json::json!({
                    "manchester": s.manchester, "dl": s.dl,
                    "f1": s.f1, "accuracy": s.accuracy,
                })
            })
            .collect();
        // ⊤ covers everything and says nothing.
        let mut covering: Vec<_> = r
            .solutions
            .iter()
            .filter(|s| s.fn_ == 0 && s.tn > 0)
            .collect();
        let precision = |tp: usize, fp: usize| tp as f64 / (tp + fp).max(1) as f64;
        covering.sort_by(|a, b| precision(b.tp, b.fp).total_cmp(&precision(a.tp, a.fp)));
        let subclass: Vec<serde_json::Value> = covering
            .iter()
            .map(|s| {
                serde_json::json!({
                    "manchester": s.manchester, "dl": s.dl,
                    "recall": 1.0, "precision": precision(s.tp, s.fp),
                    "accuracy": s.accuracy,
                })
            })
            .collect();
        r.extras.insert(
            "class_learning".to_owned(),
            serde_json::json!({
                "class": class.as_str(),
                "equivalent_class": equivalent,
                "subclass_of": subclass,
            }),
        );
    }
}

/// Prints a result's class-learning suggestions (see [`Drawn::annotate`]), if any.
pub fn print_text(r: &LearnJson) -> anyhow::Result<()> {
    let Some(cl) = r.extras.get("class_learning") else {
        return Ok(());
    };
    let class = cl["class"].as_str().unwrap_or_default();
    let list = |key: &str| cl[key].as_array().cloned().unwrap_or_default();
    outln!("  suggestions for <{class}>:");
    for (i, s) in list("equivalent_class").iter().enumerate() {
        outln!(
            "  {:>2}. EquivalentTo {}   F1 {:.4}, accuracy {:.4}",
            i + 1,
            s["manchester"].as_str().unwrap_or_default(),
            s["f1"].as_f64().unwrap_or(f64::NAN),
            s["accuracy"].as_f64().unwrap_or(f64::NAN)
        );
    }
    for (i, s) in list("subclass_of").iter().enumerate() {
        outln!(
            "  {:>2}. SubClassOf {}   precision {:.4}, accuracy {:.4}",
            i + 1,
            s["manchester"].as_str().unwrap_or_default(),
            s["precision"].as_f64().unwrap_or(f64::NAN),
            s["accuracy"].as_f64().unwrap_or(f64::NAN)
        );
    }
    Ok(())
}

/// Draws examples from one KB.
struct Sampler<'k> {
    kb: &'k KnowledgeBase,
    bound: usize,
    seed: u64,
}

impl Sampler<'_> {
    fn fill(&self, p: &mut LearningProblem, drawn: &mut Drawn) -> anyhow::Result<()> {
        // What a negative must not be, and where sampled negatives are looked for.
        let mut exclude: Option<GraphPattern> = None;
        let mut near: Vec<Iri> = Vec::new();
        if let Some(name) = p.describe_class.clone() {
            let class = self.class(&name)?;
            let instances = instances_of(self.kb, std::slice::from_ref(&class))?;
            p.positives.extend(self.sample(&instances)?);
            if p.positives.is_empty() {
                bail!(
                    "the class {} has no instances to learn from",
                    class.as_str()
                );
            }
            near = direct_superclasses(self.kb, &class);
            exclude = Some(instances);
            drawn.hidden.extend(equivalents(self.kb, &class));
            drawn.described.insert(p.name.clone(), class.clone());
            p.target = Some(class.as_str().to_owned());
            p.describe_class = Some(class.as_str().to_owned());
        }
        if let Some(q) = &p.positives_query {
            let q = ScopeQuery::parse(q).context("the positives query")?;
            p.positives.extend(self.sample(&q.pattern)?);
            exclude = Some(q.pattern);
        }
        if let Some(q) = &p.negatives_query {
            let q = ScopeQuery::parse(q).context("the negatives query")?;
            p.negatives.extend(self.sample(&q.pattern)?);
        }
        if p.negatives.is_empty()
            && let Some(exclude) = exclude
        {
            if p.describe_class.is_none() {
                near = self.named_types(&p.positives)?;
            }
            p.negatives = self.negatives(&p.positives, &near, &exclude)?;
        }
        dedup(&mut p.positives);
        let positives: BTreeSet<&String> = p.positives.iter().collect();
        p.negatives.retain(|n| !positives.contains(n));
        dedup(&mut p.negatives);
        Ok(())
    }

    /// The class `name` (an IRI or a name the vocabulary resolves), which must be one of
    /// the KB's classes; else an error naming close candidates.
    fn class(&self, name: &str) -> anyhow::Result<Iri> {
        let sig = self.kb.signature();
        let vocabulary = self.kb.vocabulary();
        let iri = match vocabulary.resolve(name, EntityKind::Class) {
            Ok(iri) => iri,
            Err(e) if !name.contains(':') => bail!("--describe-class {name}: {e}"),
            Err(_) => Iri::new(name.trim().trim_start_matches('<').trim_end_matches('>')),
        };
        if sig.classes.contains(&iri) || sig.schema_classes.contains(&iri) {
            return Ok(iri);
        }
        let wanted = local_name(iri.as_str()).to_lowercase();
        let mut close: Vec<(usize, &Iri)> = sig
            .classes
            .iter()
            .map(|c| {
                let other = local_name(c.as_str()).to_lowercase();
                (crate::concept::edit_distance(&wanted, &other), c)
            })
            .filter(|(d, _)| *d <= 2.max(wanted.len() / 3))
            .collect();
        close.sort();
        let close: Vec<String> = close
            .iter()
            .take(5)
            .map(|(_, c)| format!("<{}>", c.as_str()))
            .collect();
        if close.is_empty() {
            bail!("unknown class {name}: the KB has no such class");
        }
        bail!(
            "unknown class {name}; close candidates: {}",
            close.join(", ")
        )
    }

    /// The named classes (not vocabulary ones) of `iris`, asked a chunk at a time.
    fn named_types(&self, iris: &[String]) -> anyhow::Result<Vec<Iri>> {
        let sig = self.kb.signature();
        let mut out = BTreeSet::new();
        for chunk in iris.chunks(100) {
            let text = format!(
                "SELECT DISTINCT ?t WHERE {{ VALUES ?y {{ {} }} ?y a ?t }}",
                values(chunk)
            );
            let query = spargebra::SparqlParser::new().parse_query(&text)?;
            let table = self.kb.oracle().inner().select(&query)?;
            for t in table.column_values("t") {
                if let Term::NamedNode(n) = t {
                    let c = Iri::new(n.as_str());
                    if sig.classes.contains(&c) {
                        out.insert(c);
                    }
                }
            }
        }
        Ok(out.into_iter().collect())
    }

    /// At most `bound` negatives: tier 1, the instances of `near`; tier 2, the examples'
    /// object-property neighbours; none matching `exclude`.
    fn negatives(
        &self,
        positives: &[String],
        near: &[Iri],
        exclude: &GraphPattern,
    ) -> anyhow::Result<Vec<String>> {
        let not = |pattern: GraphPattern| GraphPattern::Filter {
            expr: Expression::Not(Box::new(Expression::Exists(Box::new(exclude.clone())))),
            inner: Box::new(pattern),
        };
        let mut out = Vec::new();
        if !near.is_empty() {
            out.extend(self.sample(&not(instances_of(self.kb, near)?))?);
        }
        let properties: Vec<String> = self
            .kb
            .signature()
            .object_properties
            .keys()
            .map(|p| format!("<{}>", p.as_str()))
            .collect();
        if properties.is_empty() {
            return Ok(out);
        }
        for chunk in positives.chunks(100) {
            let room = self.bound.saturating_sub(out.len());
            if room == 0 {
                break;
            }
            let text = format!(
                "SELECT DISTINCT ?x WHERE {{ VALUES ?y {{ {} }} VALUES ?p {{ {} }} \
                 {{ ?y ?p ?x }} UNION {{ ?x ?p ?y }} }}",
                values(chunk),
                properties.join(" ")
            );
            let pattern = ScopeQuery::parse(&text)?.pattern;
            let sampler = Sampler {
                bound: room,
                ..*self
            };
            out.extend(sampler.sample(&not(pattern))?);
        }
        dedup(&mut out);
        out.truncate(self.bound);
        Ok(out)
    }

    /// A seeded sample of at most `bound` IRIs bound to `?x` by `pattern` (see the module
    /// comment): counted, then listed a seeded bucket at a time.
    fn sample(&self, pattern: &GraphPattern) -> anyhow::Result<Vec<String>> {
        let x = Variable::new_unchecked(SUBJECT);
        let oracle = self.kb.oracle().inner();
        let count = oracle
            .select(&count_query(pattern.clone(), &x))?
            .column_values("n")
            .next()
            .and_then(|t| match t {
                Term::Literal(l) => l.value().parse::<u64>().ok(),
                _ => None,
            })
            .unwrap_or(0);
        let cap = oracle
            .backend()
            .row_cap()
            .unwrap_or(10_000)
            .clamp(2, 10_000);
        let prefixes = bucket_prefixes(count, cap / 2);
        let mut out: Vec<(usize, u64, String)> = Vec::new();
        for (i, prefix) in prefixes.iter().enumerate() {
            if out.len() >= self.bound {
                break;
            }
            let table = oracle.select(&self.bucket(pattern, &x, prefix))?;
            for t in table.column_values(SUBJECT) {
                if let Term::NamedNode(n) = t {
                    out.push((i, fnv(self.seed, n.as_str()), n.as_str().to_owned()));
                }
            }
        }
        out.sort();
        out.truncate(self.bound);
        let mut iris: Vec<String> = out.into_iter().map(|(_, _, iri)| iri).collect();
        iris.sort();
        Ok(iris)
    }

    /// `SELECT DISTINCT ?x { pattern FILTER(isIRI(?x) && STRSTARTS(MD5(CONCAT(seed,
    /// STR(?x))), prefix)) }`.
    fn bucket(&self, pattern: &GraphPattern, x: &Variable, prefix: &str) -> Query {
        let call = |f: Function, args: Vec<Expression>| Expression::FunctionCall(f, args);
        let var = Expression::Variable(x.clone());
        let mut condition = call(Function::IsIri, vec![var.clone()]);
        if !prefix.is_empty() {
            let seeded = call(
                Function::Concat,
                vec![
                    Expression::Literal(Literal::new_simple_literal(self.seed.to_string())),
                    call(Function::Str, vec![var]),
                ],
            );
            let starts = call(
                Function::StrStarts,
                vec![
                    call(Function::Md5, vec![seeded]),
                    Expression::Literal(Literal::new_simple_literal(prefix)),
                ],
            );
            condition = Expression::And(Box::new(condition), Box::new(starts));
        }
        Query::Select {
            dataset: None,
            pattern: GraphPattern::Distinct {
                inner: Box::new(GraphPattern::Project {
                    inner: Box::new(GraphPattern::Filter {
                        expr: condition,
                        inner: Box::new(pattern.clone()),
                    }),
                    variables: vec![x.clone()],
                }),
            },
            base_iri: None,
        }
    }
}

/// `?x` bound to the closed-world instances of any of `classes`: typed with a class that
/// implies one (the oracle's reading of a class atom).
fn instances_of(kb: &KnowledgeBase, classes: &[Iri]) -> anyhow::Result<GraphPattern> {
    let sig = kb.signature();
    let mut types = BTreeSet::new();
    for c in classes {
        types.insert(c.clone());
        types.extend(sig.implying_types.get(c).into_iter().flatten().cloned());
    }
    let list: Vec<String> = types.iter().map(|t| format!("<{}>", t.as_str())).collect();
    let text = format!(
        "SELECT DISTINCT ?x WHERE {{ VALUES ?t {{ {} }} ?x a ?t }}",
        list.join(" ")
    );
    Ok(ScopeQuery::parse(&text)?.pattern)
}

/// The class and the classes the schema makes equivalent to it (each above the other).
fn equivalents(kb: &KnowledgeBase, class: &Iri) -> BTreeSet<Iri> {
    let sig = kb.signature();
    let mut out: BTreeSet<Iri> = sig
        .superclasses_of(class)
        .into_iter()
        .filter(|s| sig.superclasses_of(s).contains(class))
        .collect();
    out.insert(class.clone());
    out
}

/// The direct named superclasses of `class`, its equivalents left out.
fn direct_superclasses(kb: &KnowledgeBase, class: &Iri) -> Vec<Iri> {
    let same = equivalents(kb, class);
    let mut out = BTreeSet::new();
    for c in &same {
        for s in kb.signature().superclasses.get(c).into_iter().flatten() {
            if !same.contains(s) {
                out.insert(s.clone());
            }
        }
    }
    out.into_iter().collect()
}

fn values(iris: &[String]) -> String {
    iris.iter()
        .map(|i| format!("<{i}>"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn dedup(list: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    list.retain(|s| seen.insert(s.clone()));
}

/// FNV-1a of the seed and the IRI: a stable, seeded order within the last bucket.
fn fnv(seed: u64, s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.to_le_bytes().iter().chain(s.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
