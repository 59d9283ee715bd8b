//! Training a looped block: the loop of [`crate::train::train_until`] (the
//! same data, test set, batches and plateau rule from the seed) for a
//! [`Looped`] block, and its shuffled-label null. Introduced in chapter 5.

use nalgebra::DMatrix;
use rand::RngExt;

use super::{LoopConfig, Looped};
use crate::random::seeded;
use crate::train::{Adam, Example, History, Plateau, Schedule, Stop, Task};

/// Offset of the label generator's seed from the run's seed: the same as
/// [`crate::train::null`]'s, so both nulls draw the same labels.
const LABELS: u64 = 0x5eed_1abe;

/// Test cross-entropy and accuracy of `block` on `examples`.
pub fn evaluate_looped(block: &Looped, examples: &[Example]) -> (f64, f64) {
    let xs: Vec<&DMatrix<f64>> = examples.iter().map(|e| &e.x).collect();
    let targets: Vec<usize> = examples.iter().map(|e| e.target).collect();
    let fwd = block.forward_batch(&xs);
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

/// Train a looped block on `task` from `seed` with Adam, evaluating every
/// `schedule.eval_every` steps and calling `observe(step, block, test)`
/// there; stop once `plateau` holds (`schedule.steps` is then the cap).
/// With `shuffled`, every training target is a uniform random label (the
/// null of [`crate::train::null`]; evaluation keeps the true labels).
///
/// ```
/// use attention_geometry::looped::{Injection, LoopConfig, train_looped};
/// use attention_geometry::train::{Relation, Schedule, Task};
/// let task = Task { relation: Relation::Match, vocab: 8, context: 4, d: 8, noise: 0.0, examples: None };
/// let config = LoopConfig { d: 8, d_k: 8, heads: 1, iterations: 2, injection: Injection::Input, outputs: 8 };
/// let schedule = Schedule { steps: 600, batch: 16, lr: 0.03, eval_every: 100, test: 200, threshold: 0.9 };
/// let learned = train_looped(config, task, schedule, None, 0, false, |_, _, _| {});
/// let null = train_looped(config, task, schedule, None, 0, true, |_, _, _| {});
/// assert_eq!(learned.accuracy[0], null.accuracy[0]);
/// // the true labels are learned well above chance (1/8); the shuffled ones are not
/// assert!(learned.final_accuracy > 0.4 && null.final_accuracy < 0.25);
/// ```
///
/// # Panics
/// If the block's width or outputs do not fit the task, or a schedule size is zero.
pub fn train_looped(
    config: LoopConfig,
    task: Task,
    schedule: Schedule,
    plateau: Option<Plateau>,
    seed: u64,
    shuffled: bool,
    mut observe: impl FnMut(usize, &Looped, &[Example]),
) -> History {
    assert!(
        config.d == task.d && config.outputs == task.classes(),
        "train_looped: the block is {} wide with {} outputs but the task has width {} and {} classes",
        config.d,
        config.outputs,
        task.d,
        task.classes()
    );
    assert!(
        schedule.batch > 0 && schedule.eval_every > 0 && schedule.test > 0,
        "train_looped: batch, eval_every and test must be positive, got {schedule:?}"
    );
    let mut rng = seeded(seed);
    let mut labels = shuffled.then(|| seeded(seed.wrapping_add(LABELS)));
    let world = task.world(&mut rng);
    let test = world.examples(&mut rng, schedule.test);
    let fixed = task.examples.map(|n| world.examples(&mut rng, n.max(1)));
    let mut block = Looped::init(config, &mut rng);
    let mut adam = Adam::new(schedule.lr);
    let mut h = History {
        steps: Vec::new(),
        train_loss: Vec::new(),
        test_loss: Vec::new(),
        accuracy: Vec::new(),
        steps_to_threshold: None,
        final_accuracy: 0.0,
        stop: if plateau.is_some() {
            Stop::Capped
        } else {
            Stop::Fixed
        },
    };
    let (mut since, mut count) = (0.0, 0usize);
    for step in 0..=schedule.steps {
        let drawn: Vec<Example> = match &fixed {
            Some(set) => (0..schedule.batch)
                .map(|_| set[rng.random_range(0..set.len())].clone())
                .collect(),
            None => world.examples(&mut rng, schedule.batch),
        };
        // shuffled: y ← uniform label, independent of x
        let batch: Vec<(&DMatrix<f64>, usize)> = drawn
            .iter()
            .map(|e| match labels.as_mut() {
                Some(l) => (&e.x, l.random_range(0..config.outputs)),
                None => (&e.x, e.target),
            })
            .collect();
        if step % schedule.eval_every == 0 || step == schedule.steps {
            let (loss, acc) = evaluate_looped(&block, &test);
            let train_loss = if count == 0 {
                block.mean_loss(&batch)
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
            observe(step, &block, &test);
            (since, count) = (0.0, 0);
            if plateau.is_some_and(|p| p.holds(&h.steps, &h.accuracy)) {
                h.stop = Stop::Plateau(step);
                break;
            }
        }
        if step == schedule.steps {
            break;
        }
        let (loss, grad) = block.loss_and_grad(&batch);
        since += loss;
        count += 1;
        adam.step(block.tensors_mut(), grad.tensors());
    }
    h.final_accuracy = *h.accuracy.last().expect("at least one evaluation");
    h
}
