//! Helpers shared by integration tests (`mod common;`). Not every test uses every helper.
#![allow(dead_code)]

pub mod concept_eval;
pub mod concept_gen;
