//! One parallel map over seeds: the experiments' many independent runs share
//! the machine's threads, and the results come back in seed order.
//! Introduced in chapter 2.

use rayon::prelude::*;

/// `f` over `seeds` on rayon's one pool (a thread per core, shared by every
/// caller and nested map), results in seed order.
///
/// ```text
/// map(a..b, f) = [f(a), f(a + 1), …, f(b − 1)]
/// ```
///
/// Idle threads steal the seeds not yet started, so runs of unequal cost
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
    let n = seeds.end.saturating_sub(seeds.start) as usize;
    // one seed per task, so a long run never holds short ones behind it
    (0..n)
        .into_par_iter()
        .with_max_len(1)
        .map(|i| f(seeds.start + i as u64))
        .collect()
}
