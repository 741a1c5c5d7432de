//! `oxilearn instances`: the individuals of a concept, sorted by IRI.
//!
//! Closed world, the store lists the candidates from the concept itself (its typings, its
//! role's subjects; the whole active domain only for `⊤`, `¬`, `∀`, `≤n`) under a signature
//! that interns no individuals, and their membership is asked `--page-size` candidates at a
//! time ([`crate::oracle::SparqlOracle::instances_in_kb`]); `--limit` stops after N members.
//! An endpoint's row cap is paged through (or fails loudly): an answer is never silently
//! cut. Open world needs the provable non-instances too, so the active domain is interned
//! and asked page by page.

use serde::Serialize;

use super::args::InstancesArgs;
use super::kb_source;
use super::print_json;
use crate::oracle::{IndividualId, IndividualScope, IndividualSet, MembershipOracle, Semantics};

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
    let open_world = matches!(args.semantics, Semantics::Open);
    // Closed world the store lists the members itself: no individuals are interned. Open
    // world on an endpoint lists the provable members the same way; the provable
    // non-instances and the unknowns are over the whole active domain: --whole-kb.
    let bounded_open = open_world && args.kb.endpoint.is_some() && !args.kb.whole_kb;
    let scope = if open_world && !bounded_open {
        IndividualScope::ActiveDomain
    } else {
        IndividualScope::Schema
    };
    let kb = kb_source::open_kb(&args.kb, None, scope)?;
    let concept = parse(&kb, &args.concept, open_world)?;
    let limit = args.limit.unwrap_or(usize::MAX);
    let manchester = kb.manchester(&concept);
    let dl = kb.dl(&concept);
    if bounded_open {
        let out = provable_instances(&kb, &concept, &args, manchester, dl, limit)?;
        if args.json {
            return print_json(&out);
        }
        outln!("{}  ({} individuals)", out.concept, out.count);
        for i in &out.individuals {
            outln!("  {i}");
        }
        return Ok(());
    }
    if open_world {
        let out = three_valued(&kb, &concept, &args, manchester, dl, limit)?;
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
    // One more row than the limit tells whether the limit cut the answer.
    let asked = args.limit.map(|n| n.saturating_add(1));
    let mut listed = kb
        .oracle()
        .inner()
        .instances_in_kb(&concept, asked, args.page_size)?;
    let truncated = listed.len() > limit;
    listed.truncate(limit);
    report_truncation(truncated, limit);
    let count = listed.len();
    if args.json {
        return print_json(&InstancesJson {
            concept: manchester,
            dl,
            semantics: args.semantics,
            count,
            individuals: listed.iter().map(|i| i.as_str().to_owned()).collect(),
            truncated,
            non_instances: None,
            unknown_count: None,
        });
    }
    for iri in &listed {
        outln!("  {}", iri.as_str());
    }
    let more = if truncated { " listed, more exist" } else { "" };
    outln!("({count} individuals{more})");
    Ok(())
}

/// Open world over every individual read: the provable instances and non-instances and
/// how many are unknown, asked a page at a time.
fn three_valued(
    kb: &crate::KnowledgeBase,
    concept: &crate::concept::Concept,
    args: &InstancesArgs,
    manchester: String,
    dl: String,
    limit: usize,
) -> anyhow::Result<InstancesJson> {
    let sig = kb.signature();
    let names = |set: &IndividualSet| -> Vec<String> {
        sig.iris_of(set).map(|i| i.as_str().to_string()).collect()
    };
    let universe = sig.individual_count();
    let (mut members, mut non_members) = (sig.empty_set(), sig.empty_set());
    let mut unknown = 0;
    for start in (0..universe).step_by(args.page_size) {
        let end = start.saturating_add(args.page_size).min(universe);
        let page = IndividualSet::from_ids(universe, (start..end).map(|i| IndividualId(i as u32)));
        let t = kb.oracle().truth(concept, &page)?;
        unknown += t.unknown(&page).len();
        members.union_with(&t.true_set);
        non_members.union_with(&t.false_set);
    }
    let mut individuals = names(&members);
    let truncated = individuals.len() > limit;
    individuals.truncate(limit);
    report_truncation(truncated, limit);
    Ok(InstancesJson {
        concept: manchester,
        dl,
        semantics: args.semantics,
        count: individuals.len(),
        individuals,
        truncated,
        non_instances: Some(names(&non_members)),
        unknown_count: Some(unknown),
    })
}

/// The concept, with a hint when a closed-world run cannot resolve an individual's name
/// (the KB's individuals are not read first).
fn parse(
    kb: &crate::KnowledgeBase,
    text: &str,
    open_world: bool,
) -> anyhow::Result<crate::concept::Concept> {
    kb.parse_concept(text).map_err(|e| {
        let e = anyhow::Error::from(e);
        if !open_world && format!("{e:#}").contains("unknown individual") {
            e.context(
                "instances does not read the KB's individuals first: name them by full IRI \
                 <…> or prefixed name",
            )
        } else {
            e
        }
    })
}

/// Open world on an endpoint without `--whole-kb`: the provable instances only, and a note
/// saying where the rest is.
fn provable_instances(
    kb: &crate::KnowledgeBase,
    concept: &crate::concept::Concept,
    args: &InstancesArgs,
    manchester: String,
    dl: String,
    limit: usize,
) -> anyhow::Result<InstancesJson> {
    let mut individuals = provable_members(kb, concept, args.page_size, limit)?;
    let truncated = individuals.len() > limit;
    individuals.truncate(limit);
    report_truncation(truncated, limit);
    note(
        "note: on an endpoint only the provable instances are listed (from the store's \
         indexes); the provable non-instances and the unknowns range over every individual \
         of the KB: pass --whole-kb to read them",
    );
    Ok(InstancesJson {
        concept: manchester,
        dl,
        semantics: args.semantics,
        count: individuals.len(),
        individuals,
        truncated,
        non_instances: None,
        unknown_count: None,
    })
}

/// The provable instances `T(c)`, listed from `c`'s seeds a page at a time (an entailed
/// member has the assertions its seed finds), at most `limit + 1` of them (with a limit,
/// which ones follows the pages' order), sorted.
fn provable_members(
    kb: &crate::KnowledgeBase,
    concept: &crate::concept::Concept,
    page_size: usize,
    limit: usize,
) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    let seeds = crate::Candidates::Seeds(concept.clone());
    for page in kb.candidate_pages(&seeds, page_size)? {
        let page = kb.page(page?);
        let t = page.oracle().truth(concept, &page.all())?;
        out.extend(
            page.oracle()
                .signature()
                .iris_of(&t.true_set)
                .map(|i| i.as_str().to_owned()),
        );
        if out.len() > limit {
            break;
        }
    }
    // Pages come bucket by bucket; the answer is listed by IRI.
    out.sort();
    Ok(out)
}

/// A note on stderr, unless `--quiet`.
fn note(text: &str) {
    if !super::progress::is_quiet() {
        eprintln!("{text}");
    }
}

/// Says on stderr that `--limit` cut the answer.
fn report_truncation(truncated: bool, limit: usize) {
    if truncated && !super::progress::is_quiet() {
        eprintln!("truncated: --limit {limit} reached; more individuals are instances");
    }
}
