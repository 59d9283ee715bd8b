//! Unit tests of `crate::absorption` (`src/absorption.rs`).

use attention_geometry::absorption::*;
use attention_geometry::attention::Mask;
use attention_geometry::random::{gaussian, seeded};

#[test]
fn the_constructions_do_what_they_claim() {
    for seed in 0..20 {
        let e = gaussian(&mut seeded(seed), 3, 8, 1.0);
        let acc = |m| successor_accuracy(&constructed(m, &e));
        assert_eq!(acc(Mechanism::TiedHead), 2.0 / 3.0);
        assert_eq!(acc(Mechanism::TiedResidual), 2.0 / 3.0);
        assert_eq!(acc(Mechanism::TwoTiedHeads), 1.0);
        assert_eq!(acc(Mechanism::TwoTiedLayers), 1.0);
        assert_eq!(acc(Mechanism::UntiedHead), 1.0);
    }
}

#[test]
fn two_tied_layers_are_exactly_their_rollout() {
    let e = gaussian(&mut seeded(1), 3, 8, 1.0);
    let a = tied_placing(&e, &placement_a(2.0, 6.0));
    let x1 = &e + a.forward(&e, Mask::Full).output;
    let b = tied_placing(&x1, &placement_b(2.0, 6.0));
    let x2 = &x1 + b.forward(&x1, Mask::Full).output;
    let r = constructed(Mechanism::TwoTiedLayers, &e);
    assert!((x2 - r * &e * 4.0).norm() < 1e-9);
}
