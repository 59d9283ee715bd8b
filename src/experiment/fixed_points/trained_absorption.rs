//! Chapter 5, trained: do tied architectures absorb the directional
//! successor task by training, and how slowly? Five architectures trained
//! on the `train` module's recall task with `Relation::Successor`.

use std::sync::OnceLock;

use crate::experiment::cache;

use crate::measure::{Measure, fixed, pm};
use crate::parallel;
use crate::stats::Summary;
use crate::train::{Config, History, Qk, Relation, Schedule, Task, train};

/// The task, the schedule, the early checkpoint, the accuracy that counts
/// as solved, and the training seeds per architecture.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub task: Task,
    pub schedule: Schedule,
    /// By this step the untied head has learned the task.
    pub early: usize,
    pub solved: f64,
    pub seeds: u64,
}

/// The size the book reports: long enough for slow absorption to show.
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
        steps: 4000,
        batch: 16,
        lr: 0.01,
        eval_every: 100,
        test: 100,
        threshold: 0.9,
    },
    early: 300,
    solved: 0.99,
    seeds: 10,
};

/// The trained architectures, in the book's order: a name and a config.
pub fn architectures(task: Task) -> [(&'static str, Config); 5] {
    let tied = Config::single(task.d, task.vocab, Qk::Tied);
    [
        ("tied head", tied),
        (
            "+ residual",
            Config {
                residual: true,
                self_attention: true,
                ..tied
            },
        ),
        ("two tied heads", Config { heads: 2, ..tied }),
        (
            "two tied layers",
            Config {
                layers: 2,
                residual: true,
                self_attention: true,
                ..tied
            },
        ),
        (
            "untied head",
            Config {
                qk: Qk::Untied,
                ..tied
            },
        ),
    ]
}

/// The tied architectures and the untied head, as indices into [`architectures`].
pub const TIED: [usize; 4] = [0, 1, 2, 3];
/// See [`TIED`].
pub const UNTIED: usize = 4;

/// Measure keys of the trained architectures, in [`architectures`] order.
const KEYS: [&str; 5] = [
    "tied_head",
    "tied_residual",
    "two_heads",
    "two_layers",
    "untied_head",
];

/// Training histories of every architecture.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// `histories[architecture][seed]` (see [`architectures`]).
    pub histories: Vec<Vec<History>>,
}

impl Findings {
    /// Train every architecture on seeds `0..setup.seeds`.
    pub fn run(setup: Setup) -> Findings {
        let archs = architectures(setup.task);
        let seeds = setup.seeds;
        // job i trains architecture i / seeds on seed i % seeds
        let mut done = parallel::map(0..archs.len() as u64 * seeds, |i| {
            train(
                archs[(i / seeds) as usize].1,
                setup.task,
                setup.schedule,
                i % seeds,
            )
        });
        let mut histories = Vec::new();
        for _ in 0..archs.len() {
            histories.push(done.drain(..seeds as usize).collect());
        }
        Findings { setup, histories }
    }

    /// Test accuracy of architecture `a` after `step` Adam steps (an
    /// evaluation step of the schedule), over the training seeds.
    pub fn accuracy(&self, a: usize, step: usize) -> Summary {
        Summary::of(
            &self.histories[a]
                .iter()
                .map(|h| {
                    let k = h.steps.iter().position(|&s| s == step);
                    h.accuracy[k.expect("the step is an evaluation step")]
                })
                .collect::<Vec<_>>(),
        )
    }

    /// How many runs of the architectures `archs` end at test accuracy ≥ `setup.solved`.
    pub fn solved(&self, archs: impl IntoIterator<Item = usize>) -> usize {
        archs
            .into_iter()
            .flat_map(|a| &self.histories[a])
            .filter(|h| h.final_accuracy >= self.setup.solved)
            .count()
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| cache::load_or_run(module_path!(), &BOOK, || Findings::run(BOOK)))
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (task, schedule) = (BOOK.task, BOOK.schedule);
    let mut m = vec![
        Measure::new("train_seeds", BOOK.seeds.to_string()),
        Measure::new("train_steps", schedule.steps.to_string()),
        Measure::new("train_batch", schedule.batch.to_string()),
        Measure::new("train_vocab", task.vocab.to_string()),
        Measure::new("train_context", task.context.to_string()),
        Measure::new("train_chance", fixed(1.0 / task.vocab as f64, 3)),
        Measure::new("train_early", BOOK.early.to_string()),
        Measure::new("train_lr", schedule.lr.to_string()),
        Measure::new("solved", BOOK.solved.to_string()),
    ];
    for (a, key) in KEYS.iter().enumerate() {
        m.push(Measure::new(
            format!("trained_{key}"),
            pm(f.accuracy(a, BOOK.early), 2),
        ));
        m.push(Measure::new(
            format!("trained_{key}_final"),
            pm(f.accuracy(a, schedule.steps), 2),
        ));
    }
    m.extend([
        Measure::new("trained_tied_solved", f.solved(TIED).to_string()),
        Measure::new(
            "trained_tied_runs",
            (TIED.len() as u64 * BOOK.seeds).to_string(),
        ),
        Measure::new("trained_untied_solved", f.solved([UNTIED]).to_string()),
    ]);
    m
}
