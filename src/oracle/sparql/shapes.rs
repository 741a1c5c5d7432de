//! Equivalent ways to write the same construct. Endpoints differ in which of them they
//! evaluate correctly (or at all), so the capability probe picks per endpoint; the embedded
//! store answers every shape, and the differential tests check that all shapes agree there.

use serde::Serialize;

/// How `≥n r.C` with n ≥ 2 is written. Both shapes mean the same; endpoints differ in which
/// they evaluate correctly, so the capability probe picks one (the differential tests check
/// that both give the same answers on the embedded store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CountingShape {
    /// `EXISTS { SELECT ?v { ?v R ?y FILTER(C(?y)) } GROUP BY ?v HAVING(COUNT(DISTINCT ?y) >= n) }`:
    /// the grouped sub-select is correlated through its projected `?v` (the cheapest where it
    /// works: the store groups only the successors of the individual at hand).
    #[default]
    Correlated,
    /// `EXISTS { ?v R ?w . { SELECT ?s { ?s R ?y FILTER(C(?y)) } GROUP BY ?s HAVING(…) } FILTER(?s = ?v) }`:
    /// the sub-select shares no variable with the outside, and the outer triple binds `?v`
    /// inside the group before the join. Virtuoso 7 refuses the correlated shape (SP031) or,
    /// with triple patterns, answers it wrongly; this one it answers correctly (`?v R ?w`
    /// changes nothing: n ≥ 2 successors imply one).
    Joined,
    /// Neither shape is answered correctly: such restrictions are refused with a clear error.
    Unavailable,
}

/// How the top-level `⊓`, `⊔`, `¬` of a concept are answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BooleanShape {
    /// One query whose FILTER combines the parts with `&&`, `||`, `!`.
    #[default]
    Inline,
    /// A query per part, combined as sets by the oracle (Kleene rules for truth sets).
    /// Virtuoso 7 drops the other conjuncts of a conjunction that holds a disjunction of five
    /// or more `EXISTS` (it answers the disjunction alone), and large boolean filters have
    /// crashed it; splitting keeps each query a single restriction or atom.
    Split,
}

/// How transitive roles (`(e₁|…|eₙ)+` paths) are sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TransitiveShape {
    /// As a SPARQL property path.
    #[default]
    Path,
    /// Refused with a clear error. Virtuoso 7 answers `+` over alternatives of inverse edges
    /// wrongly (on the family fixture `(hasAncestor|^hasChild|^hasDaughter|hasParent|^hasSon)+`
    /// from `emma` misses her ancestors), refuses it when the start is bound only outside
    /// the group ("transitive start not given"), and crashed under such queries.
    Unavailable,
}

/// The shapes one oracle writes its queries in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub struct QueryShapes {
    pub counting: CountingShape,
    pub booleans: BooleanShape,
    pub transitive: TransitiveShape,
    /// Refuse queries with more `EXISTS` than this (endpoints that crash on large filters).
    pub max_exists: Option<usize>,
}
