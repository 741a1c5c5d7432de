//! The configuration grid of the paper's Table 2 (methods × selection strategies). The
//! cross-validation that runs each cell is the learner-generic
//! `oxilearn::learn::experiment::cross_validate`.

use serde::Serialize;

use oxilearn::learn::tbc::{Missing, Selection, Structure, TbcParams};

/// One configuration of the grid, named as in the paper (ACA, EM, IM2, IM3, ROBUST for
/// naive; TACA, SEM, TIM2, TIM3 for TAN), with its selection strategy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GridCell {
    pub name: String,
    pub structure: Structure,
    pub missing: Missing,
    pub selection: Selection,
}

impl GridCell {
    /// `base` with this cell's structure, method and selection.
    pub fn params(&self, base: &TbcParams) -> TbcParams {
        TbcParams {
            structure: self.structure,
            missing: self.missing,
            selection: self.selection,
            ..base.clone()
        }
    }
}

/// The 18 cells of the paper's grid: 9 methods × {FS, FFSBE}.
pub fn paper_grid() -> Vec<GridCell> {
    let methods = [
        ("ACA", Structure::Naive, Missing::Aca),
        ("EM", Structure::Naive, Missing::Em),
        ("IM3", Structure::Naive, Missing::Im3),
        ("IM2", Structure::Naive, Missing::Im2),
        ("ROBUST", Structure::Naive, Missing::Robust),
        ("TACA", Structure::Tan, Missing::Aca),
        ("SEM", Structure::Tan, Missing::Sem),
        ("TIM3", Structure::Tan, Missing::Im3),
        ("TIM2", Structure::Tan, Missing::Im2),
    ];
    let mut out = Vec::new();
    for selection in [Selection::Fs, Selection::Ffsbe] {
        for (name, structure, missing) in methods {
            out.push(GridCell {
                name: name.to_owned(),
                structure,
                missing,
                selection,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_is_nine_methods_times_two_selections() {
        let grid = paper_grid();
        assert_eq!(grid.len(), 18);
        for selection in [Selection::Fs, Selection::Ffsbe] {
            let names: Vec<&str> = grid
                .iter()
                .filter(|c| c.selection == selection)
                .map(|c| c.name.as_str())
                .collect();
            assert_eq!(
                names,
                [
                    "ACA", "EM", "IM3", "IM2", "ROBUST", "TACA", "SEM", "TIM3", "TIM2"
                ]
            );
        }
        let base = TbcParams::default();
        let tim2 = grid.iter().find(|c| c.name == "TIM2").expect("TIM2");
        let p = tim2.params(&base);
        assert_eq!((p.structure, p.missing), (Structure::Tan, Missing::Im2));
    }
}
