//! Chapter 5, along training: untied attention models trained from scratch
//! on a task where raw similarity is the right geometry (`Relation::Match`)
//! and one where it is not (`Relation::Successor`), each at a learning rate
//! tuned on disjoint seeds, to a plateau; at every checkpoint, how far each
//! head's scores are from raw similarity and how much accuracy is owed to
//! that mismatch ([`checkpoint`]); and, as the null, the same seeds trained
//! as long on shuffled labels and measured at the same checkpoints.

pub mod checkpoint;
mod report;
pub mod verdict;

pub use checkpoint::{Checkpoint, Swap};
pub use report::measures;
pub use verdict::{FAR, GRADUAL, Quantity, Trend, VERBS, claims, found, verbs};

use crate::parallel;
use crate::train::null::train_shuffled;
use crate::train::tuning::{Tuning, censored_steps, tune_steps};
use crate::train::{Config, History, Plateau, Qk, Relation, Schedule, Task, train, train_until};

/// Sizes, schedule, plateau rule, checkpoints, seeds and tuning.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// The task; its relation is set per arm.
    pub task: Task,
    /// Its `steps` is the cap, its `lr` unused (each arm uses its tuned rate).
    pub schedule: Schedule,
    pub plateau: Plateau,
    /// A checkpoint every this many steps (a multiple of `schedule.eval_every`), and at the end.
    pub every: usize,
    /// Reported seeds `0..seeds`, each also trained on shuffled labels.
    pub seeds: u64,
    /// The fixed budget the rates are tuned on.
    pub budget: usize,
    pub lrs: [f64; 5],
    /// Tuning seeds `tuning_seed..tuning_seed + tuning_seeds`, disjoint from the reported ones.
    pub tuning_seed: u64,
    pub tuning_seeds: u64,
    /// At most this many rates added beyond an edge of the grid.
    pub extensions: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    task: Task {
        relation: Relation::Match,
        vocab: 8,
        context: 4,
        d: 8,
        noise: 0.0,
        examples: None,
    },
    schedule: Schedule {
        steps: 6000,
        batch: 16,
        lr: 0.0,
        eval_every: 50,
        test: 200,
        threshold: 0.9,
    },
    plateau: Plateau {
        min_steps: 2000,
        ..Plateau::BOOK
    },
    every: 100,
    seeds: 16,
    budget: 1500,
    lrs: [0.003, 0.01, 0.03, 0.1, 0.3],
    tuning_seed: 1000,
    tuning_seeds: 4,
    extensions: 2,
};

/// The two untied models, in the book's order: a name and a config for a
/// task of width `d` and `vocab` classes. Every head is of full width, so
/// that any `(d, d)` form can be put in place of its `W_QK`.
pub fn architectures(d: usize, vocab: usize) -> [(&'static str, Config); 2] {
    let one = Config::single(d, vocab, Qk::Untied);
    [
        ("one head", one),
        (
            "two layers of two heads",
            Config {
                layers: 2,
                heads: 2,
                residual: true,
                self_attention: true,
                ..one
            },
        ),
    ]
}

/// One seed: the run to a plateau and its checkpoints, and the same seed
/// trained as long on shuffled labels with its checkpoints at the same steps.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub history: History,
    pub trained: Vec<Checkpoint>,
    pub null: Vec<Checkpoint>,
}

/// All seeds of one (relation, architecture).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Arm {
    pub relation: Relation,
    /// Index into [`architectures`].
    pub arch: usize,
    pub tuning: Tuning,
    pub runs: Vec<Run>,
}

/// Every arm, in the order relation-major ([`Relation::ALL`]) then architecture.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub arms: Vec<Arm>,
}

impl Setup {
    /// The task of `relation`.
    pub fn task(&self, relation: Relation) -> Task {
        Task {
            relation,
            ..self.task
        }
    }
}

/// Train one seed of `config` on `task` at `lr` to a plateau, with a
/// checkpoint every `setup.every` steps and at the end; then its null.
pub fn run(setup: Setup, config: Config, task: Task, lr: f64, seed: u64) -> Run {
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    let mut trained = Vec::new();
    // the last evaluation off the checkpoint grid: the plateau may stop there
    let mut last = None;
    let history = train_until(
        config,
        task,
        schedule,
        Some(setup.plateau),
        seed,
        |s, m, t| match s % setup.every {
            0 => trained.push(Checkpoint::of(s, m, t)),
            _ => last = Some((s, m.clone(), t.to_vec())),
        },
    );
    let end = history.end();
    if let Some((s, m, t)) = last.filter(|l| l.0 == end) {
        trained.push(Checkpoint::of(s, &m, &t));
    }
    let mut null = Vec::new();
    let steps = Schedule {
        steps: end,
        ..schedule
    };
    train_shuffled(config, task, steps, None, seed, |s, m, t| {
        if s % setup.every == 0 || s == end {
            null.push(Checkpoint::of(s, m, t));
        }
    });
    Run {
        history,
        trained,
        null,
    }
}

impl Findings {
    /// Tune every arm on the fixed budget, then train it on seeds `0..setup.seeds`.
    pub fn run(setup: Setup) -> Findings {
        let archs = architectures(setup.task.d, setup.task.vocab);
        let pairs: Vec<(Relation, usize)> = Relation::ALL
            .iter()
            .flat_map(|&r| (0..archs.len()).map(move |a| (r, a)))
            .collect();
        let tuning: Vec<Tuning> = pairs
            .iter()
            .map(|&(r, a)| {
                let seeds = setup.tuning_seed..setup.tuning_seed + setup.tuning_seeds;
                tune_steps(&setup.lrs, seeds, setup.extensions, |lr, seed| {
                    let schedule = Schedule {
                        lr,
                        steps: setup.budget,
                        ..setup.schedule
                    };
                    let h = train(archs[a].1, setup.task(r), schedule, seed);
                    (censored_steps(schedule, &h), h.final_accuracy)
                })
            })
            .collect();
        let seeds = setup.seeds;
        let mut runs = parallel::map(0..pairs.len() as u64 * seeds, |i| {
            let k = (i / seeds) as usize;
            let (r, a) = pairs[k];
            run(setup, archs[a].1, setup.task(r), tuning[k].lr, i % seeds)
        })
        .into_iter();
        let arms = pairs
            .iter()
            .zip(tuning)
            .map(|(&(relation, arch), tuning)| Arm {
                relation,
                arch,
                tuning,
                runs: runs.by_ref().take(seeds as usize).collect(),
            })
            .collect();
        Findings { setup, arms }
    }

    /// The arm of `relation` and architecture `arch`.
    pub fn arm(&self, relation: Relation, arch: usize) -> &Arm {
        self.arms
            .iter()
            .find(|a| a.relation == relation && a.arch == arch)
            .expect("every (relation, architecture) is trained")
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
