//! The fitted cluster tree as a [`Model`]: it assigns any individual to a cluster by
//! projecting it on the saved committee and walking down the tree to the nearer medoid at
//! every split (the rule training individuals were routed by), so it predicts on other
//! individuals and other data over the same schema, without the learner. Medoids are kept
//! as their IRIs *and* projections, so prediction never needs the training individuals.

use serde::{Deserialize, Serialize};

use super::distance::Metric;
use super::projection::Projections;
use crate::concept::{
    Concept, Iri, Vocabulary, normalize, parse, to_manchester, to_manchester_full,
};
use crate::learn::{LearnError, Model, ModelLoader, Prediction, body_json};
use crate::oracle::{IndividualSet, MembershipOracle, Semantics};

/// A representative individual with its projections on the committee.
#[derive(Clone, Debug, PartialEq)]
pub struct Medoid {
    pub iri: Iri,
    pub projection: Vec<f64>,
}

/// A node of the tree. Every node's `concept` describes the individuals routed to it: the
/// tests along its path, negated on right branches, normalised.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeNode {
    Leaf {
        /// The cluster's number (leaves left to right, from 0).
        cluster: usize,
        concept: Concept,
        /// Training individuals in the cluster.
        size: usize,
        medoid: Medoid,
    },
    Split {
        concept: Concept,
        /// The test `E` installed here: left = the side of the medoid of `E`'s instances.
        test: Concept,
        size: usize,
        /// The medoid of the instances of `E` (P), and of `¬E` (N).
        left_medoid: Medoid,
        right_medoid: Medoid,
        /// `d_p` between the two medoids.
        distance: f64,
        left: Box<TreeNode>,
        right: Box<TreeNode>,
    },
}

impl TreeNode {
    pub fn concept(&self) -> &Concept {
        match self {
            TreeNode::Leaf { concept, .. } | TreeNode::Split { concept, .. } => concept,
        }
    }

    pub fn size(&self) -> usize {
        match self {
            TreeNode::Leaf { size, .. } | TreeNode::Split { size, .. } => *size,
        }
    }

    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<&TreeNode> {
        let mut out = Vec::new();
        self.visit(&mut |n| {
            if matches!(n, TreeNode::Leaf { .. }) {
                out.push(n);
            }
        });
        out
    }

    /// Pre-order walk.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a TreeNode)) {
        f(self);
        if let TreeNode::Split { left, right, .. } = self {
            left.visit(f);
            right.visit(f);
        }
    }

    /// The cluster of an individual with projections `x`.
    pub fn route(&self, metric: Metric, x: &[f64]) -> usize {
        let mut node = self;
        loop {
            match node {
                TreeNode::Leaf { cluster, .. } => return *cluster,
                TreeNode::Split {
                    left_medoid,
                    right_medoid,
                    left,
                    right,
                    ..
                } => {
                    let l = metric.distance(x, &left_medoid.projection);
                    let r = metric.distance(x, &right_medoid.projection);
                    node = if l <= r { left } else { right };
                }
            }
        }
    }
}

/// A terminological cluster tree: the committee, `p`, the unknowns' values and the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterModel {
    pub p: f64,
    pub committee: Vec<Concept>,
    /// The projection of an unknown membership, per committee feature.
    pub unknown: Vec<f64>,
    pub root: TreeNode,
}

/// The name of cluster `k` in predictions and text output.
pub fn cluster_name(k: usize) -> String {
    format!("cluster{k}")
}

impl ClusterModel {
    pub fn metric(&self) -> Metric {
        Metric::new(self.p)
    }

    pub fn clusters(&self) -> usize {
        self.root.leaves().len()
    }

