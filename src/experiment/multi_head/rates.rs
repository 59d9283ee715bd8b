//! Chapter 3: how each trained arm's learning rate is chosen — a grid of
//! rates tried on tuning seeds disjoint from the reported ones
//! (`train::tuning`), scored by mean final test accuracy, ties broken by the
//! lower mean final test loss.

use std::ops::Range;

use crate::measure::{self, Measure, of_total};
use crate::stats::mean;
use crate::train::History;
use crate::train::tuning::{Extend, Tuned, tune};

/// The rate grid and tuning seeds every chapter-3 arm is tuned on.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Grid {
    /// Rates tried first, ascending (a hundred-fold span).
    pub lrs: [f64; 5],
    /// Tuning seeds `first..first + seeds`, disjoint from the reported seeds.
    pub first: u64,
    pub seeds: u64,
    /// How many times a grid may grow past an edge its best rate lies on.
    pub extend: usize,
}

/// The grid the book uses.
pub const GRID: Grid = Grid {
    lrs: [0.001, 0.003, 0.01, 0.03, 0.1],
    first: 1000,
    seeds: 3,
    extend: 3,
};

impl Grid {
    /// The tuning seeds.
    pub fn seeds(&self) -> Range<u64> {
        self.first..self.first + self.seeds
    }
}

/// `(mean final accuracy, mean final test loss)` of a rate's tuning runs.
pub type Score = (f64, f64);

/// Tune every arm: `run(arm, lr, seed)` trains one seed at one rate.
pub fn tune_arms<A: Sync>(
    grid: Grid,
    arms: &[A],
    run: impl Fn(&A, f64, u64) -> History + Sync,
) -> Vec<Tuned<Score>> {
    tune(
        arms,
        &grid.lrs,
        grid.seeds(),
        Extend::end_ratio(grid.extend),
        run,
        |hs: &[History]| {
            let acc: Vec<f64> = hs.iter().map(|h| h.final_accuracy).collect();
            let loss: Vec<f64> = hs
                .iter()
                .map(|h| h.test_loss[h.test_loss.len() - 1])
                .collect();
            (mean(&acc), mean(&loss))
        },
        |a: &Score, b: &Score| b.0 > a.0 || (b.0 == a.0 && b.1 < a.1),
    )
}

/// The grid's measures: its rates, its tuning seeds, and how many of
/// `tunings` grew past an edge.
pub fn measures(grid: Grid, tunings: &[&Tuned<Score>]) -> Vec<Measure> {
    let lrs = grid.lrs.map(significant);
    vec![
        Measure::new(
            "lr_extended",
            of_total(extended(tunings, grid), tunings.len(), "arms"),
        ),
        Measure::new("lr_grid", measure::grid(lrs)),
        Measure::new("lr_tuning_seeds", grid.seeds.to_string()),
        Measure::new("lr_first_tuning_seed", grid.first.to_string()),
    ]
}

/// A rate to three significant digits, trailing zeros dropped: `0.01`, `0.333`.
fn significant(lr: f64) -> String {
    let decimals = (2 - lr.log10().floor() as i32).max(0) as usize;
    let s = format!("{lr:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A chosen rate, as the prose quotes it.
pub fn rate(t: &Tuned<Score>) -> String {
    significant(t.lr)
}

/// How many of `tunings` had their grid extended past an edge.
pub fn extended(tunings: &[&Tuned<Score>], grid: Grid) -> usize {
    tunings
        .iter()
        .filter(|t| t.grid.len() > grid.lrs.len())
        .count()
}
