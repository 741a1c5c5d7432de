//! The class-expression model: one enum, plain data, no knowledge of SPARQL or stores.
//!
//! Derived `Ord`/`Hash` make concepts usable as sort keys and cache keys; the normal form
//! sorts operands by the derived order, so reordering variants or fields changes normal forms.

use std::fmt;
use std::sync::Arc;

/// An absolute IRI, cheap to clone (shared string).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Iri(Arc<str>);

impl Iri {
    /// Wraps an IRI string. No validation: callers resolve names through a
    /// [`super::Vocabulary`], which only hands out IRIs it knows or was given in full.
    pub fn new(iri: impl Into<Arc<str>>) -> Self {
        Iri(iri.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part after the `#` if there is one, else after the last `/` or `:` (the name a
    /// human would type; `…#hasSugarOver120mg/dl` stays whole).
    pub fn local_name(&self) -> &str {
        let s = self.as_str();
        if let Some(i) = s.rfind('#')
            && i + 1 < s.len()
        {
            return &s[i + 1..];
        }
        match s.rfind(['/', ':']) {
            Some(i) if i + 1 < s.len() => &s[i + 1..],
            _ => s,
        }
    }
}

impl fmt::Debug for Iri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}>", self.0)
    }
}

impl fmt::Display for Iri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Iri {
    fn from(s: &str) -> Self {
        Iri::new(s)
    }
}

/// Well-known vocabulary IRIs used across the crate.
pub mod vocab {
    pub const OWL_THING: &str = "http://www.w3.org/2002/07/owl#Thing";
    pub const OWL_NOTHING: &str = "http://www.w3.org/2002/07/owl#Nothing";
    pub const XSD: &str = "http://www.w3.org/2001/XMLSchema#";
    pub const XSD_BOOLEAN: &str = "http://www.w3.org/2001/XMLSchema#boolean";
    pub const XSD_INTEGER: &str = "http://www.w3.org/2001/XMLSchema#integer";
    pub const XSD_DECIMAL: &str = "http://www.w3.org/2001/XMLSchema#decimal";
    pub const XSD_DOUBLE: &str = "http://www.w3.org/2001/XMLSchema#double";
    pub const XSD_FLOAT: &str = "http://www.w3.org/2001/XMLSchema#float";
    pub const XSD_STRING: &str = "http://www.w3.org/2001/XMLSchema#string";
    pub const RDF_LANG_STRING: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";
    pub const RDFS_LITERAL: &str = "http://www.w3.org/2000/01/rdf-schema#Literal";

    /// Numeric XSD datatypes (the ones numeric facets apply to).
    pub const NUMERIC_DATATYPES: &[&str] = &[
        "http://www.w3.org/2001/XMLSchema#integer",
        "http://www.w3.org/2001/XMLSchema#decimal",
        "http://www.w3.org/2001/XMLSchema#double",
        "http://www.w3.org/2001/XMLSchema#float",
        "http://www.w3.org/2001/XMLSchema#int",
        "http://www.w3.org/2001/XMLSchema#long",
        "http://www.w3.org/2001/XMLSchema#short",
        "http://www.w3.org/2001/XMLSchema#byte",
        "http://www.w3.org/2001/XMLSchema#nonNegativeInteger",
        "http://www.w3.org/2001/XMLSchema#positiveInteger",
        "http://www.w3.org/2001/XMLSchema#nonPositiveInteger",
        "http://www.w3.org/2001/XMLSchema#negativeInteger",
        "http://www.w3.org/2001/XMLSchema#unsignedInt",
        "http://www.w3.org/2001/XMLSchema#unsignedLong",
        "http://www.w3.org/2001/XMLSchema#unsignedShort",
        "http://www.w3.org/2001/XMLSchema#unsignedByte",
    ];

    pub fn is_numeric_datatype(iri: &str) -> bool {
        NUMERIC_DATATYPES.contains(&iri)
    }
}

/// A role: an object property, possibly inverted (`r⁻`, Manchester `inverse r`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Role {
    pub property: Iri,
    pub inverse: bool,
}

impl Role {
    pub fn new(property: impl Into<Iri>) -> Self {
        Role {
            property: property.into(),
            inverse: false,
        }
    }

    pub fn inverse_of(property: impl Into<Iri>) -> Self {
        Role {
            property: property.into(),
            inverse: true,
        }
    }

    /// The same property in the other direction.
    pub fn inverted(&self) -> Self {
        Role {
            property: self.property.clone(),
            inverse: !self.inverse,
        }
    }
}

/// An RDF literal as it appears in a concept (`"abc"@en`, `18`, `true`, `"x"^^dt`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Literal {
    pub lexical: Arc<str>,
    pub datatype: Iri,
    /// Language tag (then `datatype` is rdf:langString).
    pub language: Option<Arc<str>>,
}

impl Literal {
    pub fn typed(lexical: impl Into<Arc<str>>, datatype: impl Into<Iri>) -> Self {
        Literal {
            lexical: lexical.into(),
            datatype: datatype.into(),
            language: None,
        }
    }

    pub fn boolean(value: bool) -> Self {
        Literal::typed(if value { "true" } else { "false" }, vocab::XSD_BOOLEAN)
    }

