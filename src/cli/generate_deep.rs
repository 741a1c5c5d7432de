//! `oxilearn generate-deep-problems`: large-signature problems with deep targets in a folder
//! (`kb.nt`; `train.json` and `test.json`, list JSON with one problem per target, matched by
//! name by `learn --test`; `meta.json` with each target in Manchester syntax). See
//! [`crate::problem::generate::deep`].

use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::Args;

use crate::problem::generate::deep::{self, DeepKb, DeepSpec};

#[derive(Debug, Args)]
pub struct DeepArgs {
    /// The folder to write (created if missing; its files are replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Named classes in the hierarchy.
    #[arg(long, value_name = "N", default_value_t = 1_200)]
    pub classes: usize,
    /// Object properties.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub properties: usize,
    /// Individuals in the KB.
    #[arg(long, value_name = "N", default_value_t = 6_000)]
    pub individuals: usize,
    /// Problems (shapes cycle: A ⊓ ∃r.∃s.(B ⊔ C), A ⊓ ∃r.(B ⊔ C), ∃r.∃s.B, A ⊓ ∃r.∃s.(B ⊔ C ⊔
    /// D), A ⊓ ∃r.B, …, A).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub problems: usize,
    /// Positive and negative examples per problem (each, training and test together).
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub examples: usize,
    /// Fraction of each side held out for `test.json`.
    #[arg(long, value_name = "F", default_value_t = 0.25)]
    pub test_fraction: f64,
}

pub fn run(args: DeepArgs) -> anyhow::Result<()> {
    let spec = DeepSpec {
        seed: args.seed,
        classes: args.classes,
        properties: args.properties,
        individuals: args.individuals,
        problems: args.problems,
        examples: args.examples,
        test_fraction: args.test_fraction,
    };
    let kb = deep::generate(&spec).map_err(|e| anyhow!("generate-deep-problems: {e}"))?;
    let dir = &args.out;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };
    write("kb.nt", kb.ntriples.clone())?;
    write("train.json", problems_json(&kb, |p| &p.train)?)?;
    write("test.json", problems_json(&kb, |p| &p.test)?)?;
    write("meta.json", meta_json(&kb, &spec)?)?;
    eprintln!(
        "{}: {} triples, {} problems",
        dir.display(),
        kb.triples,
        kb.problems.len()
    );
    Ok(())
}

type Side = (Vec<usize>, Vec<usize>);

/// List JSON, one problem per target, with one side of the split.
fn problems_json(
    kb: &DeepKb,
    side: impl Fn(&deep::DeepProblem) -> &Side,
) -> anyhow::Result<String> {
    let iris =
        |xs: &[usize]| -> Vec<String> { xs.iter().map(|x| deep::individual_iri(*x)).collect() };
    let list: Vec<serde_json::Value> = kb
        .problems
        .iter()
        .map(|p| {
            let (pos, neg) = side(p);
            serde_json::json!({"name": p.name, "positives": iris(pos), "negatives": iris(neg)})
        })
        .collect();
    Ok(serde_json::to_string_pretty(&list)? + "\n")
}

fn meta_json(kb: &DeepKb, spec: &DeepSpec) -> anyhow::Result<String> {
    let problems: Vec<serde_json::Value> = kb
        .problems
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.name,
                "shape": format!("{:?}", p.shape),
                "target": p.target.manchester(),
                "instances_in_kb": p.instances,
            })
        })
        .collect();
    let meta = serde_json::json!({
        "namespace": deep::NS,
        "seed": spec.seed,
        "classes": spec.classes,
        "properties": spec.properties,
        "individuals": spec.individuals,
        "triples": kb.triples,
        "problems": problems,
    });
    Ok(serde_json::to_string_pretty(&meta)? + "\n")
}
