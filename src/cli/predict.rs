//! `oxilearn predict`: apply a saved model to individuals of a KB (files or an endpoint),
//! page by page at the cost of the answer: the instances of `--scope`, the answers of
//! `--scope-query`, the examples of `--individuals`, every individual with `--whole-kb`, or
//! by default the model's own support (see [`super::apply_scope`]). Text output is a line
//! per individual, printed as each page is answered; `--json` is one document `{model,
//! predictions: [{individual, member, score?, probability?, interval?, degree?, label?}]}`
//! with individuals as full IRIs, streamed the same way. Individuals come in IRI order.

use std::io::Write;

use oxigraph::model::NamedNode;
use serde::Serialize;

use super::apply_scope;
use super::args::PredictArgs;
use super::model_file;
use crate::enrich::EnrichError;
use crate::enrich::apply::{ApplyOptions, apply_paged};
use crate::learn::Prediction;
use crate::oracle::MembershipOracle;

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

pub fn run(args: PredictArgs) -> anyhow::Result<()> {
    let kb = apply_scope::open(&args.kb, &args.apply)?;
    let loaded = model_file::load(&args.model, &kb)?;
    let model = loaded.model.as_ref();
    let whole_kb = args.kb.whole_kb || args.all;
    let candidates = apply_scope::candidates(&kb, &args.apply, whole_kb, model, None)?;
    let cancel = super::learner::cancel_flag();
    let bar =
        apply_scope::progress_bar(apply_scope::estimated_total(&kb, &candidates), "predicting");
    let progress = |done: usize| bar.set_position(done as u64);
    let options = ApplyOptions {
        page_size: apply_scope::page_size(&args.kb, &args.apply),
        store_page_size: args.apply.store_page_size.max(1),
        deadline: apply_scope::deadline(&args.apply)?,
        cancel: Some(&cancel),
        progress: &progress,
    };
    kb.oracle().set_deadline(options.deadline);
    let mut out = std::io::stdout().lock();
    let mut writer = if args.json {
        let header = ModelJson {
            algorithm: loaded.header.algorithm.clone(),
            problem: loaded.header.problem.clone(),
            signature_fingerprint: loaded.header.signature_fingerprint.clone(),
            description: model.describe(kb.vocabulary()),
        };
        write!(
            out,
            "{{\"model\":{},\"predictions\":[",
            serde_json::to_string(&header)?
        )?;
        Output::Json { first: true }
    } else {
        Output::Text
    };
    let result = apply_paged(&kb, model, &candidates, &options, &mut |page| {
        writer.page(&mut out, page).map_err(|e| EnrichError::File {
            path: "standard output".into(),
            message: e.to_string(),
        })
    });
    bar.finish_and_clear();
    // A run that failed half way leaves its JSON unclosed: never mistaken for a whole answer.
    result?;
    if args.json {
        writeln!(out, "]}}")?;
    }
    out.flush()?;
    Ok(())
}

/// How predictions are printed: a line each, or the `predictions` array of one document.
enum Output {
    Text,
    Json { first: bool },
}

impl Output {
    fn page(
        &mut self,
        out: &mut impl Write,
        page: Vec<(NamedNode, Prediction)>,
    ) -> std::io::Result<()> {
        for (iri, p) in page {
            match self {
                Output::Json { first } => {
                    let item = PredictionJson {
                        individual: iri.into_string(),
                        prediction: p,
                    };
                    let text = serde_json::to_string(&item).map_err(std::io::Error::other)?;
                    write!(out, "{}{text}", if *first { "" } else { "," })?;
                    *first = false;
                }
                Output::Text => writeln!(out, "{}", text_line(iri.as_str(), &p))?,
            }
        }
        out.flush()
    }
}

/// `IRI\tmember|non-member` and the prediction's values.
fn text_line(iri: &str, p: &Prediction) -> String {
    let mut line = format!("{iri}\t{}", if p.member { "member" } else { "non-member" });
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
    line
}
