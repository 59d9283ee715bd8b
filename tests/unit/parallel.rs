//! Unit tests of `crate::parallel` (`src/parallel.rs`).

use attention_geometry::parallel::map;
use attention_geometry::random::{gaussian, seeded};

#[test]
fn the_parallel_map_is_the_sequential_map_in_seed_order() {
    // runs of unequal cost, so that threads finish out of order
    let run = |s: u64| gaussian(&mut seeded(s), 1 + (s as usize % 7) * 20, 30, 1.0).sum();
    let sequential: Vec<f64> = (5..45).map(run).collect();
    assert_eq!(map(5..45, run), sequential);
    assert_eq!(map(3..3, run), Vec::<f64>::new());
    assert_eq!(map(9..10, run), vec![run(9)]);
}
