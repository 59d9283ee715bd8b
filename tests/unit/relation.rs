//! Unit tests of `crate::relation` (`src/relation.rs`).

use attention_geometry::random::gaussian;
use attention_geometry::random::seeded;
use attention_geometry::relation::*;
use nalgebra::DMatrix;

#[test]
fn composition_of_arrows_is_an_arrow() {
    let mut rng = seeded(1);
    let f = random_stochastic(&mut rng, 3, 5, 2.0);
    let g = random_stochastic(&mut rng, 5, 4, 2.0);
    assert!(is_stochastic(&compose(&f, &g), 1e-12));
    assert_eq!(compose(&f, &g).shape(), (3, 4));
}

#[test]
#[should_panic(expected = "codomain")]
fn mismatched_arrows_do_not_compose() {
    compose(&DMatrix::identity(2, 3), &DMatrix::identity(2, 2));
}

#[test]
fn leave_one_out_effects_are_positive_and_finite() {
    let mut rng = seeded(2);
    let stack = Stack::random(&mut rng, 1, 3, 1.0);
    let x = gaussian(&mut rng, 4, 3, 1.0);
    let e = leave_one_out(&stack, &x);
    assert_eq!(e.len(), 3);
    assert!(e.iter().all(|v| v.is_finite() && *v > 0.0));
}

#[test]
fn strongest_picks_the_largest_in_range() {
    let m = DMatrix::from_row_slice(2, 3, &[0.1, 0.5, 0.4, 0.9, 0.04, 0.06]);
    assert_eq!(strongest(&m, 0..3), vec![1, 0]);
    assert_eq!(strongest(&m, 1..3), vec![1, 2]);
}
