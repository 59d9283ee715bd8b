//! One parallel map over seeds: the experiments' many independent runs share
//! the machine's threads, and the results come back in seed order.
//! Introduced in chapter 2.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// `f` over `seeds`, on up to `std::thread::available_parallelism` threads,
/// results in seed order.
///
/// ```text
/// map(a..b, f) = [f(a), f(a + 1), …, f(b − 1)]
/// ```
///
/// Each thread takes the next seed not yet taken, so runs of unequal cost
/// share the threads evenly; each result depends only on its seed, so the
/// output is the same as the sequential map's on any machine.
///
/// # Panics
/// If `f` panics on some seed.
///
/// ```
/// use attention_geometry::parallel::map;
/// let squares = map(3..7, |s| s * s);
/// assert_eq!(squares, vec![9, 16, 25, 36]);
/// ```
pub fn map<T: Send>(seeds: std::ops::Range<u64>, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let n = seeds.end.saturating_sub(seeds.start);
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get() as u64)
        .min(n);
    if threads <= 1 {
        return seeds.map(f).collect();
    }
    let next = AtomicU64::new(seeds.start);
    let done: Mutex<Vec<(u64, T)>> = Mutex::new(Vec::with_capacity(n as usize));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= seeds.end {
                        break;
                    }
                    let result = f(seed);
                    done.lock()
                        .expect("no worker panicked")
                        .push((seed, result));
                }
            });
        }
    });
    let mut done = done.into_inner().expect("no worker panicked");
    done.sort_by_key(|&(seed, _)| seed);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::map;
    use crate::random::{gaussian, seeded};

    #[test]
    fn the_parallel_map_is_the_sequential_map_in_seed_order() {
        // runs of unequal cost, so that threads finish out of order
        let run = |s: u64| gaussian(&mut seeded(s), 1 + (s as usize % 7) * 20, 30, 1.0).sum();
        let sequential: Vec<f64> = (5..45).map(run).collect();
        assert_eq!(map(5..45, run), sequential);
        assert_eq!(map(3..3, run), Vec::<f64>::new());
        assert_eq!(map(9..10, run), vec![run(9)]);
    }
}
