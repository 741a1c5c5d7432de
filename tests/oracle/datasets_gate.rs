//! The rule of `tests/common/datasets.rs`: a missing dataset skips outside CI and fails in CI.

use crate::common::datasets;

use datasets::{Gate, gate};

#[test]
fn present_data_always_runs() {
    assert_eq!(gate(true, false), Gate::Run);
    assert_eq!(gate(true, true), Gate::Run);
}

#[test]
fn missing_data_skips_outside_ci_and_fails_in_ci() {
    assert_eq!(gate(false, false), Gate::Skip);
    assert_eq!(gate(false, true), Gate::Fail);
}
