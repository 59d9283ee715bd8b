//! Unit tests of `crate::experiment::fixed_points::lens_verdict` (`src/experiment/fixed_points/lens_verdict.rs`).

use attention_geometry::experiment::fixed_points::lens_verdict::*;

#[test]
fn every_choice_and_replication_is_computed() {
    let c = &claims()[0];
    assert_eq!(c.choices.len(), 8);
    assert_eq!(c.replications.len(), 3);
    for m in attention_geometry::experiment::fixed_points::lens_report::measures() {
        eprintln!("{m:?}");
    }
    eprintln!("{c:#?}\nverdict: {:?}", c.verdict());
}
