//! `oxilearn export`: a saved model's definition as an OWL axiom, `Target ≡ C` (or `C ⊑
//! Target` with `--subclass`), in functional syntax, OWL/XML (both written by horned-owl) or
//! Manchester syntax. Only models that are a class expression have a definition to export.

use anyhow::{Context, bail};

use super::args::{ExportArgs, ExportFormat};
use super::{kb_source, model_file};
use crate::concept::owl_axiom::{AxiomKind, OwlSyntax, axiom_document};
use crate::concept::{Iri, to_manchester_full};
use crate::enrich::ModelIdentity;
use crate::enrich::file::write_atomically;
use crate::oracle::IndividualScope;

pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    model_file::refuse_multiclass(
        &args.model,
        "export",
        "writes one class expression's definition, and a rule of a combined model is no \
         axiom of its class (under MRL an earlier rule of another class may decide; under \
         MRSI, MRSU and CN2 the firing rules' coverages do)",
    )?;
    // The model names only schema entities: the schema is all that needs reading.
    let kb = kb_source::open_kb(&args.kb, None, IndividualScope::Schema)?;
    let (loaded, text) = model_file::load_with_text(&args.model, &kb)?;
    let Some(definition) = loaded.model.concept() else {
        bail!(
            "the {} model in {} is not a class expression: only concept models (celoe) have a \
             definition to export",
            loaded.header.algorithm,
            args.model.display()
        );
    };
    let identity = ModelIdentity::of(&text, &loaded);
    let target = match (&args.target_class, identity.trained_class()) {
        (Some(t), _) => {
            oxigraph::model::NamedNode::new(t.as_str())
                .with_context(|| format!("--target-class {t}: expected an absolute IRI"))?;
            Iri::new(t.as_str())
        }
        (None, Some(t)) => Iri::new(t),
        (None, None) => bail!(
            "the model was trained for problem {:?}, which is not a class IRI: pass \
             --target-class IRI",
            identity.problem.as_deref().unwrap_or("(unnamed)")
        ),
    };
    let kind = if args.subclass {
        AxiomKind::SubClass
    } else {
        AxiomKind::Equivalent
    };
    let document = match args.syntax {
        ExportFormat::Ofn => axiom_document(&target, definition, kind, OwlSyntax::Functional)
            .map_err(|e| anyhow::anyhow!("writing functional syntax: {e}"))?,
        ExportFormat::Owx => axiom_document(&target, definition, kind, OwlSyntax::Xml)
            .map_err(|e| anyhow::anyhow!("writing OWL/XML: {e}"))?,
        // Manchester syntax has frames for named classes only: no axiom `C SubClassOf T`
        // with an expression on the left.
        ExportFormat::Manchester if args.subclass => bail!(
            "Manchester syntax cannot state `C SubClassOf Target` for a class expression C: \
             use --format ofn or owx with --subclass"
        ),
        ExportFormat::Manchester => manchester(&target, definition),
    };
    match &args.out {
        Some(path) => write_atomically(path, document.as_bytes())?,
        None => outln!("{}", document.trim_end()),
    }
    Ok(())
}

/// A Manchester-syntax class frame with full IRIs.
fn manchester(target: &Iri, definition: &crate::concept::Concept) -> String {
    format!(
        "Class: <{}>\n    EquivalentTo: {}\n",
        target.as_str(),
        to_manchester_full(definition)
    )
}