    /// The cluster of every individual of `individuals` (in id order), asking the oracle
    /// for the committee's truth sets over `among`.
    pub fn assign(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<usize>, LearnError> {
        let among = among.union(individuals);
        let truths = self
            .committee
            .iter()
            .map(|f| oracle.truth(f, &among))
            .collect::<Result<Vec<_>, _>>()?;
        let ids: Vec<_> = individuals.iter().collect();
        let proj = Projections::with_unknown(&ids, &truths, self.unknown.clone());
        let metric = self.metric();
        Ok((0..proj.len())
            .map(|r| self.root.route(metric, proj.row(r)))
            .collect())
    }

    fn from_body(body: &serde_json::Value, vocabulary: &Vocabulary) -> Result<Self, LearnError> {
        let b: Body = serde_json::from_value(body.clone())
            .map_err(|e| LearnError::ModelFormat(format!("cluster model: {e}")))?;
        let concept = |text: &str| -> Result<Concept, LearnError> {
            parse(text, vocabulary)
                .map(|c| normalize(&c))
                .map_err(|e| LearnError::ModelFormat(format!("cluster model: `{text}`: {e}")))
        };
        let committee = b
            .committee
            .iter()
            .map(|t| concept(t))
            .collect::<Result<Vec<_>, _>>()?;
        let m = committee.len();
        if b.unknown.len() != m {
            return Err(LearnError::ModelFormat(format!(
                "cluster model: {} unknown values for {m} committee features",
                b.unknown.len()
            )));
        }
        let root = node_from_body(&b.tree, m, &concept)?;
        let model = ClusterModel {
            p: b.p,
            committee,
            unknown: b.unknown,
            root,
        };
        if !(model.p.is_finite() && model.p >= 1.0) {
            return Err(LearnError::ModelFormat(format!(
                "cluster model: p = {} is not a number ≥ 1",
                model.p
            )));
        }
        Ok(model)
    }

    fn numbers(&self) -> Vec<f64> {
        let mut out = vec![self.p];
        out.extend(&self.unknown);
        self.root.visit(&mut |n| match n {
            TreeNode::Leaf { medoid, .. } => out.extend(&medoid.projection),
            TreeNode::Split {
                left_medoid,
                right_medoid,
                distance,
                ..
            } => {
                out.push(*distance);
                out.extend(&left_medoid.projection);
                out.extend(&right_medoid.projection);
            }
        });
        out
    }
}

#[derive(Serialize, Deserialize)]
struct MedoidBody {
    iri: String,
    projection: Vec<f64>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum NodeBody {
    Leaf {
        cluster: usize,
        concept: String,
        size: usize,
        medoid: MedoidBody,
    },
    Split {
        concept: String,
        test: String,
        size: usize,
        left_medoid: MedoidBody,
        right_medoid: MedoidBody,
        distance: f64,
        left: Box<NodeBody>,
        right: Box<NodeBody>,
    },
}

#[derive(Serialize, Deserialize)]
struct Body {
    semantics: String,
    p: f64,
    committee: Vec<String>,
    unknown: Vec<f64>,
    tree: NodeBody,
}

fn medoid_body(m: &Medoid) -> MedoidBody {
    MedoidBody {
        iri: m.iri.as_str().to_owned(),
        projection: m.projection.clone(),
    }
}

fn node_body(n: &TreeNode) -> NodeBody {
    match n {
        TreeNode::Leaf {
            cluster,
            concept,
            size,
            medoid,
        } => NodeBody::Leaf {
            cluster: *cluster,
            concept: to_manchester_full(concept),
            size: *size,
            medoid: medoid_body(medoid),
        },
        TreeNode::Split {
            concept,
            test,
            size,
            left_medoid,
            right_medoid,
            distance,
            left,
            right,
        } => NodeBody::Split {
            concept: to_manchester_full(concept),
            test: to_manchester_full(test),
            size: *size,
            left_medoid: medoid_body(left_medoid),
            right_medoid: medoid_body(right_medoid),
            distance: *distance,
            left: Box::new(node_body(left)),
            right: Box::new(node_body(right)),
        },
    }
}

fn medoid_from_body(b: &MedoidBody, m: usize) -> Result<Medoid, LearnError> {
    if b.projection.len() != m {
        return Err(LearnError::ModelFormat(format!(
            "cluster model: the medoid {} has {} projections for {m} committee features",
            b.iri,
            b.projection.len()
        )));
    }
    Ok(Medoid {
        iri: Iri::new(b.iri.as_str()),
        projection: b.projection.clone(),
    })
}

fn node_from_body(
    b: &NodeBody,
    m: usize,
    concept: &dyn Fn(&str) -> Result<Concept, LearnError>,
) -> Result<TreeNode, LearnError> {
    Ok(match b {
        NodeBody::Leaf {
            cluster,
            concept: c,
            size,
            medoid,
        } => TreeNode::Leaf {
            cluster: *cluster,
            concept: concept(c)?,
            size: *size,
            medoid: medoid_from_body(medoid, m)?,
        },
        NodeBody::Split {
            concept: c,
            test,
            size,
            left_medoid,
            right_medoid,
            distance,
            left,
            right,
        } => TreeNode::Split {
            concept: concept(c)?,
            test: concept(test)?,
            size: *size,
            left_medoid: medoid_from_body(left_medoid, m)?,
            right_medoid: medoid_from_body(right_medoid, m)?,
            distance: *distance,
            left: Box::new(node_from_body(left, m, concept)?),
            right: Box::new(node_from_body(right, m, concept)?),
        },
    })
}

impl Model for ClusterModel {
    fn algorithm(&self) -> &'static str {
        "cluster"
    }

