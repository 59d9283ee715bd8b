//! Choosing a learning rate on tuning seeds: train the same arm at every
//! rate of a grid, keep the rate that reaches the accuracy threshold in the
//! fewest median steps (a run that never does counts as past the budget),
//! ties broken by the higher mean final accuracy; while the chosen rate sits
//! at an edge of the grid, the grid grows by a half-decade on that side.
//!
//! ```text
//! score(lr) = (median_s censored steps(lr, s), mean_s final accuracy(lr, s))
//! lr* = argmin_lr score (lexicographic: fewer steps, then higher accuracy)
//! ```
//! Introduced in chapter 6; chapter 5 tunes its arms with it too.

use crate::parallel;
use crate::stats::{mean, median};

use super::{History, Schedule};

/// One rate of a grid and how its tuning runs did.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rate {
    pub lr: f64,
    /// Median censored steps to threshold over the tuning seeds.
    pub steps: f64,
    /// Mean final test accuracy over the tuning seeds.
    pub accuracy: f64,
}

impl Rate {
    /// Score `lr` from its tuning runs, one `(censored steps, final accuracy)` per seed.
    ///
    /// # Panics
    /// If `runs` is empty.
    pub fn of(lr: f64, runs: &[(f64, f64)]) -> Rate {
        assert!(!runs.is_empty(), "Rate::of: no tuning runs at {lr}");
        let steps: Vec<f64> = runs.iter().map(|r| r.0).collect();
        let accuracy: Vec<f64> = runs.iter().map(|r| r.1).collect();
        Rate {
            lr,
            steps: median(&steps),
            accuracy: mean(&accuracy),
        }
    }
}

/// The best rate of `grid`: fewest median steps, ties broken by higher mean
/// accuracy (the earlier one on a full tie).
///
/// # Panics
/// If `grid` is empty.
///
/// ```
/// use attention_geometry::train::tuning::{Rate, best};
/// let r = |lr, steps, accuracy| Rate { lr, steps, accuracy };
/// assert_eq!(best(&[r(0.01, 90.0, 0.9), r(0.1, 60.0, 0.8)]).lr, 0.1);
/// assert_eq!(best(&[r(0.01, 90.0, 0.7), r(0.1, 90.0, 0.6)]).lr, 0.01);
/// ```
pub fn best(grid: &[Rate]) -> Rate {
    grid.iter()
        .copied()
        .reduce(|a, b| {
            if b.steps < a.steps || (b.steps == a.steps && b.accuracy > a.accuracy) {
                b
            } else {
                a
            }
        })
        .expect("a non-empty grid")
}

/// Steps to threshold of a run, with an unreached threshold counted as
/// `steps + eval_every` (beyond the budget).
pub fn censored_steps(schedule: Schedule, h: &History) -> f64 {
    h.steps_to_threshold
        .map_or((schedule.steps + schedule.eval_every) as f64, |s| s as f64)
}

/// The next rate beyond a grid's edge, half a decade further on the 1–3–10
/// ladder: up from `0.3` is `1`, down from `0.003` is `0.001`.
///
/// ```
/// use attention_geometry::train::tuning::beyond;
/// assert_eq!((beyond(0.3, true), beyond(1.0, true)), (1.0, 3.0));
/// assert_eq!((beyond(0.003, false), beyond(0.001, false)), (0.001, 0.0003));
/// ```
pub fn beyond(edge: f64, up: bool) -> f64 {
    let step = if up { 10f64.sqrt() } else { 1.0 / 10f64.sqrt() };
    let x = edge * step;
    let k = x.log10().floor();
    let m = x / 10f64.powf(k);
    // snap the mantissa to 1, 3 or 10 (geometric midpoints √3 and √30)
    let (m, k) = if m < 3f64.sqrt() {
        (1, k)
    } else if m < 30f64.sqrt() {
        (3, k)
    } else {
        (1, k + 1.0)
    };
    format!("{m}e{k}")
        .parse()
        .expect("a decimal in scientific notation")
}

/// A tuned arm: every rate tried, in increasing order, and the chosen one.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tuning {
    pub grid: Vec<Rate>,
    pub lr: f64,
}

impl Tuning {
    /// Whether the chosen rate is the lowest or the highest one tried.
    pub fn at_edge(&self) -> bool {
        let (lo, hi) = (self.grid[0].lr, self.grid[self.grid.len() - 1].lr);
        self.lr == lo || self.lr == hi
    }

    /// Whether some rate tried reached the threshold on half the tuning
    /// seeds or more (its median steps within `schedule.steps`).
    pub fn reaches(&self, schedule: Schedule) -> bool {
        self.grid.iter().any(|r| r.steps <= schedule.steps as f64)
    }
}

/// Tune one arm: `run(lr, seed)` trains it and returns `(censored steps,
/// final accuracy)`; every rate of `grid` runs on every seed of `seeds`
/// (in parallel); while the best rate is at an edge, the grid grows by
/// [`beyond`] on that side, at most `extensions` times.
///
/// # Panics
/// If `grid` or `seeds` is empty.
///
/// ```
/// use attention_geometry::train::tuning::tune;
/// // a toy arm that learns fastest near lr = 1
/// let t = tune(&[0.01, 0.03, 0.1], 0..2, 4, |lr: f64, _| (lr.log10().abs() * 100.0, 1.0));
/// assert_eq!(t.lr, 1.0);
/// assert_eq!(t.grid.len(), 6); // 0.3, 1 and 3 added: 1 is no longer at the edge
/// ```
pub fn tune(
    grid: &[f64],
    seeds: std::ops::Range<u64>,
    extensions: usize,
    run: impl Fn(f64, u64) -> (f64, f64) + Sync,
) -> Tuning {
    assert!(
        !grid.is_empty() && seeds.end > seeds.start,
        "tune: need a grid and tuning seeds, got {grid:?} and {seeds:?}"
    );
    let per = seeds.end - seeds.start;
    let score = |lrs: &[f64]| -> Vec<Rate> {
        // job i: rate i / per on seed start + i % per
        let runs = parallel::map(0..lrs.len() as u64 * per, |i| {
            run(lrs[(i / per) as usize], seeds.start + i % per)
        });
        lrs.iter()
            .zip(runs.chunks(per as usize))
            .map(|(&lr, chunk)| Rate::of(lr, chunk))
            .collect()
    };
    let mut rates = score(grid);
    rates.sort_by(|a, b| a.lr.total_cmp(&b.lr));
    for _ in 0..extensions {
        let chosen = best(&rates).lr;
        let (lo, hi) = (rates[0].lr, rates[rates.len() - 1].lr);
        let next = if chosen == hi {
            beyond(hi, true)
        } else if chosen == lo {
            beyond(lo, false)
        } else {
            break;
        };
        rates.extend(score(&[next]));
        rates.sort_by(|a, b| a.lr.total_cmp(&b.lr));
    }
    Tuning {
        lr: best(&rates).lr,
        grid: rates,
    }
}
