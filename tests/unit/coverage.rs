//! Unit tests of `crate::coverage` (`src/coverage.rs`).

use attention_geometry::attention::{Head, Mask};
use attention_geometry::coverage::*;
use attention_geometry::random::gaussian;
use attention_geometry::random::seeded;
use nalgebra::DMatrix;

#[test]
fn the_head_jacobian_matches_finite_differences() {
    for seed in 0..5 {
        let mut rng = seeded(seed);
        let head = Head::random(&mut rng, 6, 4, 3);
        let x = gaussian(&mut rng, 7, 6, 1.5);
        for mask in [Mask::Full, Mask::Causal] {
            let exact = head_jacobian(&head, &x, mask);
            let approx = numerical_jacobian(|x| head.forward(x, mask).output, &x, 1e-5);
            assert!(
                (&exact - &approx).norm() < 1e-7 * exact.norm(),
                "seed {seed}, {mask:?}"
            );
        }
    }
}

#[test]
fn the_relu_jacobian_is_constant_on_a_piece_and_exact_there() {
    let net = ReluNet::random(&mut seeded(1), &[2, 16, 16, 1]);
    let x = DMatrix::from_row_slice(1, 2, &[0.1, 0.2]);
    let num = numerical_jacobian(|x| net.run(x).0, &x, 1e-7);
    assert!((net.jacobian(&x) - num.transpose()).norm() < 1e-6);
}

#[test]
fn more_units_cut_more_pieces() {
    let mut rng = seeded(2);
    let small = linear_pieces(&ReluNet::random(&mut rng, &[2, 2, 1]), -3.0, 3.0, 60).count;
    let large = linear_pieces(&ReluNet::random(&mut rng, &[2, 16, 16, 1]), -3.0, 3.0, 60).count;
    assert!(small <= 4 && large > small, "{small} {large}");
}

#[test]
fn influence_has_one_entry_per_token_pair() {
    let jac = DMatrix::from_fn(6, 9, |r, c| (r * 9 + c) as f64);
    let inf = influence(&jac, 3);
    assert_eq!(inf.shape(), (3, 3));
    assert!((inf[(0, 0)] - jac.view((0, 0), (2, 3)).norm()).abs() < 1e-12);
}
