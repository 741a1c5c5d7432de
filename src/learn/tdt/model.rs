//! The fitted tree models: one tree (`tdt`) or a forest (`trf`) over shared test concepts.
//! Prediction asks the oracle once per test concept (over the individuals asked about) and
//! routes each individual down every tree: a tree gives its leaf's class distribution, a
//! forest the share of its trees' votes. A binary model's class 0 is the positive class.

use serde::{Deserialize, Serialize};

use super::tree::{Node, Tree, argmax, distribution};
use crate::concept::{Concept, Vocabulary, parse, to_dl, to_manchester, to_manchester_full};
use crate::learn::{LearnError, Model, ModelLoader, Prediction, body_json, semantics_name};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics};

/// `tdt`'s and `trf`'s model.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeModel {
    /// `tdt` or `trf`.
    pub algorithm: &'static str,
    /// Class names; binary models have `["positive", "negative"]`.
    pub classes: Vec<String>,
    pub binary: bool,
    pub tests: Vec<Concept>,
    pub trees: Vec<Tree>,
    pub semantics: Semantics,
    /// Binary trees: the class expression of the positive decisions ([`Tree::paths_to`]).
    pub exported: Option<Concept>,
}

/// The binary positive class.
pub const POSITIVE: usize = 0;

fn positive_leaf(counts: &[f64]) -> bool {
    argmax(counts) == POSITIVE
}

impl TreeModel {
    /// A model over the tests the trees use (others dropped, indices remapped).
    pub fn new(
        algorithm: &'static str,
        classes: Vec<String>,
        binary: bool,
        tests: &[Concept],
        trees: Vec<Tree>,
        semantics: Semantics,
    ) -> Self {
        let mut used: Vec<usize> = trees.iter().flat_map(Tree::tests).collect();
        used.sort_unstable();
        used.dedup();
        let trees: Vec<Tree> = trees
            .iter()
            .map(|t| t.remap(|i| used.binary_search(&i).unwrap_or(0)))
            .collect();
        let tests: Vec<Concept> = used.iter().map(|&i| tests[i].clone()).collect();
        let exported = (binary && trees.len() == 1)
            .then(|| crate::concept::normalize(&trees[0].paths_to(&tests, &positive_leaf)));
        TreeModel {
            algorithm,
            classes,
            binary,
            tests,
            trees,
            semantics,
            exported,
        }
    }

    /// Each individual of `individuals` (id order) with its class distribution.
    pub fn distributions(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, Vec<f64>)>, LearnError> {
        let among = among.union(individuals);
        let members = self
            .tests
            .iter()
            .map(|t| oracle.members(t, &among, self.semantics))
            .collect::<Result<Vec<_>, _>>()?;
        let k = self.classes.len();
        Ok(individuals
            .iter()
            .map(|id| {
                let passes = |t: usize| members[t].contains(id);
                let d = if self.trees.len() == 1 {
                    let t = &self.trees[0];
                    distribution(t.nodes[t.leaf(passes)].counts())
                } else {
                    let mut votes = vec![0.0; k];
                    for t in &self.trees {
                        votes[argmax(t.nodes[t.leaf(passes)].counts())] += 1.0;
                    }
                    distribution(&votes)
                };
                (id, d)
            })
            .collect())
    }

    fn tree_lines(
        &self,
        tree: &Tree,
        at: usize,
        indent: usize,
        v: &Vocabulary,
        out: &mut Vec<String>,
    ) {
        let pad = "  ".repeat(indent);
        match &tree.nodes[at] {
            Node::Leaf { counts } => {
                let c = argmax(counts);
                let n: f64 = counts.iter().sum();
                out.push(format!("{pad}→ {} ({}/{n})", self.classes[c], counts[c]));
            }
            Node::Split { test, yes, no, .. } => {
                out.push(format!("{pad}if {}:", to_manchester(&self.tests[*test], v)));
                self.tree_lines(tree, *yes, indent + 1, v, out);
                out.push(format!("{pad}else:"));
                self.tree_lines(tree, *no, indent + 1, v, out);
            }
        }
    }
}

