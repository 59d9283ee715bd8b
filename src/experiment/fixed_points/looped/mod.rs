//! Chapter 5, looped: a weight-tied attention block trained here to be
//! iterated (`looped`), the prompt injected at every iteration as
//! its boundary condition, read out after `K` iterations. Does training
//! lower the fixed-point residual at the trained depth, does the iterate
//! settle past it, and does the state it settles at move with the prompt?
//!
//! ```text
//! r_k(x) = ‖f_θ(Z_k; X) − Z_k‖_F / ‖Z_k‖_F = ‖Z_{k+1} − Z_k‖ / ‖Z_k‖     per prompt x, k = 0 … 4K
//! arms: trained (tuned rate, to a plateau), its initialisation, and the same seed
//!       trained as long on shuffled labels (the null); with and without injection
//! settled state Z* = Z_{4K};  separation = median_{a≠b} ‖z*_a − z*_b‖ / median_a ‖f(z*_a) − z*_a‖
//!                                        (query rows of consecutive test prompts)
//! ```
//! `r_k` is `fixed_point::residual` on the iterates of a block trained to be
//! iterated: every row of `Z_k` has norm `√d`, so it is scale-invariant by
//! construction. The chapter's other residuals differ in what they iterate:
//! `fixed_point` iterates random tied layers; `train::turn_residual` and
//! `train::output_residual` ([`super::trained_residual`]) compare a trained
//! stack's output with its input (`z = x`), a data-level residual with no
//! iteration. Introduced in chapter 5.

pub mod verdict;

pub use verdict::{Arm, Depth, claims, measures};

use nalgebra::DMatrix;

use crate::fixed_point::residual;
use crate::looped::{Injection, LoopConfig, Looped, train_looped};
use crate::parallel;
use crate::stats::median;
use crate::train::tuning::{Tuning, censored_steps, tune_steps};
use crate::train::{Example, History, Plateau, Relation, Schedule, Task};

/// The task, the block, the schedule, the plateau rule, the seeds, the
/// tuning and how far past the trained depth the iterate is followed.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub task: Task,
    pub heads: usize,
    /// The trained depth `K`.
    pub iterations: usize,
    /// The schedule; `steps` is the cap, `lr` replaced by the tuned rate.
    pub schedule: Schedule,
    pub plateau: Plateau,
    /// Reported seeds `0..seeds`.
    pub seeds: u64,
    /// The iterate is followed to `past · K` iterations.
    pub past: usize,
    /// Learning-rate grid, tuning budget (steps), tuning seeds, extensions past an edge.
    pub lrs: [f64; 3],
    pub budget: usize,
    pub tuning_seed: u64,
    pub tuning_seeds: u64,
    pub extensions: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    task: Task {
        relation: Relation::TwoHop,
        vocab: 8,
        context: 4,
        d: 16,
        noise: 0.0,
        examples: None,
    },
    heads: 2,
    iterations: 3,
    schedule: Schedule {
        steps: 8000,
        batch: 32,
        lr: 0.003,
        eval_every: 100,
        test: 200,
        threshold: 0.9,
    },
    plateau: Plateau {
        min_steps: 3000,
        ..Plateau::BOOK
    },
    seeds: 8,
    past: 4,
    lrs: [0.001, 0.003, 0.01],
    budget: 2000,
    tuning_seed: 1000,
    tuning_seeds: 2,
    extensions: 1,
};

/// The two injections, in the book's order: the default, then the choice.
pub const INJECTIONS: [Injection; 2] = [Injection::Input, Injection::None];

impl Setup {
    /// The block trained under `injection`.
    pub fn config(&self, injection: Injection) -> LoopConfig {
        LoopConfig {
            d: self.task.d,
            d_k: self.task.d / self.heads,
            heads: self.heads,
            iterations: self.iterations,
            injection,
            outputs: self.task.classes(),
        }
    }

    /// The last iteration followed, `past · K`.
    pub fn horizon(&self) -> usize {
        self.past * self.iterations
    }
}

/// What one block does on the held-out prompts when iterated to `past · K`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reading {
    /// Median over prompts of `r_k`, `k = 0 … past·K`.
    pub curve: Vec<f64>,
    /// `r_K` of every prompt.
    pub at_depth: Vec<f64>,
    /// `r_{past·K}` of every prompt.
    pub past: Vec<f64>,
    /// Whether the readout at `Z_K` answers each prompt.
    pub correct: Vec<bool>,
    /// Accuracy of the readout at every iterate, `k = 0 … past·K`.
    pub accuracy: Vec<f64>,
    /// Median distance between settled query rows of consecutive prompts,
    /// over the median query-row residual there.
    pub separation: f64,
}

