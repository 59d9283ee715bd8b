//! Unit tests of `crate::pretrained::geometry` (`src/pretrained/geometry.rs`).

use attention_geometry::pretrained::geometry::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::DMatrix;

#[test]
fn low_rank_geometry_equals_the_dense_reference() {
    let mut rng = seeded(7);
    let (w_q, w_k) = (
        gaussian(&mut rng, 40, 8, 1.0),
        gaussian(&mut rng, 40, 8, 1.0),
    );
    let (fast, dense) = (head_geometry(&w_q, &w_k), head_geometry_dense(&w_q, &w_k));
    assert!((fast.symmetric_share - dense.symmetric_share).abs() < 1e-12);
    assert!((fast.negative_mass - dense.negative_mass).abs() < 1e-10);
    assert_eq!((fast.negative_count, dense.negative_count), (8, 8));
}

#[test]
fn inertia_forces_r_negative_eigenvalues_even_for_a_nearly_tied_head() {
    let mut rng = seeded(3);
    let w_q = gaussian(&mut rng, 30, 5, 1.0);
    let w_k = &w_q + gaussian(&mut rng, 30, 5, 0.05);
    let g = head_geometry(&w_q, &w_k);
    assert_eq!(g.negative_count, 5);
    assert!(g.negative_mass < 0.05 && g.symmetric_share > 0.99, "{g:?}");
}

#[test]
fn the_layer_score_of_untied_heads_equals_the_dense_sum() {
    let mut rng = seeded(5);
    let w_q: Vec<_> = (0..3).map(|_| gaussian(&mut rng, 12, 4, 1.0)).collect();
    let w_k: Vec<_> = (0..3).map(|_| gaussian(&mut rng, 12, 4, 1.0)).collect();
    let m = (0..3).fold(DMatrix::zeros(12, 12), |m, h| {
        m + &w_q[h] * w_k[h].transpose()
    });
    assert!((layer_symmetry_score(&w_q, &w_k) - symmetry_score(&m)).abs() < 1e-12);
}
