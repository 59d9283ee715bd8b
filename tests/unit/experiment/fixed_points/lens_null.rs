//! Unit tests of `crate::experiment::fixed_points::lens_null` (`src/experiment/fixed_points/lens_null.rs`).

use attention_geometry::experiment::fixed_points::lens_null::*;
use attention_geometry::random::gaussian;
use attention_geometry::random::seeded;
use nalgebra::DMatrix;

#[test]
fn rotated_writes_keep_their_norms_and_identity_rotations_the_stream() {
    let mut rng = seeded(1);
    let states: Vec<DMatrix<f64>> = (0..4).map(|_| gaussian(&mut rng, 3, 8, 1.0)).collect();
    let same = rotated(&states, &vec![DMatrix::identity(8, 8); 3]);
    assert!((&same[3] - &states[3]).amax() < 1e-12);
    let turned = rotated(&states, &rotations(3, 8, 0));
    for l in 0..3 {
        let (a, b) = (&states[l + 1] - &states[l], &turned[l + 1] - &turned[l]);
        for i in 0..3 {
            assert!((a.row(i).norm() - b.row(i).norm()).abs() < 1e-12);
        }
    }
    assert_ne!(rotations(3, 8, 0), rotations(3, 8, 1));
}
