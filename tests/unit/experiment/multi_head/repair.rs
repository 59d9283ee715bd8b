//! Unit tests of `crate::experiment::multi_head::repair` (`src/experiment/multi_head/repair.rs`).

mod verdict;

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;

use attention_geometry::experiment::multi_head::repair::*;

#[test]
fn donors_are_long_enough_nearest_after_and_never_the_partner() {
    let lengths = [5, 7, 5, 6, 9, 5];
    // one donor, the decoder's pairing (s + 3) mod 6
    assert_eq!(donors(&lengths, 0, 3, 1), vec![2]);
    assert_eq!(donors(&lengths, 2, 5, 1), vec![0]);
    assert_eq!(donors(&lengths, 3, 0, 1), vec![1]);
    // three, the encoder's pairing s ^ 1: same length first, then shortest longer
    assert_eq!(donors(&lengths, 0, 1, 3), vec![2, 5, 3]);
}

#[test]
fn every_layer_is_measured_and_every_change_made_is_finite() {
    for arch in Architecture::ALL {
        let f = book(arch);
        let layers = setup(arch).arch.with(Model::Trained).layers();
        assert_eq!(f.last_layer(), layers - 2);
        for model in Model::BOTH {
            let side = f.sides.model(model);
            let measured: Vec<usize> = side.iter().flat_map(|s| s.layers.clone()).collect();
            for l in 0..layers - 1 {
                assert!(measured.contains(&l), "{arch:?}: layer {l} not measured");
            }
            for c in (0..CHANGES.len()).filter(|&c| f.setup.changes[c]) {
                assert!(f.all(model, c, |k| k.states).iter().all(|k| k.is_finite()));
            }
        }
    }
}
