//! Unit tests of `crate::experiment::fixed_points::affine_lens` (`src/experiment/fixed_points/affine_lens.rs`).

use attention_geometry::experiment::fixed_points::affine_lens::*;
use attention_geometry::random::{gaussian, orthogonal, seeded};
use nalgebra::DMatrix;

#[test]
fn a_rotated_stream_is_recovered_and_the_last_boundary_kept() {
    let mut rng = seeded(3);
    // u(h Q) = u(h) Q for orthogonal Q: the map is exactly linear
    let q = orthogonal(&mut rng, 6);
    let runs: Vec<Vec<DMatrix<f64>>> = (0..20)
        .map(|_| {
            let h0 = gaussian(&mut rng, 5, 6, 1.0);
            let h1 = &h0 * &q * 3.0;
            vec![h0, h1]
        })
        .collect();
    let lens = AffineLens::fit(&runs, 1e-9);
    let r2 = lens.explained(&runs)[0];
    assert!(r2 > 0.999_999, "explained {r2}");
    let mapped = lens.apply(&runs[0]);
    assert_eq!(mapped[1], runs[0][1]);
}
