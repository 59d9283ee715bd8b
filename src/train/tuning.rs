//! Choosing a learning rate per arm on a grid, on tuning seeds disjoint from
//! the seeds a chapter reports: every (arm, rate, seed) run in one parallel
//! map, the best rate by a chapter's own score, and a grid extended past an
//! edge when the best rate lies on it.
//!
//! ```text
//! runs[arm][rate][seed] = run(arm, lr, seed)       seeds disjoint from the reported ones
//! lr*(arm) = argbest_rate score(runs[arm][rate])   (the first best wins ties)
//! lr* on an edge → add the next rate beyond it (the grid's end ratio, or a
//!                  fixed factor) and choose again
//! ```
//! Introduced in chapter 6; shared by chapters 3 to 6. [`tune_steps`] is the
//! steps-to-threshold score chapters 5 and 6 use.

use std::ops::Range;

use crate::parallel;
use crate::stats::{mean, median};

use super::{History, Schedule};

/// `run(arm, lr, seed)` for every arm, every rate of `lrs` and every seed, in
/// one parallel map; results `[arm][rate][seed]`.
///
/// ```
/// use attention_geometry::train::tuning::sweep;
/// let runs = sweep(&[1.0, 2.0], &[0.1, 0.3], 5..8, |a, lr, s| a * lr + s as f64);
/// assert_eq!(runs[1][0], vec![5.2, 6.2, 7.2]);
/// ```
pub fn sweep<A: Sync, R: Send>(
    arms: &[A],
    lrs: &[f64],
    seeds: Range<u64>,
    run: impl Fn(&A, f64, u64) -> R + Sync,
) -> Vec<Vec<Vec<R>>> {
    let per = seeds.end.saturating_sub(seeds.start) as usize;
    let jobs: Vec<(usize, f64, u64)> = (0..arms.len())
        .flat_map(|a| {
            let seeds = seeds.clone();
            lrs.iter()
                .flat_map(move |&lr| seeds.clone().map(move |s| (a, lr, s)))
        })
        .collect();
    let mut done = parallel::map(0..jobs.len() as u64, |i| {
        let (a, lr, s) = jobs[i as usize];
        run(&arms[a], lr, s)
    })
    .into_iter();
    (0..arms.len())
        .map(|_| {
            (0..lrs.len())
                .map(|_| done.by_ref().take(per).collect())
                .collect()
        })
        .collect()
}

/// Index of the best of `scores`: `better(a, b)` says `b` beats `a`; the
/// first best wins ties.
///
/// # Panics
/// If `scores` is empty.
pub fn best<S>(scores: &[S], better: impl Fn(&S, &S) -> bool) -> usize {
    assert!(!scores.is_empty(), "tuning::best: no scores");
    (1..scores.len()).fold(0, |k, i| if better(&scores[k], &scores[i]) { i } else { k })
}

/// [`best`]'s rule for a loss: `b` beats `a` when it is lower, and any
/// number beats NaN (a diverged run is never chosen over one that is not).
///
/// ```
/// use attention_geometry::train::tuning::{best, lower};
/// assert_eq!(best(&[f64::NAN, 0.3, 0.1, 0.1], lower), 2);
/// ```
pub fn lower(a: &f64, b: &f64) -> bool {
    b < a || (a.is_nan() && !b.is_nan())
}

/// One arm's tuning: every rate tried with its score, and the chosen rate.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tuned<S> {
    /// `(lr, score)`, rates ascending.
    pub grid: Vec<(f64, S)>,
    /// The chosen rate.
    pub lr: f64,
}

impl<S> Tuned<S> {
    /// Whether the chosen rate is the smallest or the largest tried.
    pub fn at_edge(&self) -> bool {
        let first = self.grid.first().map(|g| g.0);
        let last = self.grid.last().map(|g| g.0);
        Some(self.lr) == first || Some(self.lr) == last
    }
}

/// How [`tune`] grows a grid whose best rate lies on one of its edges: at
/// most `times` rates per arm, each one step beyond that edge.
///
/// ```text
/// beyond lo = lo / step,   beyond hi = hi · step
/// step = factor, or the grid's end ratio (grid[1] / grid[0] at lo, grid[n-1] / grid[n-2] at hi)
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extend {
    pub times: usize,
    /// The step past an edge; `None`: the grid's own ratio at that edge.
    pub factor: Option<f64>,
}

impl Extend {
    /// At most `times` rates per arm, at the grid's own end ratio.
    pub const fn end_ratio(times: usize) -> Extend {
        Extend {
            times,
            factor: None,
        }
    }

    /// The rate beyond the edge of `grid` (rates ascending) at which `lr` lies.
    fn beyond<S>(&self, grid: &[(f64, S)], lr: f64) -> f64 {
        let n = grid.len();
        let (lo, hi) = (grid[0].0, grid[n - 1].0);
        match (self.factor, lr == lo) {
            (Some(f), true) => lo / f,
            (Some(f), false) => hi * f,
            (None, true) => lo * lo / grid[1].0,
            (None, false) => hi * hi / grid[n - 2].0,
        }
    }
}

