//! Unit tests of `crate::pretrained::smollm2::forward` (`src/pretrained/smollm2/forward.rs`).

use attention_geometry::pretrained::smollm2::forward::*;
use nalgebra::{DMatrix, DVector};

#[test]
fn rms_norm_gives_unit_root_mean_square() {
    let x = DMatrix::from_row_slice(2, 2, &[3.0f32, 4.0, 1e-20, 0.0]);
    let y = rms_norm(&x, &DVector::from_element(2, 1.0), 1e-5);
    let rms = (y.row(0).norm_squared() / 2.0).sqrt();
    assert!((rms - 1.0).abs() < 1e-5 && y.iter().all(|v| v.is_finite()));
}
