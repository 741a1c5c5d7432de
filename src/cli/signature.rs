//! `oxilearn signature`: what the KB contains, as a summary or as JSON.

use serde::Serialize;

use super::args::SignatureArgs;
use super::kb_source;
use super::print_json;
use crate::oracle::{IndividualScope, Signature};

#[derive(Serialize)]
struct Counts {
    triples: usize,
    classes: usize,
    subclass_axioms: usize,
    equivalent_class_pairs: usize,
    hierarchy_depth: usize,
    object_properties: usize,
    data_properties: usize,
    disjoint_class_pairs: usize,
    complement_pairs: usize,
    individuals: usize,
}

#[derive(Serialize)]
struct SignatureJson<'a> {
    counts: Counts,
    #[serde(flatten)]
    signature: &'a Signature,
}

fn counts(sig: &Signature, triples: usize) -> Counts {
    Counts {
        triples,
        classes: sig.classes.len(),
        subclass_axioms: sig.superclasses.values().map(|s| s.len()).sum(),
        equivalent_class_pairs: sig.equivalent_classes.len(),
        hierarchy_depth: sig.hierarchy_depth(),
        object_properties: sig.object_properties.len(),
        data_properties: sig.data_properties.len(),
        disjoint_class_pairs: sig
            .disjoint_classes
            .values()
            .map(|s| s.len())
            .sum::<usize>()
            / 2,
        complement_pairs: sig.complement_classes.len(),
        individuals: sig.individual_count(),
    }
}

pub fn run(args: SignatureArgs) -> anyhow::Result<()> {
    // An endpoint's individuals are not read unless asked for by name: the schema alone
    // costs what the schema costs.
    let schema_only = args.kb.endpoint.is_some() && !args.kb.whole_kb;
    let scope = if schema_only {
        IndividualScope::Schema
    } else {
        IndividualScope::ActiveDomain
    };
    let kb = kb_source::open_kb(&args.kb, None, scope)?;
    if schema_only && !super::progress::is_quiet() {
        eprintln!(
            "note: on an endpoint the signature is read from the schema alone (declared \
             classes and properties, the hierarchy, their characteristics); individuals, \
             classes and properties used only in the data, and value statistics need \
             --whole-kb, which reads every individual"
        );
    }
    let sig = kb.signature();
    let c = counts(sig, kb.triples());
    if args.json {
        return print_json(&SignatureJson {
            counts: c,
            signature: sig,
        });
    }
    outln!("triples:            {}", c.triples);
    outln!("classes:            {}", c.classes);
    outln!(
        "subclass axioms:    {} (hierarchy depth {})",
        c.subclass_axioms,
        c.hierarchy_depth
    );
    outln!("equivalent pairs:   {}", c.equivalent_class_pairs);
    outln!(
        "disjoint pairs:     {} (+{} complement)",
        c.disjoint_class_pairs,
        c.complement_pairs
    );
    outln!("object properties:  {}", c.object_properties);
    for (p, i) in &sig.object_properties {
        let mut flags = Vec::new();
        for (on, name) in [
            (i.functional, "functional"),
            (i.inverse_functional, "inverse-functional"),
            (i.transitive, "transitive"),
            (i.symmetric, "symmetric"),
        ] {
            if on {
                flags.push(name);
            }
        }
        let name = kb
            .vocabulary()
            .short_name(p, crate::concept::EntityKind::ObjectProperty);
        outln!(
            "{}",
            property_line(&name, i.assertions, "assertion", &flags.join(" "))
        );
    }
    outln!("data properties:    {}", c.data_properties);
    for (p, i) in &sig.data_properties {
        let stats = match (&i.numeric, &i.booleans) {
            (Some(n), _) => format!("numeric [{}, {}], {} distinct", n.min, n.max, n.distinct),
            (None, Some(b)) => format!("boolean {} true / {} false", b.true_count, b.false_count),
            _ => String::new(),
        };
        let name = kb
            .vocabulary()
            .short_name(p, crate::concept::EntityKind::DataProperty);
        outln!("{}", property_line(&name, i.assertions, "value", &stats));
    }
    outln!("individuals:        {}", c.individuals);
    Ok(())
}

/// One property row: name, count with its noun in the right number, details; no trailing
/// spaces when there are no details.
fn property_line(name: &str, count: u64, noun: &str, details: &str) -> String {
    let plural = if count == 1 { "" } else { "s" };
    let line = format!("  {name:<32} {count:>7} {noun}{plural} {details}");
    line.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::property_line;

    #[test]
    fn property_lines_agree_in_number_and_end_without_spaces() {
        assert_eq!(
            property_line("hasAncestor", 1, "assertion", "transitive"),
            format!("  {:<32} {:>7} assertion transitive", "hasAncestor", 1)
        );
        assert_eq!(
            property_line("hasChild", 11, "assertion", ""),
            format!("  {:<32} {:>7} assertions", "hasChild", 11)
        );
        assert_eq!(
            property_line("age", 0, "value", ""),
            format!("  {:<32} {:>7} values", "age", 0)
        );
    }
}
