//! The reusable parts of a refinement search: budgets and termination, the search tree with
//! its node scores, batch evaluation of candidates, and the set of best solutions. CELOE
//! uses them with one tree; Forest Mixing will use several trees over the same parts.

mod budget;
mod evaluate;
mod heuristic;
mod solutions;
mod tree;

pub use budget::{Budget, BudgetClock, Termination};
pub use evaluate::{Evaluated, Evaluator};
pub use heuristic::OeHeuristic;
pub use solutions::BestSolutions;
pub use tree::{NodeId, SearchNode, SearchTree};
