//! Unit tests of `crate::experiment::coordinate_mismatch::rotating` (`src/experiment/coordinate_mismatch/rotating.rs`).

use attention_geometry::experiment::coordinate_mismatch::rotating::*;

#[test]
fn every_head_of_both_models_is_measured() {
    let f = book();
    for m in [&f.trained, &f.random] {
        assert_eq!(m.share.len(), 270);
        assert_eq!(m.share[0].len(), BOOK.distances + 1);
        for k in Keys::ALL {
            for e in m.explained(k, |e| e.offset) {
                assert!((0.0..=1.0 + 1e-9).contains(&e));
            }
        }
    }
}

#[test]
fn eta_squared_is_one_for_constant_groups_and_zero_for_equal_means() {
    assert!((eta_squared(&[(1.0, 0), (1.0, 0), (3.0, 1)]) - 1.0).abs() < 1e-12);
    assert!(eta_squared(&[(1.0, 0), (3.0, 0), (1.0, 1), (3.0, 1)]).abs() < 1e-12);
}
