//! Chapter 3, trained: what a later layer does with an earlier head's output.
//!
//! Two layers of two heads with residual paths are trained on the two-hop
//! task (`train::Relation::TwoHop`: the label at the query's key names
//! another context key, whose label is the answer), which one layer cannot
//! solve. For each first-layer head, on the test set, its removal's direct
//! effect on the centred logits (the later layer as in the clean run) is set
//! against its total effect (the later layer recomputes), after McGrath et
//! al. 2023 and as `pretrained::intervention` does for MiniLM:
//!
//! ```text
//! change  c = ‖Δ_tot − Δ_dir‖ / ‖Δ_dir‖      the later layer's response, per unit of direct effect
//! repair  r = 1 − ⟨Δ_tot, Δ_dir⟩ / ‖Δ_dir‖²  r > 0: the later layer cancels, r < 0: amplifies
//! ```
//! (sums over test examples). Baseline: the same models at initialisation,
//! on the same test set. Introduced in chapter 3.

use nalgebra::DMatrix;

use crate::measure::{Measure, fixed, pm, share_of};
use crate::parallel;
use crate::stats::{Summary, share};
use crate::train::tuning::Tuned;
use crate::train::{self, Config, Example, Model, Plateau, Qk, Relation, Schedule, Stop, Task};

use super::rates::{self, GRID, Grid, Score};

/// The task, the model's heads per layer, the schedule, the plateau rule,
/// the seeds, the rate grid, and the change `c` beyond which a later layer
/// counts as acting on a head's output (the prediction, fixed before the run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub task: Task,
    pub heads: usize,
    /// The schedule; its `lr` is replaced by the tuned rate, its `steps` is
    /// the cap of the reported runs.
    pub schedule: Schedule,
    pub plateau: Plateau,
    /// The fixed budget of the tuning runs.
    pub budget: usize,
    pub seeds: u64,
    pub grid: Grid,
    pub change: f64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    task: Task {
        relation: Relation::TwoHop,
        vocab: 10,
        context: 5,
        d: 16,
        noise: 0.0,
        examples: None,
    },
    heads: 2,
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
    seeds: 16,
    grid: GRID,
    change: 0.5,
};

/// `layers` layers of `setup.heads` untied heads of width `d / heads`, residual paths.
pub fn config(setup: Setup, layers: usize) -> Config {
    let Task { d, .. } = setup.task;
    Config {
        heads: setup.heads,
        layers,
        d_k: d / setup.heads,
        d_v: d / setup.heads,
        residual: true,
        ..Config::single(d, setup.task.classes(), Qk::Untied)
    }
}

/// One first-layer head's removal, pooled over the test set.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Effect {
    /// `‖Δ_dir‖` (root mean square over examples).
    pub direct: f64,
    /// `‖Δ_tot‖` (root mean square over examples).
    pub total: f64,
    /// `c = ‖Δ_tot − Δ_dir‖ / ‖Δ_dir‖`.
    pub change: f64,
    /// `r = 1 − ⟨Δ_tot, Δ_dir⟩ / ‖Δ_dir‖²`.
    pub repair: f64,
}

/// `m` with each row's mean subtracted (the logits' softmax-invariant part removed).
fn centred(m: &DMatrix<f64>) -> DMatrix<f64> {
    let mut c = m.clone();
    for mut row in c.row_iter_mut() {
        let mean = row.mean();
        row.add_scalar_mut(-mean);
    }
    c
}

/// The effect of removing each first-layer head of `model` on `test`.
pub fn effects(model: &Model, test: &[Example]) -> Vec<Effect> {
    let xs: Vec<&DMatrix<f64>> = test.iter().map(|e| &e.x).collect();
    let n = test.len() as f64;
    (0..model.config.heads)
        .map(|h| {
            let e = model.head_effects(&xs, 0, h);
            let (dir, tot) = (centred(&e.direct), centred(&e.total));
            let dd = dir.norm_squared();
            Effect {
                direct: (dd / n).sqrt(),
                total: (tot.norm_squared() / n).sqrt(),
                change: (&tot - &dir).norm() / dd.sqrt(),
                repair: 1.0 - tot.dot(&dir) / dd,
            }
        })
        .collect()
}

