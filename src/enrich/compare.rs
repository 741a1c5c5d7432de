//! Comparing the triples a store holds with the ones a run writes, by value: stores give
//! literals back in their own lexical form (Virtuoso answers `"true"^^xsd:boolean` as `"1"`
//! and `"1"^^xsd:double` as `"1.0"`), and a textual comparison would see every such triple
//! as missing, rewrite it, and count it twice.

use oxigraph::model::vocab::xsd;
use oxigraph::model::{Literal, Quad, Term};

/// A key equal for two quads exactly when they are the same triple in the same graph, with
/// numbers and booleans compared by value.
pub fn quad_key(q: &Quad) -> String {
    let object = match &q.object {
        Term::Literal(l) => literal_key(l),
        other => other.to_string(),
    };
    format!("{} {} {object} {}", q.subject, q.predicate, q.graph_name)
}

fn literal_key(l: &Literal) -> String {
    let d = l.datatype();
    let value = l.value().trim();
    if d == xsd::BOOLEAN {
        match value {
            "true" | "1" => return "\"true\"^^boolean".into(),
            "false" | "0" => return "\"false\"^^boolean".into(),
            _ => {}
        }
    }
    let numeric = [xsd::DOUBLE, xsd::FLOAT, xsd::DECIMAL, xsd::INTEGER];
    if numeric.contains(&d)
        && let Ok(v) = value.parse::<f64>()
    {
        return format!("\"{v:?}\"^^{d}");
    }
    l.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::model::NamedNode;

    fn quad(o: Literal) -> Quad {
        let n = NamedNode::new_unchecked("urn:x");
        Quad::new(n.clone(), n.clone(), o, n)
    }

    #[test]
    fn virtuoso_lexical_forms_are_the_same_triples() {
        let same = |a: Literal, b: Literal| quad_key(&quad(a)) == quad_key(&quad(b));
        assert!(same(
            Literal::from(true),
            Literal::new_typed_literal("1", xsd::BOOLEAN)
        ));
        assert!(same(
            Literal::from(1.0),
            Literal::new_typed_literal("1.0", xsd::DOUBLE)
        ));
        assert!(same(
            Literal::from(0.25),
            Literal::new_typed_literal("2.5E-1", xsd::DOUBLE)
        ));
        assert!(!same(Literal::from(true), Literal::from(false)));
        assert!(!same(Literal::from(1.0), Literal::new_simple_literal("1")));
        assert!(!same(Literal::from(0.5), Literal::from(0.25)));
    }
}
