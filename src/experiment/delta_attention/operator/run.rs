//! One trained arm of the operator experiment: a two-block stack
//! ([`crate::mixer::stack`]) trained by Adam on [`Updates`] with the f32
//! batched pass ([`crate::mixer::fast`]) until the plateau rule holds.
//!
//! ```text
//! lr_t = warm_then_constant(lr, cap)(t);  θ ← Adam(θ, ∇ loss(fresh batch));  stop when the rule holds on held-out accuracy
//! ```
//! [`crate::mixer::stack::train`] draws its batches from [`crate::recall::Mqar`]
//! only, so this loop draws them from [`Updates`].

use crate::mixer::fast;
use crate::mixer::layer::GateInit;
use crate::mixer::objective::warm_then_constant;
use crate::mixer::stack::{Config, Stack, StackRun, Training};
use crate::random::seeded;
use crate::recall::Updates;
use crate::train::{Adam, Stop};

/// Train a `config` stack with `gates` on `task` as `t` says (its engine is
/// not read: the pass is always [`crate::mixer::fast`]), everything from `seed`.
///
/// # Panics
/// If the vocabularies of model and task differ, or `t.every` is zero.
pub fn train(config: Config, gates: GateInit, task: Updates, t: Training, seed: u64) -> StackRun {
    assert_eq!(
        config.vocab, task.vocab,
        "operator::train: the model has {} tokens but the task {}",
        config.vocab, task.vocab
    );
    assert!(t.every > 0, "operator::train: evaluate every ≥ 1 steps");
    let mut rng = seeded(seed);
    let test = task.batch(&mut rng, t.schedule.test);
    let mut model = Stack::init(config, gates, &mut rng);
    let initial = model.clone();
    let rate = warm_then_constant(t.schedule.lr, t.schedule.steps);
    let mut adam = Adam::new(rate(0));
    let (mut steps, mut accs) = (Vec::new(), Vec::new());
    let mut stop = Stop::Capped;
    for step in 1..=t.schedule.steps {
        adam.lr = rate(step - 1);
        let (_, grad) = fast::loss_and_grad(&model, &task.batch(&mut rng, t.schedule.batch));
        adam.step(model.tensors_mut(), grad.tensors());
        if step % t.every != 0 && step != t.schedule.steps {
            continue;
        }
        steps.push(step);
        accs.push(fast::accuracy(&model, &test));
        if t.plateau.holds(&steps, &accs) {
            stop = Stop::Plateau(step);
            break;
        }
    }
    StackRun {
        accuracy: *accs.last().expect("at least one evaluation"),
        curve: steps.into_iter().zip(accs).collect(),
        model,
        initial,
        stop,
        test,
    }
}
