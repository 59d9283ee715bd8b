//! Chapter 7: what an additive and a delta memory read back after a key is
//! written again with a new value.

use crate::measure::{Measure, pm};
use crate::parallel;
use crate::random::{seeded, unit_rows};
use crate::stats::Summary;

use super::capacity::Write;

/// Memory width `d = K = V`, pairs written `before` and `after` the
/// overwrite, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub d: usize,
    pub before: usize,
    pub after: usize,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    d: super::capacity::BOOK.d,
    before: 16,
    after: 8,
    seeds: super::SEEDS,
};

/// Relative error of reading key 0 after it was written with `v`, then
/// overwritten with `v'` after `before` pairs, then followed by `after` more
/// pairs; against `v'`.
pub fn overwrite_error(setup: Setup, write: Write, seed: u64) -> f64 {
    let (before, after) = (setup.before, setup.after);
    let mut rng = seeded(seed);
    let n = before + 1 + after;
    let mut k = unit_rows(&mut rng, n, setup.d);
    let v = unit_rows(&mut rng, n, setup.d);
    let k0 = k.row(0).clone_owned();
    k.row_mut(before).copy_from(&k0);
    let s = write.store(&k, &v);
    let read = k0 * &s;
    (read - v.row(before)).norm_squared() / v.row(before).norm_squared()
}

/// Overwrite errors of both memories.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// `errors[w][seed]` for `Write::ALL[w]`.
    pub errors: Vec<Vec<f64>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            errors: Write::ALL
                .iter()
                .map(|&w| parallel::map(0..setup.seeds, |s| overwrite_error(setup, w, s)))
                .collect(),
        }
    }

    /// Overwrite error of `write` over the seeds.
    pub fn of(&self, write: Write) -> Summary {
        Summary::of(&self.errors[write.index()])
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 7 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    vec![
        Measure::new("overwrite_before", BOOK.before.to_string()),
        Measure::new("overwrite_after", BOOK.after.to_string()),
        Measure::new("overwrite_additive", pm(f.of(Write::Additive), 2)),
        Measure::new("overwrite_delta", pm(f.of(Write::Delta), 2)),
    ]
}
