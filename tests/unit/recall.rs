//! Unit tests of `crate::recall` (`src/recall.rs`).

use attention_geometry::random::seeded;
use attention_geometry::recall::*;

#[test]
fn every_key_is_queried_once_after_the_context() {
    let task = Mqar {
        vocab: 32,
        pairs: 8,
        len: 32,
    };
    let mut rng = seeded(3);
    for s in task.batch(&mut rng, 50) {
        let mut asked: Vec<usize> = s.queries.iter().map(|&(p, _)| s.tokens[p]).collect();
        let mut keys: Vec<usize> = (0..8).map(|i| s.tokens[2 * i]).collect();
        asked.sort_unstable();
        keys.sort_unstable();
        assert_eq!(asked, keys);
        assert!(keys.windows(2).all(|w| w[0] < w[1]) && keys[0] >= 1 && keys[7] < 16);
        assert!((0..8).all(|i| s.tokens[2 * i + 1] >= 16));
        assert!(s.queries.iter().all(|&(p, _)| p >= 16 && p % 2 == 0));
    }
}

#[test]
fn the_same_seed_gives_the_same_sequences() {
    let task = Mqar {
        vocab: 20,
        pairs: 4,
        len: 17,
    };
    assert_eq!(task.batch(&mut seeded(1), 5), task.batch(&mut seeded(1), 5));
}

#[test]
#[should_panic(expected = "shorter than 4 · pairs")]
fn a_short_sequence_panics() {
    Mqar {
        vocab: 32,
        pairs: 8,
        len: 30,
    }
    .sample(&mut seeded(0));
}
