//! Unit tests of `crate::experiment::multi_head::pruning` (`src/experiment/multi_head/pruning.rs`).

mod curve;
mod direct;

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;

use attention_geometry::experiment::multi_head::pruning::*;

#[test]
fn every_level_is_scored_and_the_ends_are_shared() {
    let f = book();
    for side in [&f.trained, &f.random] {
        assert_eq!(side.levels.len(), 11);
        assert_eq!(side.curve.len(), side.levels.len());
        assert_eq!(side.order.len(), 270);
        assert_eq!(side.curve[0].agree, side.curve[0].positions);
    }
    assert_eq!(f.trained.random.len(), BOOK.orders as usize);
    assert!(f.trained.random.iter().all(|c| c.len() == 11));
    assert_eq!(f.trained.singles.len(), BOOK.singles);
}

#[test]
fn removing_no_head_reruns_nothing() {
    let m = Architecture::Smollm2.with(Model::Trained);
    let ids = m.encode("The cat sat on the mat.").unwrap().ids;
    let t = m.run(&ids);
    assert_eq!(pruned_output(m, &t, &[]), t.output);
    let late = pruned_output(m, &t, &[(29, 4)]);
    let whole = m.run_ablated(&ids, &[(29, 4)]).output;
    assert!((late - whole).amax() < 1e-4);
}
