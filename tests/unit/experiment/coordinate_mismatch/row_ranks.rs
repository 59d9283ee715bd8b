//! Unit tests of `crate::experiment::coordinate_mismatch::row_ranks` (`src/experiment/coordinate_mismatch/row_ranks.rs`).

use attention_geometry::experiment::coordinate_mismatch::row_ranks::*;
use attention_geometry::pretrained::transformer::Mask;
use nalgebra::DMatrix;

#[test]
fn causal_rows_see_only_earlier_keys_and_short_rows_are_left_out() {
    let raw = DMatrix::from_fn(5, 5, |i, j| (i * 5 + j) as f64);
    // scores agree with raw below the diagonal, disagree above it
    let scores = DMatrix::from_fn(5, 5, |i, j| if j < i { raw[(i, j)] } else { -raw[(i, j)] });
    let causal = row_rhos(Mask::Causal, &raw, &scores, 3);
    assert_eq!(causal.len(), 2);
    assert!(causal.iter().all(|r| (r - 1.0).abs() < 1e-12));
    assert_eq!(row_rhos(Mask::Bidirectional, &raw, &scores, 3).len(), 5);
}
