//! The null of a training run: the same model, data, initialisation and
//! batches, trained on labels drawn at random, so that it cannot learn the
//! task. A quantity that training is said to move is judged against how far
//! it moves here.
//!
//! ```text
//! for step in 1..=steps:
//!     batch ← B examples x (as in train),  y ← uniform over the outputs
//!     θ ← Adam(θ, ∇ mean cross-entropy(x, y))
//!     every eval_every steps: loss and accuracy on the true held-out labels
//! ```
//! Introduced in chapter 5.

use crate::random::seeded;

use super::{Config, Example, History, Model, Plateau, Schedule, Task};

/// Offset of the label generator's seed from the run's seed.
const LABELS: u64 = 0x5eed_1abe;

/// [`super::train_until`] on shuffled labels: every training target is
/// replaced by a uniform random label; evaluation uses the true labels.
///
/// ```
/// use attention_geometry::train::null::train_shuffled;
/// use attention_geometry::train::{Config, Qk, Relation, Schedule, Task, train};
/// let task = Task { relation: Relation::Match, vocab: 8, context: 4, d: 8, noise: 0.0, examples: None };
/// let schedule = Schedule { steps: 400, batch: 16, lr: 0.03, eval_every: 100, test: 200, threshold: 0.9 };
/// let config = Config::single(8, 8, Qk::Identity);
/// let learned = train(config, task, schedule, 0);
/// let null = train_shuffled(config, task, schedule, None, 0, |_, _, _| {});
/// assert_eq!(learned.accuracy[0], null.accuracy[0]);
/// // the true labels are learned; the shuffled ones leave accuracy at chance, 1/8
/// assert!(learned.final_accuracy > 0.5 && null.final_accuracy < 0.25);
/// ```
pub fn train_shuffled(
    config: Config,
    task: Task,
    schedule: Schedule,
    plateau: Option<Plateau>,
    seed: u64,
    observe: impl FnMut(usize, &Model, &[Example]),
) -> History {
    let labels = seeded(seed.wrapping_add(LABELS));
    super::run(config, task, schedule, plateau, seed, Some(labels), observe)
}
