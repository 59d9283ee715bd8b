//! Unit tests of `crate::experiment::coverage::permuted` (`src/experiment/coverage/permuted.rs`).

use attention_geometry::experiment::coverage::permuted::*;
use attention_geometry::experiment::coverage::sensitivity::row_rho_under;
use attention_geometry::pretrained::transformer::Mask;
use attention_geometry::random::gaussian;
use attention_geometry::random::seeded;
use nalgebra::DMatrix;

#[test]
fn equal_norms_leave_the_weight_alone_and_permuting_breaks_a_true_norm() {
    let mut rng = seeded(1);
    let alpha = attention_geometry::attention::softmax_rows(&gaussian(&mut rng, 8, 8, 1.0));
    let fnorm: Vec<f64> = (0..8).map(|j| 1.0 + j as f64).collect();
    let keys: Vec<usize> = (0..8).collect();
    // the effect is the true carried norm
    let e = DMatrix::from_fn(8, 8, |i, j| alpha[(i, j)] * fnorm[j]);
    for mask in [Mask::Bidirectional, Mask::Causal] {
        let flat = permuted_rho(mask, &alpha, &[1.0; 8], &keys, &[&e, &alpha], 0);
        assert!((flat[1] - row_rho_under(mask, &alpha, &alpha, &keys)).abs() < 1e-12);
        let null = permuted_rho(mask, &alpha, &fnorm, &keys, &[&e], 0)[0];
        assert!(null < row_rho_under(mask, &e, &e, &keys));
    }
}