    fn concept(&self) -> Option<&Concept> {
        None
    }

    fn describe(&self, vocabulary: &Vocabulary) -> String {
        let mut out = format!(
            "terminological cluster tree: {} clusters, committee of {} features, d_{}",
            self.clusters(),
            self.committee.len(),
            self.p
        );
        for leaf in self.root.leaves() {
            if let TreeNode::Leaf {
                cluster,
                concept,
                size,
                ..
            } = leaf
            {
                out.push_str(&format!(
                    "\n{}  ({size} training individuals): {}",
                    cluster_name(*cluster),
                    to_manchester(concept, vocabulary)
                ));
            }
        }
        out
    }

    /// Every individual is a member of its cluster: `label` names the cluster.
    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        let clusters = self.assign(oracle, individuals, among)?;
        Ok(individuals
            .iter()
            .zip(clusters)
            .map(|(id, k)| Prediction {
                label: Some(cluster_name(k)),
                ..Prediction::member(id, true)
            })
            .collect())
    }

    fn is_scored(&self) -> bool {
        false
    }

    /// The committee (an individual's projections) and every node's concept and test.
    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        let mut out = self.committee.clone();
        self.root.visit(&mut |n| {
            out.push(n.concept().clone());
            if let TreeNode::Split { test, .. } = n {
                out.push(test.clone());
            }
        });
        Some(out)
    }

    fn semantics(&self) -> Semantics {
        Semantics::Open
    }

    /// Projections are three-valued by definition: only the open world fits.
    fn with_semantics(&self, semantics: Semantics) -> Result<Box<dyn Model>, LearnError> {
        match semantics {
            Semantics::Open => Ok(Box::new(self.clone())),
            Semantics::Closed => Err(LearnError::SemanticsMismatch {
                algorithm: "cluster",
                trained: "open",
                requested: "closed",
            }),
        }
    }

    fn body(&self) -> Result<serde_json::Value, LearnError> {
        let body = Body {
            semantics: "open".to_owned(),
            p: self.p,
            committee: self.committee.iter().map(to_manchester_full).collect(),
            unknown: self.unknown.clone(),
            tree: node_body(&self.root),
        };
        body_json(&body, "the cluster model", self.numbers())
    }
}

/// Reads the cluster model's body.
pub(crate) struct ClusterModelLoader;

impl ModelLoader for ClusterModelLoader {
    fn algorithm(&self) -> &'static str {
        "cluster"
    }

    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(ClusterModel::from_body(body, vocabulary)?))
    }
}
