//! `oxilearn instances`: the individuals of a concept, sorted by IRI.

use serde::Serialize;

use super::args::{InstancesArgs, SemanticsArg};
use super::kb_source;
use super::print_json;
use crate::oracle::{MembershipOracle, Semantics};

/// The documented JSON shape (`concept`, `count`, `individuals` are stable).
#[derive(Serialize)]
struct InstancesJson {
    concept: String,
    dl: String,
    semantics: Semantics,
    count: usize,
    individuals: Vec<String>,
    /// Open world only: the provable non-instances.
    #[serde(skip_serializing_if = "Option::is_none")]
    non_instances: Option<Vec<String>>,
    /// Open world only: individuals whose membership is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    unknown_count: Option<usize>,
}

pub fn run(args: InstancesArgs) -> anyhow::Result<()> {
    let session = kb_source::open(&args.kb, None)?;
    let concept = session.parse_concept(&args.concept)?;
    let sig = session.signature();
    let all = sig.all_individuals();
    let names = |set: &crate::oracle::IndividualSet| -> Vec<String> {
        sig.iris_of(set).map(|i| i.as_str().to_string()).collect()
    };
    let (members, non_members, unknown) = match args.semantics {
        SemanticsArg::Closed => (session.oracle.covered(&concept, &all)?, None, None),
        SemanticsArg::Open => {
            let t = session.oracle.truth(&concept, &all)?;
            let unknown = t.unknown(&all).len();
            (t.true_set.clone(), Some(names(&t.false_set)), Some(unknown))
        }
    };
    let out = InstancesJson {
        concept: session.manchester(&concept),
        dl: session.dl(&concept),
        semantics: args.semantics.into(),
        count: members.len(),
        individuals: names(&members),
        non_instances: non_members,
        unknown_count: unknown,
    };
    if args.json {
        return print_json(&out);
    }
    outln!("{}  ({} individuals)", out.concept, out.count);
    for i in &out.individuals {
        outln!("  {i}");
    }
    if let (Some(non), Some(unknown)) = (&out.non_instances, out.unknown_count) {
        outln!("provably not instances: {}; unknown: {unknown}", non.len());
    }
    Ok(())
}
