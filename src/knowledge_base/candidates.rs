//! "These individuals", for applying a model: the instances of a class expression, the
//! answers of a SELECT query, every individual of the KB (asked for by name), or a list.
//! The store counts them, then lists them a bucket at a time (see
//! [`crate::oracle::sparql::pages`]), with enough buckets that each answer stays well under
//! the page size: memory and each answer's size are bounded by the page, never by the KB,
//! and no row cap can cut a page short. Pages come bucket by bucket, sorted by IRI within.

use std::collections::VecDeque;

use oxigraph::model::{NamedNode, Term};
use spargebra::Query;
use spargebra::algebra::{Expression, GraphPattern};
use spargebra::term::Variable;

use super::{KnowledgeBase, KnowledgeBaseError};
use crate::concept::{Concept, Iri};
use crate::oracle::sparql::pages::{bucket_prefixes, bucket_query, count_query};
use crate::oracle::sparql::{CandidateSource, SUBJECT};

/// Which individuals a model is applied to.
#[derive(Clone, Debug)]
pub enum Candidates {
    /// The closed-world instances of a class expression (listed from its seeds: the store
    /// finds them by index; see [`crate::oracle::sparql::Compiler::candidate_sources`]).
    Instances(Concept),
    /// What a class expression's seeds bind: a superset of its instances, closed-world or
    /// entailed, that the store lists by index (for asking another question about them).
    Seeds(Concept),
    /// The IRIs a SELECT query binds to its one variable.
    Query(ScopeQuery),
    /// Every individual of the active domain: a full scan, only when asked for by name.
    WholeKb,
    /// These individuals (e.g. a problem's examples).
    Listed(Vec<Iri>),
}

/// A user's `SELECT ?v WHERE { … }` with one projected variable, as a pattern binding `?x`.
#[derive(Clone, Debug)]
pub struct ScopeQuery {
    pub text: String,
    /// Binds [`SUBJECT`] to the query's answers (the query is a sub-select inside it).
    pub pattern: GraphPattern,
}

impl ScopeQuery {
    /// [`ScopeQuery::parse`] of a command-line argument: the query itself, or `@FILE` for
    /// the query in FILE.
    pub fn from_argument(arg: &str) -> Result<Self, KnowledgeBaseError> {
        match arg.strip_prefix('@') {
            Some(file) => {
                let text =
                    std::fs::read_to_string(file).map_err(|e| KnowledgeBaseError::ScopeQuery {
                        query: arg.to_owned(),
                        message: format!("reading {file}: {e}"),
                    })?;
                Self::parse(&text)
            }
            None => Self::parse(arg),
        }
    }

    /// Parses and checks `text`: a SELECT projecting exactly one variable, without `FROM`
    /// (the graphs read are the KB's: `--read-graph`).
    pub fn parse(text: &str) -> Result<Self, KnowledgeBaseError> {
        let bad = |message: String| KnowledgeBaseError::ScopeQuery {
            query: text.to_owned(),
            message,
        };
        let query = spargebra::SparqlParser::new()
            .parse_query(text)
            .map_err(|e| bad(e.to_string()))?;
        let Query::Select {
            dataset, pattern, ..
        } = query
        else {
            return Err(bad("expected a SELECT query".into()));
        };
        if dataset.is_some() {
            return Err(bad(
                "FROM / FROM NAMED are not supported here: the query reads the KB's graphs \
                 (choose them with --read-graph)"
                    .into(),
            ));
        }
        let variables = projected(&pattern);
        let [v] = variables.as_slice() else {
            return Err(bad(format!(
                "expected one projected variable (the individuals), found {}",
                if variables.is_empty() {
                    "none (SELECT * is not allowed)".to_owned()
                } else {
                    variables
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            )));
        };
        let x = Variable::new_unchecked(SUBJECT);
        let pattern = if *v == x {
            pattern
        } else {
            // `{ SELECT (?v AS ?x) { … } }`: only `?x` is visible outside.
            GraphPattern::Project {
                inner: Box::new(GraphPattern::Extend {
                    inner: Box::new(pattern),
                    variable: x.clone(),
                    expression: Expression::Variable(v.clone()),
                }),
                variables: vec![x],
            }
        };
        Ok(ScopeQuery {
            text: text.to_owned(),
            pattern,
        })
    }
}

/// The variables a SELECT's algebra projects (through `DISTINCT`, `LIMIT`, …).
fn projected(p: &GraphPattern) -> Vec<Variable> {
    match p {
        GraphPattern::Project { variables, .. } => variables.clone(),
        GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. }
        | GraphPattern::OrderBy { inner, .. } => projected(inner),
        _ => Vec::new(),
    }
}

