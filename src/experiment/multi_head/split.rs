//! Chapter 3, trained: one layer of a fixed total width split into more and
//! narrower heads, trained on the match task — what the split costs.

use std::sync::OnceLock;

use crate::measure::{Measure, pm};
use crate::parallel;
use crate::stats::Summary;
use crate::train::{self, Config, Qk, Relation, Schedule, Task};

/// The splits `(heads, d_k = d_v)` of one total width, the task, the
/// schedule, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub splits: &'static [(usize, usize)],
    /// The recall task (chapter 6's `Match`): find the context position
    /// whose key equals the query, return its label.
    pub task: Task,
    pub schedule: Schedule,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    splits: &[(1, 8), (2, 4), (4, 2), (8, 1)],
    task: Task {
        relation: Relation::Match,
        vocab: 12,
        context: 6,
        d: 8,
        noise: 0.0,
        examples: None,
    },
    schedule: Schedule {
        steps: 300,
        batch: 8,
        lr: 0.03,
        eval_every: 300,
        test: 100,
        threshold: 0.9,
    },
    seeds: 8,
};

/// Test accuracy after training one layer of `heads` heads of width `d_k`
/// (total width `heads · d_k`) on `setup.task` from `seed`.
pub fn trained_split(setup: Setup, heads: usize, d_k: usize, seed: u64) -> f64 {
    let config = Config {
        d: setup.task.d,
        d_k,
        d_v: d_k,
        heads,
        layers: 1,
        qk: Qk::Untied,
        residual: false,
        self_attention: false,
        outputs: setup.task.vocab,
    };
    train::train(config, setup.task, setup.schedule, seed).final_accuracy
}

/// Trained accuracy of every split.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// Trained accuracy `[split][seed]` for `setup.splits`.
    pub accuracy: Vec<Vec<f64>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            accuracy: setup
                .splits
                .iter()
                .map(|&(h, d_k)| parallel::map(0..setup.seeds, |s| trained_split(setup, h, d_k, s)))
                .collect(),
        }
    }

    /// Trained accuracy of split `k`, over seeds.
    pub fn trained(&self, k: usize) -> Summary {
        Summary::of(&self.accuracy[k])
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(BOOK))
}

/// The numbers chapter 3 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (task, schedule) = (BOOK.task, BOOK.schedule);
    let mut m = vec![
        Measure::new("train_seeds", BOOK.seeds.to_string()),
        Measure::new("train_steps", schedule.steps.to_string()),
        Measure::new("train_context", task.context.to_string()),
        Measure::new("train_vocab", task.vocab.to_string()),
        Measure::new("train_d", task.d.to_string()),
        Measure::new("train_test", schedule.test.to_string()),
    ];
    for (k, (h, d_k)) in BOOK.splits.iter().enumerate() {
        m.push(Measure::new(
            format!("trained_{h}x{d_k}"),
            pm(f.trained(k), 2),
        ));
    }
    m
}