impl Model for TreeModel {
    fn algorithm(&self) -> &'static str {
        self.algorithm
    }

    /// A binary tree under closed-world semantics is its exported class expression.
    fn concept(&self) -> Option<&Concept> {
        self.exported
            .as_ref()
            .filter(|_| self.semantics == Semantics::Closed)
    }

    fn describe(&self, v: &Vocabulary) -> String {
        let nodes: usize = self.trees.iter().map(|t| t.nodes.len()).sum();
        let mut out = vec![format!(
            "terminological {} of {} tree(s), {nodes} nodes, {} test concepts; classes {}",
            if self.trees.len() == 1 {
                "decision tree"
            } else {
                "random forest"
            },
            self.trees.len(),
            self.tests.len(),
            self.classes.join(", ")
        )];
        if let Some(c) = &self.exported {
            out.push(format!("positive decisions: {}", to_manchester(c, v)));
            out.push(format!("  (DL: {})", to_dl(c, v)));
        }
        if self.trees.len() == 1 {
            self.tree_lines(&self.trees[0], 0, 0, v, &mut out);
        }
        out.join("\n")
    }

    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        Ok(self
            .distributions(oracle, individuals, among)?
            .into_iter()
            .map(|(id, d)| {
                let c = argmax(&d);
                if self.binary {
                    Prediction {
                        probability: Some(d[POSITIVE]),
                        ..Prediction::member(id, c == POSITIVE)
                    }
                } else {
                    Prediction {
                        probability: Some(d[c]),
                        label: Some(self.classes[c].clone()),
                        distribution: Some(self.classes.iter().cloned().zip(d).collect()),
                        // Every individual gets a class.
                        ..Prediction::member(id, true)
                    }
                }
            })
            .collect())
    }

    fn is_scored(&self) -> bool {
        true
    }

    /// Binary models: the union of the paths to leaves that can vote positive (with
    /// `threshold`, for a single tree, those whose probability reaches it).
    fn support(&self, threshold: Option<f64>) -> Option<Concept> {
        if !self.binary
            || self.semantics != Semantics::Closed
            || threshold.is_some_and(|t| t <= 0.0)
        {
            return None;
        }
        let single = self.trees.len() == 1;
        let keep = |counts: &[f64]| match threshold {
            Some(t) if single => distribution(counts)[POSITIVE] >= t,
            _ => positive_leaf(counts),
        };
        let paths: Vec<Concept> = self
            .trees
            .iter()
            .map(|t| t.paths_to(&self.tests, &keep))
            .collect();
        Some(crate::concept::normalize(&Concept::Or(paths)))
    }

    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        Some(self.tests.clone())
    }

    fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// Any semantics: tests are class expressions; the exported expression stands for the
    /// tree only under closed-world semantics ([`Model::concept`] says `None` otherwise).
    fn with_semantics(&self, semantics: Semantics) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(TreeModel {
            semantics,
            ..self.clone()
        }))
    }

    fn body(&self) -> Result<serde_json::Value, LearnError> {
        let body = Body {
            classes: self.classes.clone(),
            binary: self.binary,
            semantics: semantics_name(self.semantics).to_owned(),
            tests: self.tests.iter().map(to_manchester_full).collect(),
            trees: self.trees.clone(),
        };
        let numbers = self
            .trees
            .iter()
            .flat_map(|t| t.nodes.iter().flat_map(|n| n.counts().to_vec()))
            .collect::<Vec<_>>();
        body_json(&body, &format!("the {} model", self.algorithm), numbers)
    }
}

#[derive(Serialize, Deserialize)]
struct Body {
    classes: Vec<String>,
    binary: bool,
    semantics: String,
    tests: Vec<String>,
    trees: Vec<Tree>,
}

/// Reads `tdt` or `trf` model bodies, checking every index (children after their parent,
/// so a tree cannot loop).
pub(crate) struct TreeModelLoader(pub &'static str);

impl ModelLoader for TreeModelLoader {
    fn algorithm(&self) -> &'static str {
        self.0
    }

    fn load(&self, body: &serde_json::Value, v: &Vocabulary) -> Result<Box<dyn Model>, LearnError> {
        let bad = |m: String| LearnError::ModelFormat(format!("{} model: {m}", self.0));
        let b: Body = serde_json::from_value(body.clone()).map_err(|e| bad(e.to_string()))?;
        let semantics = match b.semantics.as_str() {
            "closed" => Semantics::Closed,
            "open" => Semantics::Open,
            s => return Err(bad(format!("unknown semantics {s:?}"))),
        };
        if b.classes.len() < 2 || (b.binary && b.classes.len() != 2) {
            return Err(bad(format!("{} classes", b.classes.len())));
        }
        if b.trees.is_empty() {
            return Err(bad("no trees".to_owned()));
        }
        let tests = b
            .tests
            .iter()
            .enumerate()
            .map(|(i, t)| {
                parse(t, v)
                    .map(|c| crate::concept::normalize(&c))
                    .map_err(|e| bad(format!("test {}: concept `{t}`: {e}", i + 1)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        for (k, tree) in b.trees.iter().enumerate() {
            check_tree(tree, tests.len(), b.classes.len())
                .map_err(|m| bad(format!("tree {}: {m}", k + 1)))?;
        }
        Ok(Box::new(TreeModel::new(
            self.0, b.classes, b.binary, &tests, b.trees, semantics,
        )))
    }
}

fn check_tree(tree: &Tree, tests: usize, classes: usize) -> Result<(), String> {
    if tree.nodes.is_empty() {
        return Err("no nodes".to_owned());
    }
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.counts().len() != classes || n.counts().iter().any(|c| !c.is_finite() || *c < 0.0) {
            return Err(format!(
                "node {i}: counts must be {classes} non-negative numbers"
            ));
        }
        if let Node::Split { test, yes, no, .. } = n {
            if *test >= tests {
                return Err(format!("node {i}: test {test}, but there are {tests}"));
            }
            if *yes <= i || *no <= i || *yes >= tree.nodes.len() || *no >= tree.nodes.len() {
                return Err(format!("node {i}: children {yes}, {no} must follow it"));
            }
        }
    }
    Ok(())
}
