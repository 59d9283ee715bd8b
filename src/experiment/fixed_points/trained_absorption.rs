//! Chapter 5, trained: do tied architectures absorb the directional
//! successor task by training, and how slowly? Five architectures (and one
//! control) trained on the `train` module's recall task with
//! `Relation::Successor`, each at a learning rate tuned on seeds disjoint
//! from the reported ones, until the plateau rule holds or the step cap is
//! reached, with the fixed-point residuals of the layers watched at every
//! evaluation ([`super::trained_residual`]) — and, as their null, the same
//! seeds trained on shuffled labels (`train::null`).

mod report;

pub use report::measures;

use crate::parallel;
use crate::stats::Summary;
use crate::train::null::train_shuffled;
use crate::train::tuning::{Tuning, censored_steps, tune_steps};
use crate::train::{
    Config, Example, History, Model, Plateau, Qk, Relation, Schedule, Task, capped, data_residual,
    output_residual, train, train_until, turn_residual,
};

/// The task, the schedule, the plateau rule, the early checkpoint, the
/// accuracy that counts as solved, the reported seeds and how the learning
/// rates are tuned.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub task: Task,
    /// The schedule; its `steps` is the cap, its `lr` unused (tuned runs use their own).
    pub schedule: Schedule,
    /// When a run has trained long enough.
    pub plateau: Plateau,
    /// The fixed budget the rates are tuned on (and the earlier protocol's).
    pub budget: usize,
    /// By this step the untied head has learned the task.
    pub early: usize,
    pub solved: f64,
    /// Reported seeds `0..seeds`.
    pub seeds: u64,
    /// Seeds `0..null_seeds` also trained on shuffled labels, as long as their run.
    pub null_seeds: u64,
    /// The learning-rate grid every arm is tuned on first.
    pub lrs: [f64; 5],
    /// Tuning seeds `tuning_seed..tuning_seed + tuning_seeds`, disjoint from the reported ones.
    pub tuning_seed: u64,
    pub tuning_seeds: u64,
    /// At most this many rates added beyond an edge of the grid.
    pub extensions: usize,
}

/// The size the book reports: a cap long enough for slow absorption to show.
pub const BOOK: Setup = Setup {
    task: Task {
        relation: Relation::Successor,
        vocab: 8,
        context: 4,
        d: 8,
        noise: 0.0,
        examples: None,
    },
    schedule: Schedule {
        steps: 10000,
        batch: 16,
        lr: 0.01,
        eval_every: 50,
        test: 400,
        threshold: 0.9,
    },
    plateau: Plateau {
        min_steps: 4000,
        ..Plateau::BOOK
    },
    budget: 4000,
    early: 400,
    solved: 0.99,
    seeds: 20,
    null_seeds: 8,
    lrs: [0.003, 0.01, 0.03, 0.1, 0.3],
    tuning_seed: 1000,
    tuning_seeds: 4,
    extensions: 3,
};

/// The residuals are measured every this many steps (a multiple of the
/// schedule's `eval_every`); a run's final residual is its last such one.
pub const RESIDUAL_EVERY: usize = 200;

/// How the tuning runs evaluate: every 100 steps on 100 held-out examples
/// (the earlier protocol's, so the tuned rates are those it chose).
pub const TUNING_EVAL: (usize, usize) = (100, 100);

/// The trained architectures, in the book's order: a name and a config.
/// The first five are the chapter's; the last is the control the previous
/// setup trained as "two tied heads" (no residual path, no self-attention,
/// so a head cannot abstain as the construction's heads do).
pub fn architectures(task: Task) -> [(&'static str, Config); 6] {
    let tied = Config::single(task.d, task.vocab, Qk::Tied);
    let residual = Config {
        residual: true,
        self_attention: true,
        ..tied
    };
    [
        ("tied head", tied),
        ("+ residual", residual),
        (
            "two tied heads",
            Config {
                heads: 2,
                ..residual
            },
        ),
        (
            "two tied layers",
            Config {
                layers: 2,
                ..residual
            },
        ),
        (
            "untied head",
            Config {
                qk: Qk::Untied,
                ..tied
            },
        ),
        ("two bare tied heads", Config { heads: 2, ..tied }),
    ]
}

/// The chapter's tied architectures and the untied head, as indices into [`architectures`].
pub const TIED: [usize; 4] = [0, 1, 2, 3];
/// See [`TIED`].
pub const UNTIED: usize = 4;
/// The two heads without residual path or self-attention (see [`architectures`]).
pub const BARE: usize = 5;
/// The chapter's five architectures (without the control).
pub const CHAPTER: [usize; 5] = [0, 1, 2, 3, 4];

/// Measure keys of the trained architectures, in [`architectures`] order.
pub const KEYS: [&str; 6] = [
    "tied_head",
    "tied_residual",
    "two_heads",
    "two_layers",
    "untied_head",
    "two_heads_bare",
];

/// The three fixed-point residuals of a model's layers on the test set, at
/// every evaluation: `data` r = ‖f(x) − x‖/‖x‖ ([`data_residual`]), `turn`
/// ρ = mean 1 − cos(f(x)_t, x_t) ([`turn_residual`]), `output`
/// q = ‖f(x) − x‖/‖f(x)‖ ([`output_residual`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Residuals {
    pub data: Vec<f64>,
    pub turn: Vec<f64>,
    pub output: Vec<f64>,
}

