//! Chapter 3, trained: do two heads split two relations between them?
//!
//! The task needs two relations at once (`train::Relation::Both`): the answer
//! is the ordered pair of labels at the query's key and at its successor. One
//! layer of one head of width `D` and one layer of two heads of width `D/2`
//! (untied, same total width) are trained on it; at the end each head's
//! attention from the query is measured on the test set:
//!
//! ```text
//! mass[h] = ( mean a_h(query → position of q),  mean a_h(query → position of q + 1) )
//! ```
//! Introduced in chapter 3.

use crate::measure::{Measure, fixed, pm};
use crate::parallel;
use crate::stats::Summary;
use crate::train::tuning::Tuned;
use crate::train::{self, Config, Example, Model, Plateau, Qk, Relation, Schedule, Stop, Task};

use super::rates::{self, GRID, Grid, Score};

/// The task, how both models are trained, the training seeds per model,
/// the attention mass on one answer position from which a head counts
/// as reading that relation (and a looser one a referee might pick), and
/// the learning-rate grid.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// The two-relation task: `vocab²` ordered label pairs to tell apart.
    pub task: Task,
    /// The schedule; its `lr` is the snippet's, the book's runs use the
    /// tuned rates; its `steps` is the cap of the reported runs.
    pub schedule: Schedule,
    pub plateau: Plateau,
    /// The fixed budget of the tuning runs.
    pub budget: usize,
    pub seeds: u64,
    pub split: f64,
    pub loose_split: f64,
    pub grid: Grid,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    task: Task {
        relation: Relation::Both,
        vocab: 10,
        context: 4,
        d: 16,
        noise: 0.0,
        examples: None,
    },
    schedule: Schedule {
        steps: 4000,
        batch: 32,
        lr: 0.01,
        eval_every: 200,
        test: 200,
        threshold: 0.9,
    },
    plateau: Plateau {
        min_steps: 1000,
        ..Plateau::BOOK
    },
    budget: 2000,
    seeds: 10,
    split: 0.9,
    loose_split: 0.75,
    grid: GRID,
};

/// One trained model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Trained {
    /// Final test accuracy on the ordered pair.
    pub accuracy: f64,
    /// How its training stopped.
    pub stop: Stop,
    /// Per head, the mean attention mass on `[match, successor]`.
    pub mass: Vec<[f64; 2]>,
}

impl Trained {
    /// Whether the heads split the relations: one head puts at least `at`
    /// of its attention on the match and another on the successor.
    pub fn split(&self, at: f64) -> bool {
        let reads = |r: usize| self.mass.iter().position(|m| m[r] >= at);
        matches!((reads(0), reads(1)), (Some(a), Some(b)) if a != b)
    }
}

/// One layer of `heads` untied heads of width `task.d / heads`.
fn config(task: Task, heads: usize) -> Config {
    let width = task.d / heads;
    Config {
        heads,
        d_k: width,
        d_v: width,
        ..Config::single(task.d, task.classes(), Qk::Untied)
    }
}

/// Train one layer of `heads` untied heads of width `task.d / heads` from
/// `seed`, at the schedule's rate.
pub fn trained(setup: Setup, heads: usize, seed: u64) -> Trained {
    trained_at(setup, heads, setup.schedule.lr, seed)
}

/// [`trained`] at learning rate `lr`, to a plateau (the snippet's fixed
/// `schedule.steps` as the cap).
pub fn trained_at(setup: Setup, heads: usize, lr: f64, seed: u64) -> Trained {
    let task = setup.task;
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    let mut last: Option<(Model, Vec<Example>)> = None;
    let history = train::train_until(
        config(task, heads),
        task,
        schedule,
        Some(setup.plateau),
        seed,
        |_, model, test| last = Some((model.clone(), test.to_vec())),
    );
    let (model, test) = last.expect("at least one evaluation");
    let xs: Vec<_> = test.iter().map(|e| &e.x).collect();
    let fwd = model.forward_batch(&xs);
    // one layer: row b of the weights is example b's query
    let mass = (0..heads)
        .map(|h| {
            let w = fwd.weights(0, h);
            let mean = |r: usize| {
                test.iter()
                    .enumerate()
                    .map(|(b, e)| w[(b, e.pair[r])])
                    .sum::<f64>()
                    / test.len() as f64
            };
            [mean(0), mean(1)]
        })
        .collect();
    Trained {
        accuracy: history.final_accuracy,
        stop: history.stop,
        mass,
    }
}

