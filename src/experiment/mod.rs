//! The book's experiments: one module per chapter, named for its subject.
//!
//! Each module runs its chapter's claims over many seeds at a fixed book
//! size, returns plain data (no plotting), and lists the numbers its prose
//! quotes as [`crate::measure::Measure`]s. Figures and prose read the same
//! run, computed once per process.

pub mod coverage;
pub mod delta;
pub mod fixed_points;
pub mod heads;
pub mod learning_cost;
pub mod mismatch;
pub mod relations;
pub mod specialisation;

/// `f` over seeds `0..seeds` on two threads, in seed order: each seed's
/// result depends only on that seed, so the output is deterministic.
pub(crate) fn par_map<T: Send>(seeds: u64, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let half = seeds / 2;
    std::thread::scope(|s| {
        let upper = s.spawn(|| (half..seeds).map(&f).collect::<Vec<_>>());
        let mut out: Vec<T> = (0..half).map(&f).collect();
        out.extend(upper.join().expect("a worker thread panicked"));
        out
    })
}