/// Iterate `block` on every prompt of `test` to `horizon` and read it.
///
/// # Panics
/// If `test` has fewer than two prompts.
pub fn read(block: &Looped, test: &[Example], horizon: usize) -> Reading {
    assert!(
        test.len() >= 2,
        "looped::read: need two prompts, got {}",
        test.len()
    );
    let depth = block.config.iterations;
    // per prompt: Z_0 … Z_{horizon+1}
    let runs: Vec<Vec<DMatrix<f64>>> = test
        .iter()
        .map(|e| block.iterates(&e.x, horizon + 1))
        .collect();
    let r = |zs: &Vec<DMatrix<f64>>, k: usize| residual(&zs[k + 1], &zs[k]);
    let hit = |zs: &Vec<DMatrix<f64>>, e: &Example, k: usize| {
        // the first largest probability, as `LoopForward::predicted`
        let p = block.probabilities(&zs[k]);
        (0..p.len()).fold(0, |best, i| if p[i] > p[best] { i } else { best }) == e.target
    };
    let curve = (0..=horizon)
        .map(|k| median(&runs.iter().map(|zs| r(zs, k)).collect::<Vec<_>>()))
        .collect();
    let accuracy = (0..=horizon)
        .map(|k| {
            let hits = runs
                .iter()
                .zip(test)
                .filter(|(zs, e)| hit(zs, e, k))
                .count();
            hits as f64 / test.len() as f64
        })
        .collect();
    // query rows of the settled state Z* and of f(Z*)
    let t = test[0].x.nrows();
    let settled: Vec<_> = runs
        .iter()
        .map(|zs| zs[horizon].row(t - 1).into_owned())
        .collect();
    let moved: Vec<f64> = runs
        .iter()
        .map(|zs| (zs[horizon + 1].row(t - 1) - zs[horizon].row(t - 1)).norm())
        .collect();
    let apart: Vec<f64> = settled.windows(2).map(|w| (&w[1] - &w[0]).norm()).collect();
    Reading {
        curve,
        at_depth: runs.iter().map(|zs| r(zs, depth)).collect(),
        past: runs.iter().map(|zs| r(zs, horizon)).collect(),
        correct: runs
            .iter()
            .zip(test)
            .map(|(zs, e)| hit(zs, e, depth))
            .collect(),
        accuracy,
        separation: median(&apart) / median(&moved).max(f64::MIN_POSITIVE),
    }
}

/// One seed under one injection: the trained block, its initialisation, its null.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub history: History,
    pub trained: Reading,
    pub init: Reading,
    /// The same seed trained as many steps on shuffled labels.
    pub null_history: History,
    pub null: Reading,
}

/// Train `config` at `lr` from `seed` to a plateau, then its null as long,
/// and read the block at initialisation, trained, and trained on shuffled labels.
pub fn run(setup: Setup, config: LoopConfig, lr: f64, seed: u64) -> Run {
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    let horizon = setup.horizon();
    let (mut init, mut last) = (None, None);
    let history = train_looped(
        config,
        setup.task,
        schedule,
        Some(setup.plateau),
        seed,
        false,
        |step, block, test| {
            if step == 0 {
                init = Some(read(block, test, horizon));
            }
            last = Some((block.clone(), test.to_vec()));
        },
    );
    let (block, test) = last.expect("at least one evaluation");
    let trained = read(&block, &test, horizon);
    let steps = Schedule {
        steps: history.end(),
        ..schedule
    };
    let mut null = None;
    let null_history = train_looped(config, setup.task, steps, None, seed, true, |_, b, _| {
        null = Some(b.clone())
    });
    Run {
        history,
        trained,
        init: init.expect("step 0 is evaluated"),
        null: read(&null.expect("at least one evaluation"), &test, horizon),
        null_history,
    }
}

/// The tuning and every run, per injection.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// `tuning[injection]`, on the fixed budget.
    pub tuning: Vec<Tuning>,
    /// `runs[injection][seed]`.
    pub runs: Vec<Vec<Run>>,
}

impl Findings {
    /// Tune each injection's rate on the budget, then train seeds `0..seeds` at it.
    pub fn run(setup: Setup) -> Findings {
        let tuning: Vec<Tuning> = INJECTIONS
            .iter()
            .map(|&inj| {
                let seeds = setup.tuning_seed..setup.tuning_seed + setup.tuning_seeds;
                tune_steps(&setup.lrs, seeds, setup.extensions, |lr, seed| {
                    let schedule = Schedule {
                        lr,
                        steps: setup.budget,
                        ..setup.schedule
                    };
                    let h = train_looped(
                        setup.config(inj),
                        setup.task,
                        schedule,
                        None,
                        seed,
                        false,
                        |_, _, _| {},
                    );
                    (censored_steps(schedule, &h), h.final_accuracy)
                })
            })
            .collect();
        let seeds = setup.seeds;
        // job i: injection i / seeds on seed i % seeds
        let mut done = parallel::map(0..INJECTIONS.len() as u64 * seeds, |i| {
            let a = (i / seeds) as usize;
            run(setup, setup.config(INJECTIONS[a]), tuning[a].lr, i % seeds)
        })
        .into_iter();
        let runs = INJECTIONS
            .iter()
            .map(|_| done.by_ref().take(seeds as usize).collect())
            .collect();
        Findings {
            setup,
            tuning,
            runs,
        }
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