impl KnowledgeBase {
    /// The pages of `candidates`, each at most `page_size` IRIs, sorted, none repeated
    /// across pages. Fails at once (naming the alternatives) for a class expression whose
    /// instances only a full scan could list.
    pub fn candidate_pages(
        &self,
        candidates: &Candidates,
        page_size: usize,
    ) -> Result<CandidatePages<'_>, KnowledgeBaseError> {
        let page_size = page_size.max(1);
        if let Candidates::Listed(iris) = candidates {
            let mut iris = iris.clone();
            iris.sort();
            iris.dedup();
            return Ok(CandidatePages {
                kb: self,
                page_size,
                sources: Vec::new(),
                buckets: None,
                ready: iris.into(),
                filter: None,
            });
        }
        let (sources, filter) = self.sources_and_filter(candidates)?;
        Ok(CandidatePages {
            kb: self,
            page_size,
            sources,
            buckets: None,
            ready: VecDeque::new(),
            filter,
        })
    }

    /// Which of `iris` are among `candidates` (sorted): the listing's own patterns with the
    /// individual bound to a chunk of `iris` at a time, so the question costs what `iris`
    /// does, not what the candidates do.
    pub fn candidates_among(
        &self,
        candidates: &Candidates,
        iris: &[Iri],
    ) -> Result<Vec<Iri>, KnowledgeBaseError> {
        let mut found: Vec<Iri> = match candidates {
            Candidates::Listed(listed) => {
                let listed: std::collections::HashSet<&Iri> = listed.iter().collect();
                iris.iter()
                    .filter(|i| listed.contains(i))
                    .cloned()
                    .collect()
            }
            _ => {
                let (sources, filter) = self.sources_and_filter(candidates)?;
                let chunk = self.oracle.inner().values_chunk().max(1);
                let mut found = Vec::new();
                for part in iris.chunks(chunk) {
                    let pages = CandidatePages {
                        kb: self,
                        page_size: chunk,
                        sources: sources.iter().map(|s| bound_to(s, part)).collect(),
                        buckets: None,
                        ready: VecDeque::new(),
                        filter: filter.clone(),
                    };
                    for page in pages {
                        found.extend(page?);
                    }
                }
                found
            }
        };
        found.sort();
        found.dedup();
        Ok(found)
    }

    /// The patterns that list `candidates` (not [`Candidates::Listed`]), and the concept
    /// their answers must still satisfy.
    fn sources_and_filter(
        &self,
        candidates: &Candidates,
    ) -> Result<(Vec<CandidateSource>, Option<Concept>), KnowledgeBaseError> {
        Ok(match candidates {
            Candidates::Listed(_) => (Vec::new(), None),
            Candidates::Instances(c) => (self.sources_of(c)?, Some(c.clone())),
            Candidates::Seeds(c) => (self.sources_of(c)?, None),
            Candidates::Query(q) => (
                vec![CandidateSource {
                    pattern: q.pattern.clone(),
                    within_domain: true,
                }],
                None,
            ),
            Candidates::WholeKb => (self.compiler().active_domain_sources(&[]), None),
        })
    }

    /// An upper bound of how many candidates there are (for progress and ETA): the sum
    /// over the sources of their distinct bindings, before any membership check.
    pub fn count_candidates(&self, candidates: &Candidates) -> Result<u64, KnowledgeBaseError> {
        if let Candidates::Listed(iris) = candidates {
            return Ok(iris.len() as u64);
        }
        self.count_sources(&self.sources_and_filter(candidates)?.0)
    }

    /// The sum over `sources` of their distinct IRI bindings, counted by the store.
    pub(crate) fn count_sources(
        &self,
        sources: &[CandidateSource],
    ) -> Result<u64, KnowledgeBaseError> {
        let x = Variable::new_unchecked(SUBJECT);
        let mut total = 0;
        for s in sources {
            let table = self
                .oracle
                .inner()
                .select(&count_query(s.pattern.clone(), &x))
                .map_err(KnowledgeBaseError::Oracle)?;
            total += table
                .column_values("n")
                .next()
                .and_then(|t| match t {
                    Term::Literal(l) => l.value().parse::<u64>().ok(),
                    _ => None,
                })
                .unwrap_or(0);
        }
        Ok(total)
    }

    /// The sources listing `c`'s candidates, or the refusal naming the alternatives.
    pub(crate) fn sources_of(
        &self,
        c: &Concept,
    ) -> Result<Vec<CandidateSource>, KnowledgeBaseError> {
        self.sources_with(&self.compiler(), c)
    }

    /// [`Self::sources_of`] written by `compiler`, whose fresh variables the caller's other
    /// patterns then cannot clash with.
    pub(crate) fn sources_with(
        &self,
        compiler: &crate::oracle::sparql::Compiler<'_>,
        c: &Concept,
    ) -> Result<Vec<CandidateSource>, KnowledgeBaseError> {
        self.oracle
            .inner()
            .check_concept(c)
            .map_err(KnowledgeBaseError::Oracle)?;
        compiler
            .candidate_sources(c)
            .ok_or_else(|| KnowledgeBaseError::Unbounded {
                concept: self.manchester(c),
            })
    }

    pub(crate) fn compiler(&self) -> crate::oracle::sparql::Compiler<'_> {
        self.oracle.inner().compiler()
    }
}