    pub fn integer(value: i64) -> Self {
        Literal::typed(value.to_string(), vocab::XSD_INTEGER)
    }

    pub fn string(value: impl Into<Arc<str>>) -> Self {
        Literal::typed(value, vocab::XSD_STRING)
    }

    pub fn lang_string(value: impl Into<Arc<str>>, language: impl Into<Arc<str>>) -> Self {
        Literal {
            lexical: value.into(),
            datatype: Iri::new(vocab::RDF_LANG_STRING),
            language: Some(language.into()),
        }
    }

    /// `Some(b)` for an `xsd:boolean` literal with a valid lexical form.
    pub fn as_bool(&self) -> Option<bool> {
        if self.datatype.as_str() != vocab::XSD_BOOLEAN {
            return None;
        }
        match &*self.lexical {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        }
    }
}

/// A finite number with a total order (so data ranges can be sorted and hashed).
/// `-0.0` is stored as `0.0`; NaN and infinities are refused by [`Number::new`].
#[derive(Clone, Copy, Debug)]
pub struct Number(f64);

impl Number {
    pub fn new(value: f64) -> Option<Self> {
        if value.is_finite() {
            Some(Number(if value == 0.0 { 0.0 } else { value }))
        } else {
            None
        }
    }

    pub fn get(self) -> f64 {
        self.0
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}
impl Eq for Number {}
impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Number {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state)
    }
}

/// Rust's `Display` for f64 is the shortest form that reads back to the same value and never
/// uses an exponent, so it is also a valid `xsd:decimal` lexical form.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One end of a numeric interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bound {
    pub value: Number,
    /// `>=`/`<=` when true, `>`/`<` when false.
    pub inclusive: bool,
}

/// The filler of a data-property restriction `∃p.R`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum DataRange {
    /// `∃p.{v}`: has exactly this literal as a value (RDF term equality). Booleans are
    /// `Value(Literal::boolean(b))`.
    Value(Literal),
    /// `∃p.D`: has a value of datatype `D` (`rdfs:Literal` = any literal).
    Datatype(Iri),
    /// `∃p.D[≥ a, < b]`: has a numeric value within the bounds (at least one bound is set).
    Numeric {
        datatype: Iri,
        min: Option<Bound>,
        max: Option<Bound>,
    },
}

/// A class expression. Variants mirror the DL constructors; `n` in cardinalities is the count.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Concept {
    /// ⊤ (`owl:Thing`): every individual of the active domain.
    Top,
    /// ⊥ (`owl:Nothing`).
    Bottom,
    /// A named class.
    Class(Iri),
    /// ¬C
    Not(Box<Concept>),
    /// C₁ ⊓ … ⊓ Cₙ
    And(Vec<Concept>),
    /// C₁ ⊔ … ⊔ Cₙ
    Or(Vec<Concept>),
    /// ∃r.C
    Some { role: Role, filler: Box<Concept> },
    /// ∀r.C
    Only { role: Role, filler: Box<Concept> },
    /// ≥n r.C
    Min {
        n: u32,
        role: Role,
        filler: Box<Concept>,
    },
    /// ≤n r.C
    Max {
        n: u32,
        role: Role,
        filler: Box<Concept>,
    },
    /// =n r.C
    Exactly {
        n: u32,
        role: Role,
        filler: Box<Concept>,
    },
    /// ∃r.{a}
    HasValue { role: Role, individual: Iri },
    /// {a₁, …, aₙ}
    OneOf(Vec<Iri>),
    /// ∃r.Self
    HasSelf(Role),
    /// ∃p.R for a data property p.
    Data { property: Iri, range: DataRange },
}

impl Concept {
    pub fn class(iri: impl Into<Iri>) -> Self {
        Concept::Class(iri.into())
    }

    /// `¬c`. Named like `std::ops::Not::not` on purpose: `Concept::not(c)` reads as the DL.
    #[allow(clippy::should_implement_trait)]
    pub fn not(c: Concept) -> Self {
        Concept::Not(Box::new(c))
    }

    pub fn some(role: Role, filler: Concept) -> Self {
        Concept::Some {
            role,
            filler: Box::new(filler),
        }
    }

    pub fn only(role: Role, filler: Concept) -> Self {
        Concept::Only {
            role,
            filler: Box::new(filler),
        }
    }

    pub fn min(n: u32, role: Role, filler: Concept) -> Self {
        Concept::Min {
            n,
            role,
            filler: Box::new(filler),
        }
    }

    pub fn max(n: u32, role: Role, filler: Concept) -> Self {
        Concept::Max {
            n,
            role,
            filler: Box::new(filler),
        }
    }

    pub fn exactly(n: u32, role: Role, filler: Concept) -> Self {
        Concept::Exactly {
            n,
            role,
            filler: Box::new(filler),
        }
    }

    /// Direct sub-expressions (fillers and operands), in order.
    pub fn children(&self) -> Vec<&Concept> {
        match self {
            Concept::Not(c) => vec![c],
            Concept::And(cs) | Concept::Or(cs) => cs.iter().collect(),
            Concept::Some { filler, .. }
            | Concept::Only { filler, .. }
            | Concept::Min { filler, .. }
            | Concept::Max { filler, .. }
            | Concept::Exactly { filler, .. } => vec![filler],
            _ => Vec::new(),
        }
    }
}
