//! Unit tests of `crate::pretrained::counterfactual` (`src/pretrained/counterfactual.rs`).

use attention_geometry::pretrained::counterfactual::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::DMatrix;

#[test]
fn knockout_is_the_softmax_without_the_key_and_zeroing_is_the_carried_norm() {
    let mut rng = seeded(0);
    let s = gaussian(&mut rng, 4, 4, 1.0);
    let f = gaussian(&mut rng, 4, 3, 1.0);
    let alpha = attention_geometry::attention::softmax_rows(&s);
    let (i, j) = (1, 2);
    // softmax over keys ≠ j, mixed again
    let mut w: Vec<f64> = (0..4)
        .map(|k| if k == j { 0.0 } else { alpha[(i, k)] })
        .collect();
    let z: f64 = w.iter().sum();
    w.iter_mut().for_each(|x| *x /= z);
    let without = DMatrix::from_row_slice(1, 4, &w) * &f;
    let o = &alpha * &f;
    let ko = head_changes(Counterfactual::Knockout, &alpha, &f);
    assert!((ko.row(i * 4 + j) - (without.row(0) - o.row(i))).norm() < 1e-12);
    let vz = head_changes(Counterfactual::ValueZeroing, &alpha, &f);
    assert!((vz.row(i * 4 + j).norm() - alpha[(i, j)] * f.row(j).norm()).abs() < 1e-12);
}
