//! `oxilearn instances`: the individuals of a concept, sorted by IRI.
//!
//! Closed world, the universe is asked page by page (`--page-size` individuals per oracle
//! call) and text output is printed as each page is answered, so the answer's size does not
//! grow the output buffer; `--limit` stops after N members and reports the truncation.
//! The signature still enumerates the active domain (issue 9's generator query over an
//! empty neighbourhood is not done yet). Open world is answered in one call.

use serde::Serialize;

use super::args::{InstancesArgs, SemanticsArg};
use super::kb_source;
use super::print_json;
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics};

/// The documented JSON shape (`concept`, `count`, `individuals`, `truncated` are stable).
#[derive(Serialize)]
struct InstancesJson {
    concept: String,
    dl: String,
    semantics: Semantics,
    /// The number of individuals listed (at most `--limit`).
    count: usize,
    individuals: Vec<String>,
    /// Whether `--limit` cut the answer.
    truncated: bool,
    /// Open world only: the provable non-instances.
    #[serde(skip_serializing_if = "Option::is_none")]
    non_instances: Option<Vec<String>>,
    /// Open world only: individuals whose membership is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    unknown_count: Option<usize>,
}

pub fn run(args: InstancesArgs) -> anyhow::Result<()> {
    if args.limit == Some(0) {
        anyhow::bail!("--limit must be at least 1");
    }
    if args.page_size == 0 {
        anyhow::bail!("--page-size must be at least 1");
    }
    let session = kb_source::open(&args.kb, None)?;
    let concept = session.parse_concept(&args.concept)?;
    let sig = session.signature();
    let universe = sig.individual_count();
    let limit = args.limit.unwrap_or(usize::MAX);
    let names = |set: &IndividualSet| -> Vec<String> {
        sig.iris_of(set).map(|i| i.as_str().to_string()).collect()
    };
    let manchester = session.manchester(&concept);
    let dl = session.dl(&concept);
    if let SemanticsArg::Open = args.semantics {
        let all = sig.all_individuals();
        let t = session.oracle.truth(&concept, &all)?;
        let unknown = t.unknown(&all).len();
        let mut individuals = names(&t.true_set);
        let truncated = individuals.len() > limit;
        individuals.truncate(limit);
        let out = InstancesJson {
            concept: manchester,
            dl,
            semantics: args.semantics.into(),
            count: individuals.len(),
            individuals,
            truncated,
            non_instances: Some(names(&t.false_set)),
            unknown_count: Some(unknown),
        };
        report_truncation(truncated, limit);
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
        return Ok(());
    }
    if !args.json {
        outln!("{manchester}");
    }
    let mut listed = Vec::new();
    let mut count = 0usize;
    let mut truncated = false;
    let mut start = 0usize;
    'pages: while start < universe {
        let end = start.saturating_add(args.page_size).min(universe);
        let page = IndividualSet::from_ids(universe, (start..end).map(|i| IndividualId(i as u32)));
        let members = session.oracle.covered(&concept, &page)?;
        for iri in sig.iris_of(&members) {
            if count == limit {
                truncated = true;
                break 'pages;
            }
            count += 1;
            if args.json {
                listed.push(iri.as_str().to_string());
            } else {
                outln!("  {}", iri.as_str());
            }
        }
        start = end;
    }
    report_truncation(truncated, limit);
    if args.json {
        return print_json(&InstancesJson {
            concept: manchester,
            dl,
            semantics: args.semantics.into(),
            count,
            individuals: listed,
            truncated,
            non_instances: None,
            unknown_count: None,
        });
    }
    let more = if truncated { " listed, more exist" } else { "" };
    outln!("({count} individuals{more})");
    Ok(())
}

/// Says on stderr that `--limit` cut the answer.
fn report_truncation(truncated: bool, limit: usize) {
    if truncated {
        eprintln!("truncated: --limit {limit} reached; more individuals are instances");
    }
}