/// The pages of a [`Candidates`] (an iterator of `Result<Vec<Iri>, _>`).
pub struct CandidatePages<'kb> {
    kb: &'kb KnowledgeBase,
    page_size: usize,
    sources: Vec<CandidateSource>,
    /// The buckets not read yet (`None`: not counted yet).
    buckets: Option<VecDeque<String>>,
    /// Candidates read and checked, not handed out yet.
    ready: VecDeque<Iri>,
    /// Keep only the instances of this concept (the candidates are its seeds' bindings).
    filter: Option<Concept>,
}

impl CandidatePages<'_> {
    fn next_page(&mut self) -> Result<Option<Vec<Iri>>, KnowledgeBaseError> {
        while self.ready.is_empty() {
            if self.sources.is_empty() {
                return Ok(None);
            }
            if self.buckets.is_none() {
                let total = self.kb.count_sources(&self.sources)?;
                // Half a page a bucket: an uneven bucket still stays under the page size.
                self.buckets = Some(bucket_prefixes(total, self.page_size / 2).into());
            }
            let Some(prefix) = self.buckets.as_mut().and_then(VecDeque::pop_front) else {
                return Ok(None);
            };
            let bucket = self.bucket(&prefix)?;
            self.ready.extend(bucket);
        }
        let n = self.page_size.min(self.ready.len());
        Ok(Some(self.ready.drain(..n).collect()))
    }

    /// One bucket's candidates from every source, sorted, each once, checked.
    fn bucket(&self, prefix: &str) -> Result<Vec<Iri>, KnowledgeBaseError> {
        let x = Variable::new_unchecked(SUBJECT);
        let mut found: Vec<(String, bool)> = Vec::new();
        for source in &self.sources {
            let q = bucket_query(source.pattern.clone(), &x, prefix);
            let table = self
                .kb
                .oracle
                .inner()
                .select(&q)
                .map_err(KnowledgeBaseError::Oracle)?;
            found.extend(table.column_values(SUBJECT).filter_map(|t| match t {
                Term::NamedNode(n) => Some((n.as_str().to_owned(), source.within_domain)),
                _ => None,
            }));
        }
        // Sorted with the sure ones first, so one entry per IRI keeps the surest.
        found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        found.dedup_by(|a, b| a.0 == b.0);
        let mut sure: Vec<String> = Vec::new();
        let mut unsure: Vec<String> = Vec::new();
        for (iri, within) in found {
            if within {
                sure.push(iri);
            } else {
                unsure.push(iri);
            }
        }
        if !unsure.is_empty() {
            sure.extend(self.in_domain(&unsure)?);
        }
        let sig = self.kb.signature();
        let mut iris: Vec<Iri> = sure
            .into_iter()
            .map(Iri::new)
            .filter(|i| sig.may_be_individual(i))
            .collect();
        iris.sort();
        let Some(c) = &self.filter else {
            return Ok(iris);
        };
        // Membership a page at a time: the page's oracle is as large as its page.
        let mut members = Vec::new();
        for chunk in iris.chunks(self.page_size.max(1)) {
            let p = self.kb.page(chunk.to_vec());
            let covered = p
                .oracle()
                .covered(c, &p.all())
                .map_err(KnowledgeBaseError::Oracle)?;
            members.extend(p.oracle().signature().iris_of(&covered).cloned());
        }
        Ok(members)
    }

    /// Which of `iris` are individuals of the active domain.
    fn in_domain(&self, iris: &[String]) -> Result<Vec<String>, KnowledgeBaseError> {
        let mut inside = Vec::new();
        for chunk in iris.chunks(self.kb.oracle.inner().values_chunk()) {
            let nodes: Vec<NamedNode> = chunk.iter().map(NamedNode::new_unchecked).collect();
            for query in self.kb.compiler().in_domain_queries(&nodes, &[]) {
                let table = self
                    .kb
                    .oracle
                    .inner()
                    .select(&query)
                    .map_err(KnowledgeBaseError::Oracle)?;
                inside.extend(table.column_values(SUBJECT).filter_map(|t| match t {
                    Term::NamedNode(n) => Some(n.as_str().to_owned()),
                    _ => None,
                }));
            }
        }
        inside.sort();
        inside.dedup();
        Ok(inside)
    }
}

impl Iterator for CandidatePages<'_> {
    type Item = Result<Vec<Iri>, KnowledgeBaseError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_page() {
            Ok(Some(page)) => Some(Ok(page)),
            Ok(None) => None,
            Err(e) => {
                // Stop after an error: the caller decides whether to retry the whole run.
                self.sources.clear();
                self.ready.clear();
                Some(Err(e))
            }
        }
    }
}

/// `source` with its individual bound to `iris` (a `VALUES` block joined in front).
fn bound_to(source: &CandidateSource, iris: &[Iri]) -> CandidateSource {
    let values = GraphPattern::Values {
        variables: vec![Variable::new_unchecked(SUBJECT)],
        bindings: iris
            .iter()
            .map(|i| {
                vec![Some(spargebra::term::GroundTerm::NamedNode(
                    NamedNode::new_unchecked(i.as_str()),
                ))]
            })
            .collect(),
    };
    CandidateSource {
        pattern: GraphPattern::Join {
            left: Box::new(values),
            right: Box::new(source.pattern.clone()),
        },
        within_domain: source.within_domain,
    }
}