/// Both models over seeds `0..setup.seeds`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// The tuning of one head and of two, in that order.
    pub tuning: Vec<Tuned<Score>>,
    /// One head of width `D`, per seed.
    pub one: Vec<Trained>,
    /// Two heads of width `D/2`, per seed.
    pub two: Vec<Trained>,
}

impl Findings {
    /// Tune both models, then train them on every seed at their rates.
    pub fn run(setup: Setup) -> Findings {
        let tuning = rates::tune_arms(setup.grid, &[1, 2], |&heads, lr, seed| {
            let schedule = Schedule {
                lr,
                steps: setup.budget,
                eval_every: setup.budget,
                ..setup.schedule
            };
            train::train(config(setup.task, heads), setup.task, schedule, seed)
        });
        let (lr1, lr2) = (tuning[0].lr, tuning[1].lr);
        Findings {
            setup,
            one: parallel::map(0..setup.seeds, |s| trained_at(setup, 1, lr1, s)),
            two: parallel::map(0..setup.seeds, |s| trained_at(setup, 2, lr2, s)),
            tuning,
        }
    }

    /// How many two-head models split the relations.
    pub fn splits(&self) -> usize {
        self.splits_at(self.setup.split)
    }

    /// How many two-head models split the relations at mass `at`.
    pub fn splits_at(&self, at: f64) -> usize {
        self.two.iter().filter(|t| t.split(at)).count()
    }

    /// How many runs of one head and of two heads hit the cap.
    pub fn capped(&self) -> (usize, usize) {
        let n = |runs: &[Trained]| runs.iter().filter(|t| t.stop.capped()).count();
        (n(&self.one), n(&self.two))
    }

    /// Over seeds, the larger and the smaller of the single head's two masses.
    pub fn single_mixture(&self) -> (Summary, Summary) {
        let side = |pick: fn(f64, f64) -> f64| {
            Summary::of(
                &self
                    .one
                    .iter()
                    .map(|t| pick(t.mass[0][0], t.mass[0][1]))
                    .collect::<Vec<_>>(),
            )
        };
        (side(f64::max), side(f64::min))
    }

    /// Over every head of the two-head models, the mass on the position it reads most.
    pub fn own_mass(&self) -> Summary {
        Summary::of(
            &self
                .two
                .iter()
                .flat_map(|t| t.mass.iter().map(|m| m[0].max(m[1])))
                .collect::<Vec<_>>(),
        )
    }
}

/// Accuracy summary of a model's runs.
pub fn accuracy(runs: &[Trained]) -> Summary {
    Summary::over(runs.iter().map(|t| t.accuracy))
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}

/// The numbers chapter 3 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (major, minor) = f.single_mixture();
    let Setup {
        task,
        schedule,
        seeds,
        split,
        ..
    } = BOOK;
    vec![
        Measure::new("both_vocab", task.vocab.to_string()),
        Measure::new("both_classes", task.classes().to_string()),
        Measure::new("both_context", task.context.to_string()),
        Measure::new("both_d", task.d.to_string()),
        Measure::new("both_half", (task.d / 2).to_string()),
        Measure::new("both_cap", schedule.steps.to_string()),
        Measure::new("both_budget", BOOK.budget.to_string()),
        Measure::new("both_min_steps", BOOK.plateau.min_steps.to_string()),
        Measure::new("both_capped_one", format!("{}/{seeds}", f.capped().0)),
        Measure::new("both_capped_two", format!("{}/{seeds}", f.capped().1)),
        Measure::new("both_loose_split_at", BOOK.loose_split.to_string()),
        Measure::new(
            "both_loose_splits",
            f.splits_at(BOOK.loose_split).to_string(),
        ),
        Measure::new("both_seeds", seeds.to_string()),
        Measure::new("both_split_at", split.to_string()),
        Measure::new("both_acc_one", pm(accuracy(&f.one), 2)),
        Measure::new("both_acc_two", pm(accuracy(&f.two), 2)),
        Measure::new("both_splits", f.splits().to_string()),
        Measure::new("both_own", pm(f.own_mass(), 2)),
        Measure::new("both_major", pm(major, 2)),
        Measure::new("both_minor", pm(minor, 2)),
        Measure::new("both_chance", fixed(1.0 / task.classes() as f64, 2)),
        Measure::new("both_lr_one", rates::rate(&f.tuning[0])),
        Measure::new("both_lr_two", rates::rate(&f.tuning[1])),
    ]
}
