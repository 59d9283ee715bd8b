//! Chapter 6: how each arm's learning rate is chosen — the grid, tried on
//! tuning seeds disjoint from the measurement seeds, scored and chosen by
//! [`crate::train::tuning`].

use crate::parallel;
use crate::train::tuning::{Rate, best};
use crate::train::{Qk, Relation, train};

use super::arm::{Variant, censored_steps, config, schedule, task};
use super::steps::Setup;

/// The tuning of one (relation, parameterisation): each grid learning rate's
/// median censored steps to threshold and mean final accuracy on the tuning seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tuning {
    pub relation: Relation,
    pub qk: Qk,
    /// One score per grid point.
    pub grid: Vec<Rate>,
    /// The chosen rate: fewest median steps, ties broken by higher accuracy ([`best`]).
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
            let grid: Vec<Rate> = setup
                .lrs
                .iter()
                .enumerate()
                .map(|(g, &lr)| Rate::of(lr, &tuned[(p * setup.lrs.len() + g) * per..][..per]))
                .collect();
            let chosen = best(&grid);
            Tuning {
                relation,
                qk,
                grid,
                lr: chosen.lr,
            }
        })
        .collect()
}
