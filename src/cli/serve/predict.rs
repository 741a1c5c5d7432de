//! `POST /predict`: `{"model": NAME, "individuals": [IRI, …]}` (without `individuals`: every
//! individual of the KB) → the document of `predict --json` (`{model, predictions}`).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::super::predict::{ModelJson, PredictJson, PredictionJson};
use super::State as ServeState;
use super::error::{ApiError, blocking};
use crate::oracle::IndividualSet;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PredictRequest {
    model: String,
    individuals: Option<Vec<String>>,
}

pub async fn post(
    State(state): State<Arc<ServeState>>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let result = async {
        let body = body.map_err(|r| ApiError::from_rejection(r.status(), r.body_text()))?;
        let request: PredictRequest = serde_json::from_slice(&body).map_err(|e| {
            ApiError::bad_request(format!(
                "the body must be {{\"model\": NAME, \"individuals\": [IRI, …]}}: {e}"
            ))
        })?;
        let limit = state.query_timeout;
        let text = blocking(limit, "the prediction", None, move || {
            predict(&state, request)
        })
        .await?;
        Ok::<_, ApiError>(([(CONTENT_TYPE, "application/json")], text).into_response())
    }
    .await;
    result.unwrap_or_else(IntoResponse::into_response)
}

fn predict(state: &ServeState, request: PredictRequest) -> Result<String, ApiError> {
    let loaded = state.loaded();
    let functions = &loaded.functions;
    let (Some(model), Some(header)) = (
        functions.model(&request.model),
        loaded.headers.get(&request.model),
    ) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no model named {:?} is loaded (loaded: {})",
                request.model,
                names(&functions.model_names())
            ),
        ));
    };
    let kb = functions.knowledge_base();
    let sig = kb.signature();
    let individuals = match &request.individuals {
        None => sig.all_individuals(),
        Some(iris) => {
            let unknown: Vec<&str> = iris
                .iter()
                .filter(|i| sig.individual_id(i).is_none())
                .map(String::as_str)
                .collect();
            if !unknown.is_empty() {
                return Err(ApiError::bad_request(format!(
                    "{} of the individuals are not individuals of the KB: {}",
                    unknown.len(),
                    unknown.join(", ")
                )));
            }
            IndividualSet::from_ids(
                sig.individual_count(),
                iris.iter().filter_map(|i| sig.individual_id(i)),
            )
        }
    };
    let predictions = model
        .predict(kb.oracle(), &individuals)
        .map_err(|e| ApiError::internal(&anyhow::Error::from(e).context("predicting")))?
        .into_iter()
        .map(|p| PredictionJson {
            individual: sig
                .individual_iri(p.individual)
                .map(|i| i.as_str().to_owned())
                .unwrap_or_default(),
            prediction: p,
        })
        .collect();
    let doc = PredictJson {
        model: ModelJson {
            algorithm: header.algorithm.clone(),
            problem: header.problem.clone(),
            signature_fingerprint: header.signature_fingerprint.clone(),
            description: model.describe(kb.vocabulary()),
        },
        predictions,
    };
    serde_json::to_string_pretty(&doc)
        .map_err(|e| ApiError::internal(&anyhow::Error::from(e).context("writing the predictions")))
}

fn names(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}
