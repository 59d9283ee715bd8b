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
    let tuning_jobs: Vec<(Relation, Qk, f64, u64)> = pairs
        .iter()
        .flat_map(|&(r, q)| {
            setup.lrs.iter().flat_map(move |&lr| {
                (0..setup.tuning_seeds).map(move |s| (r, q, lr, setup.tuning_seed + s))
            })
        })
        .collect();
    let tuned = parallel::map(0..tuning_jobs.len() as u64, |i| {
        let (r, q, lr, seed) = tuning_jobs[i as usize];
        let v = Variant::Clean;
        let h = train(
            config(setup, q, v),
            task(setup, r, v),
            schedule(setup, lr),
            seed,
        );
        (censored_steps(setup, &h), h.final_accuracy)
    });
    let per = setup.tuning_seeds as usize;
    pairs
        .iter()
        .enumerate()
        .map(|(p, &(relation, qk))| {
            let grid: Vec<(f64, f64, f64)> = setup
                .lrs
                .iter()
                .enumerate()
                .map(|(g, &lr)| {
                    let chunk = &tuned[(p * setup.lrs.len() + g) * per..][..per];
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
            Tuning {
                relation,
                qk,
                grid,
                lr: best.0,
            }
        })
        .collect()
}
