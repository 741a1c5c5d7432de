//! `oxilearn generate-node-problems`: a node-classification problem with a train/test split
//! in a folder (`kb.nt`, `train.tsv`/`test.tsv` for `--label-column class`, and for two
//! classes `train.json`/`test.json`; `meta.json` says how it was made). Either synthetic
//! (class decided by links to specific individuals and numeric thresholds, label noise,
//! imbalance) or, with `--from-kb` and `--label-property`, an existing KB labelled by a
//! property that the written KB leaves out.

use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::Args;

use crate::problem::generate::{Split, labelled, nodes, write_split};

#[derive(Debug, Args)]
pub struct NodeArgs {
    /// The folder to write (created if missing; its files are replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Synthetic: labelled entities.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub entities: usize,
    /// Synthetic: 2 (binary) to 5 classes.
    #[arg(long, value_name = "K", default_value_t = 2)]
    pub classes: usize,
    /// Synthetic: fraction of labels flipped, training and test alike.
    #[arg(long, value_name = "F", default_value_t = 0.2)]
    pub noise: f64,
    /// Synthetic: largest over smallest class prior.
    #[arg(long, value_name = "R", default_value_t = 3.0)]
    pub imbalance: f64,
    /// Synthetic binary: the target's template, 0–4 (two projects; topic and score; place
    /// or age; funded project; a known person's project); default: the seed's.
    #[arg(long, value_name = "N")]
    pub rule: Option<usize>,
    /// Fraction of each class held out for the test files.
    #[arg(long, value_name = "F", default_value_t = 0.25)]
    pub test_fraction: f64,
    /// Label the subjects of --label-property in this KB file instead of generating one.
    #[arg(long, value_name = "FILE", requires = "label_property")]
    pub from_kb: Option<PathBuf>,
    /// With --from-kb: the property whose value is the class (left out of `kb.nt`).
    #[arg(long, value_name = "IRI", requires = "from_kb")]
    pub label_property: Option<String>,
    /// With --from-kb: the value that is the positive class [default: true, else the
    /// rarest value].
    #[arg(long, value_name = "VALUE", requires = "from_kb")]
    pub positive: Option<String>,
}

pub fn run(args: NodeArgs) -> anyhow::Result<()> {
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let kb = args.out.join("kb.nt");
    let (split, meta) = match (&args.from_kb, &args.label_property) {
        (Some(input), Some(property)) => {
            let iri = property
                .trim()
                .trim_start_matches('<')
                .trim_end_matches('>');
            let l = labelled::from_property(
                input,
                &kb,
                iri,
                args.positive.as_deref(),
                args.test_fraction,
                args.seed,
            )
            .map_err(|e| anyhow!("--label-property {iri}: {e}"))?;
            let meta = serde_json::json!({
                "source": input.display().to_string(),
                "label_property": iri,
                "statements_dropped": l.dropped,
            });
            (l.split, meta)
        }
        _ => synthetic(&args, &kb)?,
    };
    write_split(&args.out, &split).with_context(|| format!("writing {}", args.out.display()))?;
    let mut meta = meta;
    meta["seed"] = args.seed.into();
    meta["classes"] = serde_json::to_value(&split.classes)?;
    meta["train"] = counts(&split, &split.train);
    meta["test"] = counts(&split, &split.test);
    let text = serde_json::to_string_pretty(&meta)?;
    std::fs::write(args.out.join("meta.json"), format!("{text}\n"))
        .with_context(|| format!("writing {}", args.out.display()))?;
    eprintln!(
        "{}: {} training and {} test examples, classes {}",
        args.out.display(),
        split.train.len(),
        split.test.len(),
        split.classes.join(", ")
    );
    Ok(())
}

fn synthetic(args: &NodeArgs, kb: &std::path::Path) -> anyhow::Result<(Split, serde_json::Value)> {
    let spec = nodes::NodeSpec {
        seed: args.seed,
        entities: args.entities,
        classes: args.classes,
        noise: args.noise,
        imbalance: args.imbalance,
        test_fraction: args.test_fraction,
        rule: args.rule,
    };
    let p = nodes::generate(&spec).map_err(|e| anyhow!("generate-node-problems: {e}"))?;
    std::fs::write(kb, &p.ntriples).with_context(|| format!("writing {}", kb.display()))?;
    let meta = serde_json::json!({
        "rule": p.rule,
        "entities": args.entities,
        "noise": args.noise,
        "labels_flipped": p.flipped,
        "imbalance": args.imbalance,
    });
    Ok((p.split, meta))
}

/// Examples per class name.
fn counts(split: &Split, rows: &[(String, usize)]) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (i, c) in split.classes.iter().enumerate() {
        m.insert(c.clone(), rows.iter().filter(|r| r.1 == i).count().into());
    }
    serde_json::Value::Object(m)
}
