//! Chapter 3, trained: one layer of a fixed total width split into more and
//! narrower heads, trained on the match task — what the split costs. Every
//! split is trained at its own tuned rate ([`super::rates`], chosen on the
//! fixed budget `budget`) until the plateau rule holds, with a step cap, so
//! that a narrow split that stays behind lacks capacity rather than learns
//! slower.

use crate::measure::{Measure, of_total, pm};
use crate::parallel;
use crate::stats::{Summary, mean};
use crate::train::tuning::Tuned;
use crate::train::{self, Config, History, Plateau, Qk, Relation, Schedule, Task, held};

use super::rates::{self, GRID, Grid, Score};

/// The splits `(heads, d_k = d_v)` of one total width, the task, the
/// schedule (its `steps` the cap), the plateau rule, the tuning budget, the
/// seeds and the rate grid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub splits: &'static [(usize, usize)],
    /// The recall task (chapter 6's `Match`): find the context position
    /// whose key equals the query, return its label.
    pub task: Task,
    /// The schedule; its `lr` is replaced by each split's tuned rate.
    pub schedule: Schedule,
    pub plateau: Plateau,
    /// The fixed budget of the tuning runs.
    pub budget: usize,
    pub seeds: u64,
    pub grid: Grid,
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
        steps: 6000,
        batch: 16,
        lr: 0.03,
        eval_every: 250,
        test: 500,
        threshold: 0.9,
    },
    plateau: Plateau {
        min_steps: 1500,
        ..Plateau::BOOK
    },
    budget: 6000,
    seeds: 20,
    grid: GRID,
};

/// The training history of one layer of `heads` heads of width `d_k`
/// (total width `heads · d_k`) on `setup.task` from `seed`, at rate `lr`,
/// to a plateau (`plateau: None`: the fixed schedule).
pub fn trained_split(
    setup: Setup,
    heads: usize,
    d_k: usize,
    lr: f64,
    seed: u64,
    plateau: Option<Plateau>,
) -> History {
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
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    train::train_until(config, setup.task, schedule, plateau, seed, |_, _, _| {})
}

/// The tuning and the trained accuracy curves of every split.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    /// Per split, its tuning.
    pub tuning: Vec<Tuned<Score>>,
    /// Test accuracy at every evaluation up to the cap (a run stopped at
    /// its plateau keeps its last value), `[split][seed][evaluation]`.
    pub curves: Vec<Vec<Vec<f64>>>,
    /// Per split, how many runs hit the cap before a plateau.
    pub capped: Vec<usize>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let tuning = rates::tune_arms(setup.grid, setup.splits, |&(h, d_k), lr, s| {
            let budget = Setup {
                schedule: Schedule {
                    steps: setup.budget,
                    eval_every: setup.budget,
                    ..setup.schedule
                },
                ..setup
            };
            trained_split(budget, h, d_k, lr, s, None)
        });
        let evaluations = setup.schedule.steps / setup.schedule.eval_every + 1;
        let (curves, capped) = setup
            .splits
            .iter()
            .zip(&tuning)
            .map(|(&(h, d_k), t)| {
                let runs = parallel::map(0..setup.seeds, |s| {
                    trained_split(setup, h, d_k, t.lr, s, Some(setup.plateau))
                });
                (
                    runs.iter()
                        .map(|r| held(&r.accuracy, evaluations))
                        .collect(),
                    train::capped(&runs),
                )
            })
            .unzip();
        Findings {
            tuning,
            curves,
            capped,
        }
    }

    /// Final trained accuracy of split `k`, over seeds.
    pub fn trained(&self, k: usize) -> Summary {
        Summary::of(
            &self.curves[k]
                .iter()
                .map(|c| c[c.len() - 1])
                .collect::<Vec<_>>(),
        )
    }

    /// Final accuracy of split `k` minus split `j`, paired by seed.
    pub fn gain(&self, k: usize, j: usize) -> Summary {
        Summary::of(
            &self.curves[k]
                .iter()
                .zip(&self.curves[j])
                .map(|(a, b)| a[a.len() - 1] - b[b.len() - 1])
                .collect::<Vec<_>>(),
        )
    }

    /// Mean accuracy of split `k` at evaluation `i`, over seeds.
    pub fn mean_at(&self, k: usize, i: usize) -> f64 {
        mean(&self.curves[k].iter().map(|c| c[i]).collect::<Vec<_>>())
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}

/// The numbers chapter 3 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (task, schedule) = (BOOK.task, BOOK.schedule);
    let mut m = vec![
        Measure::new("train_seeds", BOOK.seeds.to_string()),
        Measure::new("train_cap", schedule.steps.to_string()),
        Measure::new("train_min_steps", BOOK.plateau.min_steps.to_string()),
        Measure::new("train_batch", schedule.batch.to_string()),
        Measure::new("train_context", task.context.to_string()),
        Measure::new("train_vocab", task.vocab.to_string()),
        Measure::new("train_d", task.d.to_string()),
        Measure::new("train_test", schedule.test.to_string()),
        Measure::new(
            "train_capped",
            of_total(
                f.capped.iter().sum(),
                BOOK.splits.len() * BOOK.seeds as usize,
                "runs",
            ),
        ),
    ];
    for (k, (h, d_k)) in BOOK.splits.iter().enumerate() {
        m.push(Measure::new(
            format!("trained_{h}x{d_k}"),
            pm(f.trained(k), 2),
        ));
        m.push(Measure::new(
            format!("lr_{h}x{d_k}"),
            rates::rate(&f.tuning[k]),
        ));
    }
    m
}
