//! Chapter 6: what it costs to learn a relation from scratch — steps to the
//! accuracy threshold for untied, tied, mimetic and identity query–key
//! forms, on a symmetric and a directional recall task, over many seeds,
//! each form at its own tuned learning rate.

use crate::parallel;
use crate::train::{Plateau, Qk, Relation, Schedule};

use super::arm::{Arm, Variant, run};
use super::tuning::{Tuning, tune};

/// Sizes and budgets of the chapter's experiments.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// Token width `d` (= `d_k` = `d_v`).
    pub d: usize,
    /// Keys and labels.
    pub vocab: usize,
    /// Context length.
    pub context: usize,
    /// The schedule of a tuning run: its `steps` the same fixed budget for
    /// every arm, its `lr` unused (each run is at the rate tried or tuned).
    pub schedule: Schedule,
    /// Step cap of a reported run, which trains until `plateau` holds.
    pub cap: usize,
    pub plateau: Plateau,
    /// Measurement seeds `0..seeds`.
    pub seeds: u64,
    /// Tuning seeds `tuning_seed..tuning_seed + tuning_seeds`, disjoint from the measurement seeds.
    pub tuning_seeds: u64,
    /// Fixed training-set sizes of the data sweep (besides fresh data every step).
    pub examples: [usize; 2],
    /// The learning-rate grid every arm is tuned on.
    pub lrs: [f64; 5],
    /// First tuning seed.
    pub tuning_seed: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    d: 12,
    vocab: 12,
    context: 5,
    schedule: Schedule {
        steps: 240,
        batch: 16,
        lr: 0.0,
        eval_every: 10,
        test: 96,
        threshold: 0.8,
    },
    cap: 720,
    plateau: Plateau {
        min_steps: 240,
        ..Plateau::BOOK
    },
    seeds: 20,
    tuning_seeds: 3,
    examples: [64, 256],
    lrs: [0.003, 0.01, 0.03, 0.1, 0.3],
    tuning_seed: 1000,
};

/// The tuning and every arm.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub tuning: Vec<Tuning>,
    pub arms: Vec<Arm>,
}

impl Findings {
    /// Tune, then run every arm at `setup`.
    pub fn run(setup: Setup) -> Findings {
        let pairs: Vec<(Relation, Qk)> = Relation::ALL
            .iter()
            .flat_map(|&r| Qk::ALL.iter().map(move |&q| (r, q)))
            .collect();
        let tuning = tune(setup, &pairs);
        let lr = |r: Relation, q: Qk| {
            tuning
                .iter()
                .find(|t| t.relation == r && t.qk == q)
                .expect("tuned")
                .lr
        };
        let mut arms: Vec<(Relation, Qk, Variant)> =
            pairs.iter().map(|&(r, q)| (r, q, Variant::Clean)).collect();
        for n in setup.examples {
            arms.extend(
                Qk::ALL
                    .iter()
                    .map(|&q| (Relation::Match, q, Variant::Examples(n))),
            );
        }
        arms.extend(
            Qk::ALL
                .iter()
                .map(|&q| (Relation::Match, q, Variant::TwoLayer)),
        );
        let jobs: Vec<(Relation, Qk, Variant, u64)> = arms
            .iter()
            .flat_map(|&(r, q, v)| (0..setup.seeds).map(move |s| (r, q, v, s)))
            .collect();
        let mut runs = parallel::map(0..jobs.len() as u64, |i| {
            let (r, q, v, s) = jobs[i as usize];
            run(setup, r, q, v, lr(r, q), s)
        })
        .into_iter();
        let arms = arms
            .iter()
            .map(|&(relation, qk, variant)| Arm {
                relation,
                qk,
                variant,
                lr: lr(relation, qk),
                runs: runs.by_ref().take(setup.seeds as usize).collect(),
            })
            .collect();
        Findings {
            setup,
            tuning,
            arms,
        }
    }

    /// The arm of a relation, parameterisation and variant.
    pub fn arm(&self, relation: Relation, qk: Qk, variant: Variant) -> &Arm {
        self.arms
            .iter()
            .find(|a| a.relation == relation && a.qk == qk && a.variant == variant)
            .expect("every arm is run")
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
