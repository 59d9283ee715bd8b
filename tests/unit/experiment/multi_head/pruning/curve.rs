//! Unit tests of `crate::experiment::multi_head::pruning::curve` (`src/experiment/multi_head/pruning/curve.rs`).

use attention_geometry::experiment::multi_head::pruning::curve::*;

#[test]
fn levels_start_empty_and_end_with_every_head() {
    let order: Vec<Head> = (0..7).map(|h| (0, h)).collect();
    let l = levels(&order, 3);
    assert_eq!(l.iter().map(Vec::len).collect::<Vec<_>>(), [0, 3, 6, 7]);
    assert_eq!(l[1], order[..3]);
}

#[test]
fn prunable_stops_at_the_first_level_below_the_floor() {
    let curve = [(0, 1.0), (3, 0.95), (6, 0.8), (9, 0.96)];
    assert_eq!(prunable(curve, 0.9), 3);
    assert_eq!(prunable(curve, 0.5), 9);
    assert_eq!(prunable([(0, 0.4)], 0.5), 0);
}
