//! Chapter 6: how each arm's learning rate is chosen — the grid, tried on
//! tuning seeds disjoint from the measurement seeds (`train::tuning`).

use crate::stats::{mean, median};
use crate::train::tuning::{best, sweep};
use crate::train::{Qk, Relation, train};

use super::arm::{Variant, censored_steps, config, schedule, task};
use super::steps::Setup;

/// The tuning of one (relation, parameterisation): each grid learning rate's
/// median censored steps to threshold and mean final accuracy on the tuning seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tuning {
    pub relation: Relation,
    pub qk: Qk,
    /// `(lr, median steps, mean final accuracy)` per grid point.
    pub grid: Vec<GridPoint>,
    /// The chosen rate: fewest median steps, ties broken by higher accuracy.
    pub lr: f64,
}

/// Tune every (relation, parameterisation) of `pairs` on the grid `setup.lrs`.
pub fn tune(setup: Setup, pairs: &[(Relation, Qk)]) -> Vec<Tuning> {
    let seeds = setup.tuning_seed..setup.tuning_seed + setup.tuning_seeds;
    grid(pairs, &setup.lrs, seeds, |(r, q), lr, seed| {
        let v = Variant::Clean;
        let h = train(
            config(setup, q, v),
            task(setup, r, v),
            schedule(setup, lr),
            seed,
        );
        (censored_steps(setup, &h), h.final_accuracy)
    })
    .into_iter()
    .zip(pairs)
    .map(|((grid, lr), &(relation, qk))| Tuning {
        relation,
        qk,
        grid,
        lr,
    })
    .collect()
}

/// One grid rate's `(lr, median censored steps, mean final accuracy)`.
pub type GridPoint = (f64, f64, f64);

/// Tune each of `arms` on the learning rates `lrs`: `run(arm, lr, seed)` trains
/// one tuning seed and returns its censored steps to threshold and final
/// accuracy. Per arm: `(lr, median steps, mean final accuracy)` per grid point,
/// and the chosen rate — fewest median steps, ties broken by higher accuracy.
/// Used by chapters 4 and 6.
pub fn grid<A: Copy + Sync>(
    arms: &[A],
    lrs: &[f64],
    seeds: std::ops::Range<u64>,
    run: impl Fn(A, f64, u64) -> (f64, f64) + Sync,
) -> Vec<(Vec<GridPoint>, f64)> {
    sweep(arms, lrs, seeds, |&a, lr, seed| run(a, lr, seed))
        .into_iter()
        .map(|per_rate| {
            let grid: Vec<GridPoint> = lrs
                .iter()
                .zip(&per_rate)
                .map(|(&lr, chunk)| {
                    let steps: Vec<f64> = chunk.iter().map(|c| c.0).collect();
                    let acc: Vec<f64> = chunk.iter().map(|c| c.1).collect();
                    (lr, median(&steps), mean(&acc))
                })
                .collect();
            let k = best(&grid, |a, b| b.1 < a.1 || (b.1 == a.1 && b.2 > a.2));
            (grid.clone(), grid[k].0)
        })
        .collect()
}
