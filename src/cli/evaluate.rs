//! `oxilearn evaluate`: score one concept on learning problems.

use serde::Serialize;

use super::args::EvaluateArgs;
use super::kb_source::{self, Session};
use super::print_json;
use super::problems::{example_sets, fallback_kb, load_selected};
use crate::concept::Concept;
use crate::eval::Confusion;
use crate::oracle::{MembershipOracle, Semantics};
use crate::problem::LearningProblem;

/// The documented JSON shape, one object per problem (names are stable).
#[derive(Serialize)]
struct EvaluationJson {
    problem: String,
    concept: String,
    dl: String,
    semantics: Semantics,
    #[serde(flatten)]
    confusion: Confusion,
    accuracy: f64,
    precision: f64,
    recall: f64,
    f1: f64,
    positives: usize,
    negatives: usize,
    /// Open world only: examples whose membership is unknown (counted as not covered).
    #[serde(skip_serializing_if = "Option::is_none")]
    unknown: Option<usize>,
}

fn evaluate_one(
    session: &Session,
    p: &LearningProblem,
    concept: &Concept,
    semantics: Semantics,
) -> anyhow::Result<EvaluationJson> {
    let (pos, neg) = example_sets(session, p)?;
    let among = pos.union(&neg);
    let (covered, unknown) = match semantics {
        Semantics::Closed => (session.oracle.covered(concept, &among)?, None),
        Semantics::Open => {
            let t = session.oracle.truth(concept, &among)?;
            let unknown = t.unknown(&among).len();
            (t.true_set, Some(unknown))
        }
    };
    let confusion = Confusion::from_sets(&covered, &pos, &neg);
    Ok(EvaluationJson {
        problem: p.name.clone(),
        concept: session.manchester(concept),
        dl: session.dl(concept),
        semantics,
        confusion,
        accuracy: confusion.accuracy(),
        precision: confusion.precision(),
        recall: confusion.recall(),
        f1: confusion.f1(),
        positives: pos.len(),
        negatives: neg.len(),
        unknown,
    })
}

pub fn run(args: EvaluateArgs) -> anyhow::Result<()> {
    let problems = load_selected(&args.problems, &args.problem)?;
    let session = kb_source::open(&args.kb, fallback_kb(&problems))?;
    let concept = session.parse_concept(&args.concept)?;
    let semantics: Semantics = args.semantics.into();
    let results = problems
        .iter()
        .map(|p| evaluate_one(&session, p, &concept, semantics))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if args.json {
        return if results.len() == 1 {
            print_json(&results[0])
        } else {
            print_json(&results)
        };
    }
    outln!(
        "concept: {}",
        results.first().map_or("", |r| r.concept.as_str())
    );
    outln!(
        "{:<24} {:>5} {:>5} {:>5} {:>5} {:>8} {:>9} {:>7} {:>7}",
        "problem",
        "tp",
        "fp",
        "tn",
        "fn",
        "accuracy",
        "precision",
        "recall",
        "f1"
    );
    for r in &results {
        let c = r.confusion;
        outln!(
            "{:<24} {:>5} {:>5} {:>5} {:>5} {:>8.4} {:>9.4} {:>7.4} {:>7.4}",
            r.problem,
            c.tp,
            c.fp,
            c.tn,
            c.fn_,
            r.accuracy,
            r.precision,
            r.recall,
            r.f1
        );
    }
    Ok(())
}
