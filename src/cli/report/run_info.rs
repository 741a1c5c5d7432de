//! What the report's problem summary says about a run that its result does not: the
//! oxilearn version and command line, the KB and backend, the signature's size and the
//! budget. Learner commands add it to their JSON as `run` (an additive field), so a report
//! built later from the saved JSON says the same.

use serde::Serialize;

use crate::KnowledgeBase;
use crate::cli::learners::LearnArgs;
use crate::cli::options::KbArgs;

#[derive(Debug, Clone, Serialize)]
pub struct RunInfo {
    pub oxilearn_version: &'static str,
    /// The arguments as given, joined by spaces.
    pub command_line: String,
    /// The KB files, or the endpoint's URL.
    pub kb: Vec<String>,
    /// `embedded` or `endpoint`.
    pub backend: &'static str,
    pub signature: SignatureSize,
    /// `--max-tests` (`null`: none).
    pub max_tests: Option<u64>,
    /// `--max-runtime` in seconds (`null`: none).
    pub max_runtime_s: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SignatureSize {
    pub classes: usize,
    pub object_properties: usize,
    pub data_properties: usize,
    pub individuals: usize,
}

/// The command line of this process (arguments after the program's name).
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("oxilearn {}", args.join(" "))
}

impl RunInfo {
    pub fn of(kb_args: &KbArgs, kb: &KnowledgeBase, args: &LearnArgs) -> Self {
        let sig = kb.signature();
        let (kb_list, backend) = match &kb_args.endpoint {
            Some(url) => (vec![url.clone()], "endpoint"),
            None => (
                kb_args.kb.iter().map(|p| p.display().to_string()).collect(),
                "embedded",
            ),
        };
        RunInfo {
            oxilearn_version: env!("CARGO_PKG_VERSION"),
            command_line: command_line(),
            kb: kb_list,
            backend,
            signature: SignatureSize {
                classes: sig.classes.len(),
                object_properties: sig.object_properties.len(),
                data_properties: sig.data_properties.len(),
                individuals: sig.individuals.len(),
            },
            max_tests: args.search.max_tests,
            max_runtime_s: (args.search.max_runtime > 0.0).then_some(args.search.max_runtime),
        }
    }
}
