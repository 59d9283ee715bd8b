//! Training attention from scratch: a small model with hand-written
//! gradients, seeded recall tasks, Adam, and a finite-difference check.
//!
//! The book's only training code. [`train`] runs one seeded training run
//! and returns its [`History`]; [`train_observed`] also calls a hook at
//! every evaluation, to look at `W_Q W_Kᵀ` or the scores while they learn;
//! [`tuning`] chooses a learning rate on tuning seeds.
//!
//! ```text
//! for step in 1..=steps:
//!     batch ← B examples (from the fixed training set, or fresh)
//!     θ ← Adam(θ, ∇ mean cross-entropy)
//!     every eval_every steps: loss and accuracy on a held-out test set
//! ```
//! Introduced in chapter 6.

mod ablation;
mod adam;
mod backward;
mod check;
mod curve;
mod model;
pub mod null;
mod plateau;
mod residual;
mod settled;
mod states;
mod task;
pub mod tuning;

pub use ablation::Effects;
pub use adam::Adam;
pub use check::{TensorCheck, check_tensors, gradient_check};
pub use curve::{capped, held};
pub use model::{Config, Forward, HeadParams, Model, Qk};
pub use plateau::{Plateau, Stop};
pub use residual::{output_residual, turn_residual};
pub use settled::{Outcome, Rule, Settled};
pub use states::data_residual;
pub use task::{Cue, Example, Relation, Task, World};

use nalgebra::DMatrix;
use rand::RngExt;

use crate::random::seeded;

/// How long and how fast to train, and how to judge it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    /// Number of Adam steps.
    pub steps: usize,
    /// Examples per step.
    pub batch: usize,
    /// Adam learning rate.
    pub lr: f64,
    /// Evaluate every this many steps (and at step 0).
    pub eval_every: usize,
    /// Size of the held-out test set.
    pub test: usize,
    /// Test accuracy that counts as learned.
    pub threshold: f64,
}

/// What one training run measured. Index `i` of each curve is step `steps[i]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct History {
    /// The evaluation steps `0, eval_every, …, steps`.
    pub steps: Vec<usize>,
    /// Mean training loss since the previous evaluation (at step 0: on the first batch, before any update).
    pub train_loss: Vec<f64>,
    /// Test cross-entropy.
    pub test_loss: Vec<f64>,
    /// Test accuracy.
    pub accuracy: Vec<f64>,
    /// First evaluation step with test accuracy ≥ threshold, if any.
    pub steps_to_threshold: Option<usize>,
    /// Test accuracy after the last step.
    pub final_accuracy: f64,
    /// How the run ended: a fixed schedule, a plateau, or the step cap.
    pub stop: Stop,
}

/// Test cross-entropy and accuracy of `model` on `examples`.
pub fn evaluate(model: &Model, examples: &[Example]) -> (f64, f64) {
    let xs: Vec<&DMatrix<f64>> = examples.iter().map(|e| &e.x).collect();
    let targets: Vec<usize> = examples.iter().map(|e| e.target).collect();
    let fwd = model.forward_batch(&xs);
    let hits = fwd
        .predicted()
        .iter()
        .zip(&targets)
        .filter(|(p, t)| p == t)
        .count();
    let n = examples.len() as f64;
    (
        fwd.losses(&targets).iter().sum::<f64>() / n,
        hits as f64 / n,
    )
}

/// Train a `config` model on `task` for `schedule`, from `seed` (embeddings,
/// data, initialisation and batches all come from it).
///
/// ```
/// use attention_geometry::train::{Config, Qk, Relation, Schedule, Task, train};
/// let task = Task { relation: Relation::Match, vocab: 8, context: 4, d: 8, noise: 0.0, examples: None };
/// let schedule = Schedule { steps: 60, batch: 8, lr: 0.03, eval_every: 20, test: 64, threshold: 0.9 };
/// let h = train(Config::single(8, 8, Qk::Identity), task, schedule, 0);
/// assert_eq!(h.steps, vec![0, 20, 40, 60]);
/// assert!(h.final_accuracy > h.accuracy[0]);
/// ```
pub fn train(config: Config, task: Task, schedule: Schedule, seed: u64) -> History {
    train_observed(config, task, schedule, seed, |_, _, _| {})
}

/// [`train`] until `plateau` holds, with `schedule.steps` as the step cap.
///
/// ```
/// use attention_geometry::train::{Config, Plateau, Qk, Relation, Schedule, Task, train_to_plateau};
/// let task = Task { relation: Relation::Match, vocab: 8, context: 4, d: 8, noise: 0.0, examples: None };
/// let cap = Schedule { steps: 4000, batch: 8, lr: 0.03, eval_every: 50, test: 64, threshold: 0.9 };
/// let h = train_to_plateau(Config::single(8, 8, Qk::Identity), task, cap, Plateau::BOOK.after(500), 0);
/// assert!(!h.stop.capped());
/// assert!(*h.steps.last().unwrap() < 4000);
/// ```
pub fn train_to_plateau(
    config: Config,
    task: Task,
    schedule: Schedule,
    plateau: Plateau,
    seed: u64,
) -> History {
    train_until(config, task, schedule, Some(plateau), seed, |_, _, _| {})
}

