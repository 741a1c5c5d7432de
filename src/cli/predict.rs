//! `oxilearn predict`: apply a saved model to individuals of a KB (files or an endpoint):
//! every individual (default), the examples of a problem file, or the instances of a class
//! expression. Text output streams a line per individual as each chunk is answered;
//! `--json` is one document `{model, predictions: [{individual, member, score?,
//! probability?, interval?, degree?, label?}]}` with individuals as full IRIs.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use serde::Serialize;

use super::args::PredictArgs;
use super::kb_source;
use super::model_file;
use super::print_json;
use super::problems::load_selected;
use crate::KnowledgeBase;
use crate::learn::Prediction;
use crate::oracle::{IndividualSet, MembershipOracle};

/// Individuals per oracle call in text mode (each chunk is printed as soon as it is known).
const CHUNK: usize = 1000;

#[derive(Serialize)]
pub(super) struct ModelJson {
    pub algorithm: String,
    pub problem: Option<String>,
    pub signature_fingerprint: String,
    pub description: String,
}

#[derive(Serialize)]
pub(super) struct PredictionJson {
    pub individual: String,
    #[serde(flatten)]
    pub prediction: Prediction,
}

/// The `--json` document (also `serve`'s `POST /predict` answer).
#[derive(Serialize)]
pub(super) struct PredictJson {
    pub model: ModelJson,
    pub predictions: Vec<PredictionJson>,
}

/// The individuals the command asks about. `--class` and `--all` (the default) answer over the
/// whole active domain, as `instances` does: that is the question asked, not part of learning;
/// `--individuals` costs what its examples cost.
pub(super) fn selected(
    kb: &KnowledgeBase,
    individuals: Option<&Path>,
    class: Option<&str>,
) -> anyhow::Result<IndividualSet> {
    let sig = kb.signature();
    if let Some(path) = individuals {
        let problems = load_selected(path, &[])?;
        let mut set = IndividualSet::empty(sig.individual_count());
        for p in &problems {
            let (pos, neg) = kb.example_sets(p)?;
            set.union_with(&pos);
            set.union_with(&neg);
        }
        return Ok(set);
    }
    if let Some(text) = class {
        let c = kb.parse_concept(text)?;
        return Ok(kb.oracle().covered(&c, &sig.all_individuals())?);
    }
    Ok(sig.all_individuals())
}

/// The scope the KB is opened over: `--individuals` reads only those individuals and their
/// neighbourhood; otherwise every individual.
pub(super) fn scope_for(
    kb: &super::args::KbArgs,
    individuals: Option<&Path>,
) -> anyhow::Result<crate::oracle::IndividualScope> {
    Ok(match individuals {
        Some(path) => kb_source::learning_scope(kb, &load_selected(path, &[])?, false),
        None => crate::oracle::IndividualScope::ActiveDomain,
    })
}

pub fn run(args: PredictArgs) -> anyhow::Result<()> {
    let scope = scope_for(&args.kb, args.individuals.as_deref())?;
    let kb = kb_source::open_kb(&args.kb, None, scope)?;
    let loaded = model_file::load(&args.model, &kb)?;
    let individuals = selected(&kb, args.individuals.as_deref(), args.class.as_deref())?;
    let sig = kb.signature();
    // Every individual the oracle answers for has an IRI; one without would be printed as
    // an empty name, so it is an error.
    let iri = |p: &Prediction| -> anyhow::Result<String> {
        sig.individual_iri(p.individual)
            .map(|i| i.as_str().to_owned())
            .with_context(|| format!("individual {:?} has no IRI in the KB", p.individual))
    };
    let model = loaded.model.as_ref();
    if args.json {
        let predictions = model
            .predict(kb.oracle(), &individuals)?
            .into_iter()
            .map(|p| {
                Ok(PredictionJson {
                    individual: iri(&p)?,
                    prediction: p,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        return print_json(&PredictJson {
            model: ModelJson {
                algorithm: loaded.header.algorithm.clone(),
                problem: loaded.header.problem.clone(),
                signature_fingerprint: loaded.header.signature_fingerprint.clone(),
                description: model.describe(kb.vocabulary()),
            },
            predictions,
        });
    }
    let ids: Vec<_> = individuals.iter().collect();
    for chunk in ids.chunks(CHUNK) {
        let part = IndividualSet::from_ids(individuals.universe(), chunk.iter().copied());
        // Asked over the chunk only, so the oracle's work streams with the output too.
        let predictions = model.predict_within(kb.oracle(), &part, &part)?;
        let mut out = std::io::stdout().lock();
        for p in &predictions {
            let mut line = format!(
                "{}\t{}",
                iri(p)?,
                if p.member { "member" } else { "non-member" }
            );
            if let Some(v) = p.probability {
                line.push_str(&format!("\tprobability {v:.4}"));
            } else if let Some(v) = p.score {
                line.push_str(&format!("\tscore {v:.4}"));
            }
            if let Some(v) = p.degree {
                line.push_str(&format!("\tdegree {v:.4}"));
            }
            if let Some(l) = &p.label {
                line.push_str(&format!("\tlabel {l}"));
            }
            writeln!(out, "{line}")?;
        }
        out.flush()?;
    }
    Ok(())
}