/// Tune every arm on `lrs` (ascending, at least two rates): [`sweep`] on
/// `seeds`, score each rate's runs, choose by [`best`]; while an arm's best
/// rate lies on an edge of its grid, add the next rate beyond that edge
/// ([`Extend`]) and choose again, at most `extend.times` times per arm.
///
/// ```
/// use attention_geometry::train::tuning::{Extend, tune};
/// // the score peaks at lr = 3 for arm 0 and beyond the grid's top for arm 1
/// let peak = [3.0, 30.0];
/// let t = tune(&[0, 1], &[0.1, 0.3, 1.0, 3.0, 10.0], 0..2, Extend::end_ratio(3), |&a, lr, _| {
///     -(lr.ln() - f64::ln(peak[a])).powi(2)
/// }, |r| r.iter().sum::<f64>(), |a, b| b > a);
/// assert_eq!(t[0].lr, 3.0);
/// assert!(!t[0].at_edge() && t[0].grid.len() == 5);
/// assert!(t[1].lr > 10.0 && !t[1].at_edge() && t[1].grid.len() == 7);
/// // a fixed factor: 10 · 4 = 40, then 160 (the score falls past 30)
/// let by_4 = Extend { times: 3, factor: Some(4.0) };
/// let t = tune(&[1], &[1.0, 10.0], 0..1, by_4, |&a, lr, _| {
///     -(lr.ln() - f64::ln(peak[a])).powi(2)
/// }, |r| r[0], |a, b| b > a);
/// assert_eq!((t[0].lr, t[0].grid.len()), (40.0, 4));
/// ```
///
/// # Panics
/// If `lrs` has fewer than two rates.
pub fn tune<A: Sync, R: Send, S: Clone>(
    arms: &[A],
    lrs: &[f64],
    seeds: Range<u64>,
    extend: Extend,
    run: impl Fn(&A, f64, u64) -> R + Sync,
    score: impl Fn(&[R]) -> S,
    better: impl Fn(&S, &S) -> bool + Copy,
) -> Vec<Tuned<S>> {
    assert!(
        lrs.len() >= 2,
        "tuning::tune: need at least two rates, got {lrs:?}"
    );
    let runs = sweep(arms, lrs, seeds.clone(), &run);
    let mut tuned: Vec<Tuned<S>> = runs
        .iter()
        .map(|per_rate| {
            let grid: Vec<(f64, S)> = lrs
                .iter()
                .zip(per_rate)
                .map(|(&lr, r)| (lr, score(r)))
                .collect();
            choose(grid, better)
        })
        .collect();
    for _ in 0..extend.times {
        // the arms whose best rate is on an edge, and the rate beyond it
        let beyond: Vec<(usize, f64)> = tuned
            .iter()
            .enumerate()
            .filter(|(_, t)| t.at_edge())
            .map(|(a, t)| (a, extend.beyond(&t.grid, t.lr)))
            .collect();
        if beyond.is_empty() {
            break;
        }
        let extra = sweep(&beyond, &[0.0], seeds.clone(), |&(a, lr), _, s| {
            run(&arms[a], lr, s)
        });
        for ((a, lr), r) in beyond.into_iter().zip(extra) {
            let mut grid = tuned[a].grid.clone();
            grid.push((lr, score(&r[0])));
            grid.sort_by(|x, y| x.0.total_cmp(&y.0));
            tuned[a] = choose(grid, better);
        }
    }
    tuned
}

fn choose<S>(grid: Vec<(f64, S)>, better: impl Fn(&S, &S) -> bool) -> Tuned<S> {
    let scores: Vec<&S> = grid.iter().map(|g| &g.1).collect();
    let lr = grid[best(&scores, |a, b| better(a, b))].0;
    Tuned { grid, lr }
}

/// How a rate's tuning runs did on the steps-to-threshold score.
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

    /// Whether `self` beats `other`: fewer median steps, ties broken by higher accuracy.
    pub fn beats(&self, other: &Rate) -> bool {
        self.steps < other.steps || (self.steps == other.steps && self.accuracy > other.accuracy)
    }
}

/// Steps to threshold of a run, with an unreached threshold counted as
/// `steps + eval_every` (beyond the budget).
pub fn censored_steps(schedule: Schedule, h: &History) -> f64 {
    h.steps_to_threshold
        .map_or((schedule.steps + schedule.eval_every) as f64, |s| s as f64)
}

/// A tuned arm on the steps-to-threshold score: every rate tried, in
/// increasing order, and the chosen one.
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

/// Tune one arm on the steps-to-threshold score: [`tune`] with `run(lr,
/// seed)` returning `(censored steps, final accuracy)`, scored by
/// [`Rate::of`] and chosen by [`Rate::beats`].
pub fn tune_steps(
    lrs: &[f64],
    seeds: Range<u64>,
    extend: usize,
    run: impl Fn(f64, u64) -> (f64, f64) + Sync,
) -> Tuning {
    let tuned = tune(
        &[()],
        lrs,
        seeds,
        Extend::end_ratio(extend),
        |_, lr, seed| run(lr, seed),
        |runs| Rate::of(0.0, runs),
        |a, b| b.beats(a),
    );
    let t = tuned.into_iter().next().expect("one arm");
    Tuning {
        grid: t.grid.into_iter().map(|(lr, r)| Rate { lr, ..r }).collect(),
        lr: t.lr,
    }
}
