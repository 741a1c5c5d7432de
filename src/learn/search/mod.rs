//! The reusable parts of a refinement search: the search tree with its node scores, batch evaluation of candidates, and the set of best solutions. CELOE
//! uses them with one tree; Forest Mixing will use several trees over the same parts.

mod bound;
mod evaluate;
mod front;
mod heuristic;
mod ordered;
mod seen;
mod solutions;
mod tree;

pub use super::Termination;
pub use bound::{cannot_beat, optimistic_confusion, optimistic_quality};
pub use evaluate::{Evaluated, Evaluator};
pub use front::LengthFront;
pub use heuristic::OeHeuristic;
pub use seen::SeenConcepts;
pub use solutions::{BestSolutions, Candidate};
pub use tree::{NodeId, SearchNode, SearchTree};