/// [`train`], calling `observe(step, model, test_set)` at every evaluation.
///
/// # Panics
/// If the model's width or outputs do not fit the task, or a schedule size is zero.
pub fn train_observed(
    config: Config,
    task: Task,
    schedule: Schedule,
    seed: u64,
    observe: impl FnMut(usize, &Model, &[Example]),
) -> History {
    train_until(config, task, schedule, None, seed, observe)
}

/// [`train_observed`], stopping early once `plateau` holds (`schedule.steps`
/// is then the cap).
pub fn train_until(
    config: Config,
    task: Task,
    schedule: Schedule,
    plateau: Option<Plateau>,
    seed: u64,
    observe: impl FnMut(usize, &Model, &[Example]),
) -> History {
    run(config, task, schedule, plateau, seed, None, observe)
}

/// The training loop behind [`train_until`] and [`null::train_shuffled`]:
/// with `shuffle`, every training target is replaced by a label drawn from
/// that generator (the data, initialisation and batches stay those of `seed`).
fn run(
    config: Config,
    task: Task,
    schedule: Schedule,
    plateau: Option<Plateau>,
    seed: u64,
    mut shuffle: Option<crate::random::Rng>,
    mut observe: impl FnMut(usize, &Model, &[Example]),
) -> History {
    assert!(
        config.d == task.d && config.outputs == task.classes(),
        "train: the model is {} wide with {} outputs but the task has width {} and {} classes",
        config.d,
        config.outputs,
        task.d,
        task.classes()
    );
    assert!(
        schedule.batch > 0 && schedule.eval_every > 0 && schedule.test > 0,
        "train: batch, eval_every and test must be positive, got {schedule:?}"
    );
    let mut rng = seeded(seed);
    let world = task.world(&mut rng);
    let test = world.examples(&mut rng, schedule.test);
    let fixed = task.examples.map(|n| world.examples(&mut rng, n.max(1)));
    let mut model = Model::init(config, &mut rng);
    let mut adam = Adam::new(schedule.lr);
    let mut h = History {
        steps: Vec::new(),
        train_loss: Vec::new(),
        test_loss: Vec::new(),
        accuracy: Vec::new(),
        steps_to_threshold: None,
        final_accuracy: 0.0,
        stop: match plateau {
            Some(_) => Stop::Capped,
            None => Stop::Fixed,
        },
    };
    let (mut since, mut count) = (0.0, 0usize);
    for step in 0..=schedule.steps {
        let fresh;
        let batch: Vec<(&DMatrix<f64>, usize)> = match &fixed {
            Some(set) => (0..schedule.batch)
                .map(|_| {
                    let e = &set[rng.random_range(0..set.len())];
                    (&e.x, e.target)
                })
                .collect(),
            None => {
                fresh = world.examples(&mut rng, schedule.batch);
                fresh.iter().map(|e| (&e.x, e.target)).collect()
            }
        };
        // shuffled: y ← uniform label, independent of x
        let batch: Vec<(&DMatrix<f64>, usize)> = match shuffle.as_mut() {
            Some(labels) => batch
                .into_iter()
                .map(|(x, _)| (x, labels.random_range(0..config.outputs)))
                .collect(),
            None => batch,
        };
        if step % schedule.eval_every == 0 || step == schedule.steps {
            let (loss, acc) = evaluate(&model, &test);
            let train_loss = if count == 0 {
                model.mean_loss(&batch)
            } else {
                since / count as f64
            };
            h.steps.push(step);
            h.train_loss.push(train_loss);
            h.test_loss.push(loss);
            h.accuracy.push(acc);
            if h.steps_to_threshold.is_none() && acc >= schedule.threshold {
                h.steps_to_threshold = Some(step);
            }
            observe(step, &model, &test);
            (since, count) = (0.0, 0);
            if plateau.is_some_and(|p| p.holds(&h.steps, &h.accuracy)) {
                h.stop = Stop::Plateau(step);
                break;
            }
        }
        if step == schedule.steps {
            break;
        }
        let (loss, grad) = model.loss_and_grad(&batch);
        since += loss;
        count += 1;
        adam.step(model.tensors_mut(), grad.tensors());
    }
    h.final_accuracy = *h.accuracy.last().expect("at least one evaluation");
    h
}
