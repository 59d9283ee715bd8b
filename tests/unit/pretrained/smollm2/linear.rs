//! Unit tests of `crate::pretrained::smollm2::linear` (`src/pretrained/smollm2/linear.rs`).

use attention_geometry::pretrained::smollm2::linear::*;
use nalgebra::DMatrix;

#[test]
fn both_paths_equal_the_plain_product() {
    // (72, 10) takes the blocks, (70, 9) the plain dot products
    for (k, out) in [(72, 10), (70, 9)] {
        let w = DMatrix::from_fn(k, out, |i, j| ((i * 3 + j * 7) % 11) as f32 - 5.0);
        for n in [1, 5, 8, DOT_ROWS, DOT_ROWS + 1] {
            let x = DMatrix::from_fn(n, k, |i, j| ((i + 2 * j) % 5) as f32 * 0.5);
            assert!((project(&x, &w) - &x * &w).amax() < 1e-4, "n = {n}");
        }
    }
}