/// One seed: the model's accuracy, how its training stopped, and its
/// first-layer heads' effects at initialisation and after training.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub accuracy: f64,
    pub stop: Stop,
    pub init: Vec<Effect>,
    pub trained: Vec<Effect>,
}

impl Run {
    /// The head whose removal changes the trained model's logits most (largest total effect).
    fn key_head(effects: &[Effect]) -> Effect {
        *effects
            .iter()
            .max_by(|a, b| a.total.total_cmp(&b.total))
            .expect("at least one head")
    }

    /// The trained model's most important first-layer head.
    pub fn trained_key(&self) -> Effect {
        Run::key_head(&self.trained)
    }

    /// The initial model's most important first-layer head.
    pub fn init_key(&self) -> Effect {
        Run::key_head(&self.init)
    }
}

/// Train the two-layer model from `seed` at `lr` to a plateau, measuring
/// effects at step 0 and at the last evaluation.
pub fn run(setup: Setup, lr: f64, seed: u64) -> Run {
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    let mut init = Vec::new();
    let mut last: Option<(Model, Vec<Example>)> = None;
    let h = train::train_until(
        config(setup, 2),
        setup.task,
        schedule,
        Some(setup.plateau),
        seed,
        |step, m, test| {
            if step == 0 {
                init = effects(m, test);
            }
            last = Some((m.clone(), test.to_vec()));
        },
    );
    let (model, test) = last.expect("at least one evaluation");
    Run {
        accuracy: h.final_accuracy,
        stop: h.stop,
        init,
        trained: effects(&model, &test),
    }
}

/// The tuning, every seed of the two-layer model, and the one-layer model's accuracy.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    /// Tuning of the two-layer model, then of the one-layer model (on the fixed budget).
    pub tuning: Vec<Tuned<Score>>,
    pub runs: Vec<Run>,
    /// Final accuracy of one layer of the same heads, per seed, and how it stopped.
    pub one_layer: Vec<(f64, Stop)>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let schedule = |lr| Schedule {
            lr,
            ..setup.schedule
        };
        let tuning = rates::tune_arms(setup.grid, &[2, 1], |&layers, lr, s| {
            let budget = Schedule {
                steps: setup.budget,
                eval_every: setup.budget,
                ..schedule(lr)
            };
            train::train(config(setup, layers), setup.task, budget, s)
        });
        let (lr2, lr1) = (tuning[0].lr, tuning[1].lr);
        Findings {
            runs: parallel::map(0..setup.seeds, |s| run(setup, lr2, s)),
            one_layer: parallel::map(0..setup.seeds, |s| {
                let h = train::train_to_plateau(
                    config(setup, 1),
                    setup.task,
                    schedule(lr1),
                    setup.plateau,
                    s,
                );
                (h.final_accuracy, h.stop)
            }),
            tuning,
        }
    }

    /// How many runs of the two-layer and of the one-layer model hit the cap.
    pub fn capped(&self) -> (usize, usize) {
        (
            self.runs.iter().filter(|r| r.stop.capped()).count(),
            self.one_layer.iter().filter(|r| r.1.capped()).count(),
        )
    }

    /// Share of (seed, first-layer head) pairs whose trained change exceeds
    /// the same head's change at initialisation.
    pub fn every_head_beyond_init(&self) -> f64 {
        share(self.runs.iter().flat_map(|r| {
            r.trained
                .iter()
                .zip(&r.init)
                .map(|(t, i)| t.change > i.change)
        }))
    }

    /// Share of seeds whose key head's change exceeds `at`, trained and at initialisation.
    pub fn changed(&self, at: f64) -> (f64, f64) {
        (
            share(self.runs.iter().map(|r| r.trained_key().change > at)),
            share(self.runs.iter().map(|r| r.init_key().change > at)),
        )
    }

    /// Share of seeds whose trained key head changes more than the same seed's initial one.
    pub fn beyond_init(&self) -> f64 {
        share(
            self.runs
                .iter()
                .map(|r| r.trained_key().change > r.init_key().change),
        )
    }

    /// Share of seeds whose trained key head's total effect exceeds its direct one (amplified).
    pub fn amplified(&self) -> f64 {
        share(
            self.runs
                .iter()
                .map(|r| r.trained_key().total > r.trained_key().direct),
        )
    }

    /// A statistic of the key heads over seeds, trained or at initialisation.
    pub fn key(&self, trained: bool, f: fn(&Effect) -> f64) -> Summary {
        Summary::of(
            &self
                .runs
                .iter()
                .map(|r| {
                    f(&if trained {
                        r.trained_key()
                    } else {
                        r.init_key()
                    })
                })
                .collect::<Vec<_>>(),
        )
    }

    /// Accuracy of the two-layer model, over seeds.
    pub fn accuracy(&self) -> Summary {
        Summary::over(self.runs.iter().map(|r| r.accuracy))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}

