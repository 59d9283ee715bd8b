//! Unit tests of `crate::multi_head` (`src/multi_head.rs`).

use attention_geometry::attention::{Head, Mask};
use attention_geometry::multi_head::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::DMatrix;

#[test]
fn h_heads_equal_one_block_structured_computation() {
    for seed in 0..5 {
        let mut rng = seeded(seed);
        let layer = MultiHead::random(&mut rng, 12, 3, 4, 2);
        let x = gaussian(&mut rng, 7, 12, 1.0);
        for mask in [Mask::Full, Mask::Causal] {
            let pass = layer.forward(&x, mask);
            assert!((layer.block_form(&x, mask) - &pass.output).norm() < 1e-12);
            // and the sum of OV circuits Σ_t A_t x W_Vᵗ W_Oᵗ
            let ov: DMatrix<f64> = (0..3)
                .map(|t| &pass.weights[t] * &x * &layer.head(t).w_v * layer.w_o_block(t))
                .fold(DMatrix::zeros(7, 12), |a, b| a + b);
            assert!((ov - &pass.output).norm() < 1e-12);
        }
    }
}

#[test]
fn from_heads_round_trips_and_ablation_zeroes_a_head() {
    let mut rng = seeded(9);
    let layer = MultiHead::random(&mut rng, 6, 2, 3, 3);
    let heads: Vec<Head> = (0..2).map(|t| layer.head(t)).collect();
    let w_o: Vec<DMatrix<f64>> = (0..2).map(|t| layer.w_o_block(t)).collect();
    assert_eq!(MultiHead::from_heads(&heads, &w_o), layer);
    let other = MultiHead::random(&mut rng, 6, 2, 3, 3);
    let swapped = layer
        .clone()
        .with_head(1, &other.head(1), &other.w_o_block(1));
    assert_eq!(
        (swapped.head(0), swapped.head(1)),
        (layer.head(0), other.head(1))
    );
    let x = gaussian(&mut rng, 4, 6, 1.0);
    let only_first = layer.forward_keeping(&x, Mask::Full, &[true, false]).output;
    let first = heads[0].forward(&x, Mask::Full).output * &w_o[0];
    assert!((only_first - first).norm() < 1e-12);
}

#[test]
fn best_rank_keeps_the_largest_singular_values() {
    let m = gaussian(&mut seeded(3), 6, 6, 1.0);
    let s = attention_geometry::projection::stretch(&m);
    let err = (&m - best_rank(&m, 2)).norm();
    assert!((err - s[2..].iter().map(|x| x * x).sum::<f64>().sqrt()).abs() < 1e-10);
    assert_eq!(
        attention_geometry::projection::numerical_rank(&best_rank(&m, 2), 1e-9),
        2
    );
}
