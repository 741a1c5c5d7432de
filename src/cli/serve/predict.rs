//! `POST /predict`: `{"model": NAME, "individuals": [IRI, …]}` (without `individuals`: every
//! individual of the KB, listed by the store) → the document of `predict --json`
//! (`{model, predictions}`), sorted by IRI. The model is applied page by page over the
//! IRIs, so the cost is that of the individuals asked about.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use std::collections::BTreeSet;

use oxigraph::model::{NamedNode, Term};
use spargebra::term::GroundTerm;

use super::super::predict::{ModelJson, PredictJson, PredictionJson};
use super::State as ServeState;
use super::error::{ApiError, blocking};
use crate::concept::Iri;
use crate::oracle::sparql::{fill_values, fixed_query};
use crate::sparql_functions::{FunctionError, SparqlFunctions};

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

/// Individuals per page the model is applied to (a page oracle's `VALUES` chunks).
const PAGE: usize = 1000;

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
    let individuals = match &request.individuals {
        None => every_individual(functions)?,
        Some(iris) => {
            // Checked as IRIs first: a `>`, quote or newline never reaches a query.
            for (i, iri) in iris.iter().enumerate() {
                NamedNode::new(iri.as_str()).map_err(|e| {
                    ApiError::bad_request(format!("individuals[{i}] {iri:?} is not an IRI: {e}"))
                })?;
            }
            let refs: Vec<&str> = iris.iter().map(String::as_str).collect();
            let known = functions.individuals(&refs).map_err(store_error)?;
            let unknown: Vec<&str> = refs
                .iter()
                .zip(&known)
                .filter(|(_, k)| !**k)
                .map(|(i, _)| *i)
                .collect();
            if !unknown.is_empty() {
                return Err(ApiError::bad_request(format!(
                    "{} of the individuals are not individuals of the KB: {}",
                    unknown.len(),
                    unknown.join(", ")
                )));
            }
            let mut iris: Vec<Iri> = refs.into_iter().map(Iri::new).collect();
            iris.sort();
            iris.dedup();
            iris
        }
    };
    let mut predictions = Vec::with_capacity(individuals.len());
    for page in individuals.chunks(PAGE) {
        let page = kb.page(page.to_vec());
        for (iri, prediction) in page
            .predict(model.as_ref())
            .map_err(|e| ApiError::internal(&anyhow::Error::from(e).context("predicting")))?
        {
            predictions.push(PredictionJson {
                individual: iri.into_string(),
                prediction,
            });
        }
    }
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

/// Every individual of the KB, sorted by IRI: what a request without `individuals` asks
/// for by name. The store lists the typed ones and the ends of object-property assertions
/// (as a KB over the whole active domain interns them); the functions' check then drops
/// schema entities, so `/predict` answers for exactly the IRIs the functions answer for.
fn every_individual(functions: &SparqlFunctions) -> Result<Vec<Iri>, ApiError> {
    let kb = functions.knowledge_base();
    let backend = kb.oracle().inner().backend();
    let mut candidates: BTreeSet<String> = BTreeSet::new();
    let mut collect = |query: &spargebra::Query| -> Result<(), ApiError> {
        let table = backend
            .select(query)
            .map_err(|e| store_error(FunctionError::Oracle(e.to_string())))?;
        candidates.extend(table.column_values("x").filter_map(|t| match t {
            Term::NamedNode(n) => Some(n.as_str().to_owned()),
            _ => None,
        }));
        Ok(())
    };
    let fixed = |name: &str| {
        fixed_query(name).map_err(|e| store_error(FunctionError::Oracle(e.to_string())))
    };
    collect(&fixed("typed_individuals")?)?;
    let roles: Vec<GroundTerm> = kb
        .signature()
        .object_properties
        .keys()
        .map(|p| GroundTerm::NamedNode(NamedNode::new_unchecked(p.as_str())))
        .collect();
    if !roles.is_empty() {
        let mut query = fixed("role_individuals")?;
        fill_values(&mut query, "p", roles)
            .map_err(|e| store_error(FunctionError::Oracle(e.to_string())))?;
        collect(&query)?;
    }
    let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
    let known = functions.individuals(&candidates).map_err(store_error)?;
    Ok(candidates
        .into_iter()
        .zip(known)
        .filter(|(_, k)| *k)
        .map(|(i, _)| Iri::new(i))
        .collect())
}

fn store_error(e: FunctionError) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

fn names(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}