impl Residuals {
    fn watch(&mut self, model: &Model, test: &[Example]) {
        self.data.push(data_residual(model, test));
        self.turn.push(turn_residual(model, test));
        self.output.push(output_residual(model, test));
    }
}

/// One reported training run: its history, its residuals, and for seeds
/// below `null_seeds` the same seed trained on shuffled labels for as many
/// steps (no plateau rule: it has nothing to learn).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub history: History,
    pub residual: Residuals,
    pub null: Option<(History, Residuals)>,
}

/// The tuning and every run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// `tuning[architecture]`, on the fixed budget.
    pub tuning: Vec<Tuning>,
    /// `runs[architecture][seed]`, at the tuned rate, to a plateau or the cap.
    pub runs: Vec<Vec<Run>>,
}

/// One training run of `config` at `lr` to a plateau, watching the
/// residuals, and its null when `null` is set.
pub fn run(setup: Setup, config: Config, lr: f64, seed: u64, null: bool) -> Run {
    let mut residual = Residuals::default();
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    let history = train_until(
        config,
        setup.task,
        schedule,
        Some(setup.plateau),
        seed,
        |step, model, test| {
            if step % RESIDUAL_EVERY == 0 {
                residual.watch(model, test);
            }
        },
    );
    let null = null.then(|| {
        let mut r = Residuals::default();
        let steps = history.end();
        let schedule = Schedule { steps, ..schedule };
        let h = train_shuffled(config, setup.task, schedule, None, seed, |step, m, t| {
            if step % RESIDUAL_EVERY == 0 {
                r.watch(m, t);
            }
        });
        (h, r)
    });
    Run {
        history,
        residual,
        null,
    }
}

impl Findings {
    /// Tune every architecture on the fixed budget, then train it on seeds
    /// `0..setup.seeds` at its tuned rate to a plateau.
    pub fn run(setup: Setup) -> Findings {
        let archs = architectures(setup.task);
        let tuning: Vec<Tuning> = archs
            .iter()
            .map(|&(_, config)| {
                let seeds = setup.tuning_seed..setup.tuning_seed + setup.tuning_seeds;
                tune_steps(&setup.lrs, seeds, setup.extensions, |lr, seed| {
                    let schedule = Schedule {
                        lr,
                        steps: setup.budget,
                        eval_every: TUNING_EVAL.0,
                        test: TUNING_EVAL.1,
                        ..setup.schedule
                    };
                    let h = train(config, setup.task, schedule, seed);
                    (censored_steps(schedule, &h), h.final_accuracy)
                })
            })
            .collect();
        let (n, seeds) = (archs.len() as u64, setup.seeds);
        // job i: architecture i / seeds on seed i % seeds; the control has no null
        let mut runs = parallel::map(0..n * seeds, |i| {
            let (a, s) = ((i / seeds) as usize, i % seeds);
            let null = a != BARE && s < setup.null_seeds;
            run(setup, archs[a].1, tuning[a].lr, s, null)
        })
        .into_iter();
        let runs: Vec<Vec<Run>> = (0..n)
            .map(|_| runs.by_ref().take(seeds as usize).collect())
            .collect();
        Findings {
            setup,
            tuning,
            runs,
        }
    }

    /// The reported histories of architecture `a`, at its tuned rate.
    pub fn histories(&self, a: usize) -> impl Iterator<Item = &History> {
        self.runs[a].iter().map(|r| &r.history)
    }

    /// Test accuracy of architecture `a` after `step` Adam steps (a run
    /// stopped at its plateau keeps its last value), over the reported seeds.
    pub fn accuracy(&self, a: usize, step: usize) -> Summary {
        Summary::of(
            &self
                .histories(a)
                .map(|h| h.accuracy_at(step))
                .collect::<Vec<_>>(),
        )
    }

    /// Final test accuracy of architecture `a`, at its plateau or cap.
    pub fn final_accuracy(&self, a: usize) -> Summary {
        self.accuracy(a, self.setup.schedule.steps)
    }

    /// How many runs of architecture `a` hit the cap before a plateau.
    pub fn capped(&self, a: usize) -> usize {
        capped(self.histories(a))
    }

    /// Steps trained by architecture `a`'s runs, over seeds.
    pub fn trained_steps(&self, a: usize) -> Summary {
        Summary::of(
            &self
                .histories(a)
                .map(|h| h.end() as f64)
                .collect::<Vec<_>>(),
        )
    }

    /// The best tied architecture's mean accuracy minus the untied head's,
    /// at the plateau (`at = None`) or after `at` steps.
    pub fn gap(&self, at: Option<usize>) -> f64 {
        let at = |a| match at {
            None => self.final_accuracy(a).mean,
            Some(step) => self.accuracy(a, step).mean,
        };
        let best = TIED
            .iter()
            .map(|&a| at(a))
            .fold(f64::NEG_INFINITY, f64::max);
        best - at(UNTIED)
    }

    /// How many runs of the architectures `archs` end at test accuracy ≥ `setup.solved`.
    pub fn solved(&self, archs: impl IntoIterator<Item = usize>) -> usize {
        archs
            .into_iter()
            .flat_map(|a| self.histories(a))
            .filter(|h| h.final_accuracy >= self.setup.solved)
            .count()
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
