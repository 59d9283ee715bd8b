//! Chapter 6: how each arm's learning rate is chosen — the grid, tried on
//! tuning seeds disjoint from the measurement seeds.

use crate::parallel;
use crate::stats::{mean, median};
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
    pub grid: Vec<(f64, f64, f64)>,
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
    let jobs: Vec<(A, f64, u64)> = arms
        .iter()
        .flat_map(|&a| {
            let seeds = seeds.clone();
            lrs.iter()
                .flat_map(move |&lr| seeds.clone().map(move |s| (a, lr, s)))
        })
        .collect();
    let tuned = parallel::map(0..jobs.len() as u64, |i| {
        let (a, lr, seed) = jobs[i as usize];
        run(a, lr, seed)
    });
    let per = seeds.count();
    (0..arms.len())
        .map(|p| {
            let grid: Vec<GridPoint> = lrs
                .iter()
                .enumerate()
                .map(|(g, &lr)| {
                    let chunk = &tuned[(p * lrs.len() + g) * per..][..per];
                    let steps: Vec<f64> = chunk.iter().map(|c| c.0).collect();
                    let acc: Vec<f64> = chunk.iter().map(|c| c.1).collect();
                    (lr, median(&steps), mean(&acc))
                })
                .collect();
            let best = grid
                .iter()
                .cloned()
                .reduce(|a, b| {
                    if b.1 < a.1 || (b.1 == a.1 && b.2 > a.2) {
                        b
                    } else {
                        a
                    }
                })
                .expect("a non-empty grid");
            (grid, best.0)
        })
        .collect()
}