/// The numbers chapter 3 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (trained, init) = f.changed(BOOK.change);
    let Task {
        vocab, context, d, ..
    } = BOOK.task;
    let stat = |t: bool, g: fn(&Effect) -> f64| pm(f.key(t, g), 2);
    vec![
        Measure::new("hop_vocab", vocab.to_string()),
        Measure::new("hop_context", context.to_string()),
        Measure::new("hop_d", d.to_string()),
        Measure::new("hop_heads", BOOK.heads.to_string()),
        Measure::new("hop_width", (d / BOOK.heads).to_string()),
        Measure::new("hop_seeds", BOOK.seeds.to_string()),
        Measure::new("hop_test", BOOK.schedule.test.to_string()),
        Measure::new("hop_change_at", fixed(BOOK.change, 2)),
        Measure::new("hop_chance", fixed(1.0 / vocab as f64, 2)),
        Measure::new("hop_acc_two", pm(f.accuracy(), 2)),
        Measure::new(
            "hop_acc_one",
            pm(Summary::over(f.one_layer.iter().map(|r| r.0)), 2),
        ),
        Measure::new("hop_cap", BOOK.schedule.steps.to_string()),
        Measure::new("hop_budget", BOOK.budget.to_string()),
        Measure::new("hop_min_steps", BOOK.plateau.min_steps.to_string()),
        Measure::new("hop_capped_two", format!("{}/{}", f.capped().0, BOOK.seeds)),
        Measure::new("hop_capped_one", format!("{}/{}", f.capped().1, BOOK.seeds)),
        Measure::new(
            "hop_every_head_beyond_init",
            fixed(f.every_head_beyond_init(), 2),
        ),
        Measure::new("hop_lr_two", rates::rate(&f.tuning[0])),
        Measure::new("hop_lr_one", rates::rate(&f.tuning[1])),
        Measure::new("hop_changed", fixed(trained, 2)),
        Measure::new("hop_changed_init", fixed(init, 2)),
        Measure::new("hop_changed_init_seeds", share_of(init, "seeds")),
        Measure::new("hop_beyond_init", share_of(f.beyond_init(), "seeds")),
        Measure::new("hop_amplified", share_of(f.amplified(), "seeds")),
        Measure::new("hop_direct", stat(true, |e| e.direct)),
        Measure::new("hop_total", stat(true, |e| e.total)),
        Measure::new("hop_change", stat(true, |e| e.change)),
        Measure::new("hop_repair", stat(true, |e| e.repair)),
        Measure::new("hop_direct_init", stat(false, |e| e.direct)),
        Measure::new("hop_total_init", stat(false, |e| e.total)),
        Measure::new("hop_change_init", stat(false, |e| e.change)),
        Measure::new("hop_repair_init", stat(false, |e| e.repair)),
    ]
}
