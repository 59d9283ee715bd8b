//! Unit tests of `crate::pretrained::minilm::repair` (`src/pretrained/minilm/repair.rs`).

use attention_geometry::pretrained::minilm::Minilm;
use attention_geometry::pretrained::minilm::repair::*;
use attention_geometry::pretrained::transformer::Transformer;
use nalgebra::DMatrix;

#[test]
fn a_symmetric_head_has_symmetric_bilinear_scores() {
    // with x = I the bias-free scores are W_QK itself; its symmetric part is symmetric
    let w = attention_geometry::pretrained::corpus::Model::Trained.weights();
    let mut layer = w.layers[1].clone();
    layer.query.bias.fill(0.0);
    layer.key.bias.fill(0.0);
    let x = DMatrix::identity(6, attention_geometry::pretrained::minilm::D);
    let a = symmetric_weights(&layer, &x, 3);
    // softmax of a symmetric S: a_ij / a_ji = Z_j / Z_i, so a_ij a_jk a_ki = a_ik a_kj a_ji
    let cyc = |i: usize, j: usize, k: usize| a[(i, j)] * a[(j, k)] * a[(k, i)];
    assert!((cyc(0, 1, 2) / cyc(0, 2, 1) - 1.0).abs() < 1e-9);
}

#[test]
fn a_zero_change_has_no_effect_and_zero_ablation_matches_the_ablated_run() {
    let m = Minilm::shared();
    let ids = Transformer::encode(m, "The quick brown fox jumps over the lazy dog.")
        .unwrap()
        .ids;
    let clean = Transformer::run(m, &ids);
    let z = DMatrix::zeros(ids.len(), 384);
    let e = &effects(&m.weights, &clean, 2, &[z, -m.write(&clean.layers[2], 5)]);
    let zero = e[0].recomputed.as_ref().unwrap();
    assert!(e[0].total.abs().max() < 1e-9 && zero.abs().max() < 1e-9);
    let ablated = Transformer::run_ablated(m, &ids, &[(2, 5)]);
    assert!(
        (&e[1].total - (&ablated.output - &clean.output))
            .abs()
            .max()
            < 1e-9
    );
    // to first order the two direct paths agree
    let (frozen, recomputed) = (&e[1].direct, e[1].recomputed.as_ref().unwrap());
    assert!((frozen - recomputed).norm() < 0.5 * frozen.norm());
}
