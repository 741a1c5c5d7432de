//! The reusable parts of a refinement search: the search tree with its node scores, batch
//! evaluation of candidates, the set of best solutions, mixing partial solutions, the
//! validation split and reporting. CELOE uses them with one tree, Forest Mixing with
//! several.

mod bound;
mod evaluate;
mod finish;
mod front;
mod heuristic;
mod idle;
mod mix_pool;
mod mixer;
pub mod neighbourhood;
mod ordered;
mod seen;
mod solutions;
mod supported_length;
mod tree;
mod validation;

pub use super::Termination;
pub use bound::{cannot_beat, optimistic_confusion, optimistic_quality};
pub use evaluate::{Evaluated, Evaluator};
pub use finish::{budget_stop, minimized, report_solutions};
pub use front::LengthFront;
pub use heuristic::OeHeuristic;
pub(crate) use idle::extends_conjunction;
pub use mixer::{MixLimits, Mixer};
pub use neighbourhood::NeighbourhoodLimits;
pub use seen::SeenConcepts;
pub use solutions::{BestSolutions, Candidate};
pub use tree::{NodeId, SearchNode, SearchTree};
pub use validation::{
    MIN_VALIDATION_PER_CLASS, SelectableRun, Selection, ValidationSplit, run_selected,
};
