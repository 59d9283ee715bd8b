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

mod updates {
    use attention_geometry::random::seeded;
    use attention_geometry::recall::Updates;

    const TASK: Updates = Updates {
        vocab: 24,
        pairs: 4,
        updates: 2,
        len: 24,
    };

    #[test]
    fn every_query_wants_its_keys_latest_value_and_rewritten_keys_are_the_stated_share() {
        let mut rng = seeded(3);
        for s in TASK.batch(&mut rng, 50) {
            assert_eq!(s.queries.len(), TASK.pairs);
            let mut twice = 0;
            for &(p, y) in &s.queries {
                let writes = TASK.writes_of(&s, p);
                assert!(p >= 2 * TASK.writes() && s.tokens[*writes.last().unwrap()] == y);
                if writes.len() == 2 {
                    twice += 1;
                    // the stale value is never the answer
                    assert_ne!(s.tokens[writes[0]], y);
                }
            }
            assert_eq!(twice, TASK.updates);
        }
    }

    #[test]
    fn the_rewrite_is_not_always_last() {
        // the writes are shuffled: some rewritten key's second write is not at the region's end
        let mut rng = seeded(0);
        let early = TASK.batch(&mut rng, 50).iter().any(|s| {
            s.queries.iter().any(|&(p, _)| {
                let w = TASK.writes_of(s, p);
                w.len() == 2 && w[1] < 2 * TASK.writes() - 3
            })
        });
        assert!(early);
    }

    #[test]
    #[should_panic(expected = "shorter than")]
    fn a_sequence_too_short_for_its_writes_and_queries_panics() {
        Updates { len: 19, ..TASK }.sample(&mut seeded(0));
    }
}
