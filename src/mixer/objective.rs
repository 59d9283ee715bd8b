//! What the one-layer [`crate::mixer::Model`] and the stacked
//! [`crate::mixer::stack::Stack`] share as recall models: the cross-entropy at
//! the query positions, its gradient summed over a batch, the query accuracy,
//! the gradient check and the training loop. Each model supplies only its
//! forward pass (the query probabilities) and its backward pass.
//!
//! ```text
//! loss  = −(1/n) Σ_seq Σ_queries ln p_y          n = queries in the batch
//! grad  = Σ_seq backward(seq, weight = 1/n)
//! acc   = share of queries with argmax p = y
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;

use crate::random::Rng;
use crate::recall::{Sequence, Task};
use crate::train::{Adam, Rule, Stop, TensorCheck, check_tensors};

/// A recall model trained by hand-written backprop: its tensors, a forward
/// pass ending in query probabilities and a backward pass. Gradients have the
/// model's own type.
pub trait Recaller: Clone {
    /// What a forward pass keeps for the backward pass.
    type Pass;

    /// The forward pass of one sequence.
    fn pass(&self, seq: &Sequence) -> Self::Pass;

    /// `[queries, vocab]`: the probabilities at the query positions.
    fn probs(pass: &Self::Pass) -> &DMatrix<f64>;

    /// Add `weight ·` the gradient of the cross-entropy of `seq`'s queries into `grad`.
    fn backward(&self, seq: &Sequence, pass: &Self::Pass, weight: f64, grad: &mut Self);

    /// The tensors with their names, in a fixed order.
    fn names(&self) -> Vec<String>;

    /// The tensors, read-only, in the same order.
    fn read(&self) -> Vec<&DMatrix<f64>>;

    /// The tensors, mutable, in the same order.
    fn write(&mut self) -> Vec<&mut DMatrix<f64>>;

    /// A model of zeros of the same shapes (a gradient accumulator).
    fn zeros(&self) -> Self {
        let mut z = self.clone();
        for t in z.write() {
            t.fill(0.0);
        }
        z
    }
}

/// `−ln p_y` summed over the queries of `seq`, from its query probabilities `p`.
fn cross_entropy(seq: &Sequence, p: &DMatrix<f64>) -> f64 {
    seq.queries
        .iter()
        .enumerate()
        .map(|(i, &(_, y))| -p[(i, y)].max(f64::MIN_POSITIVE).ln())
        .sum::<f64>()
}

fn queries(batch: &[Sequence]) -> usize {
    batch.iter().map(|s| s.queries.len()).sum()
}

/// Mean cross-entropy over every query of `batch`.
pub fn mean_loss<M: Recaller>(model: &M, batch: &[Sequence]) -> f64 {
    let total: f64 = batch
        .iter()
        .map(|s| cross_entropy(s, M::probs(&model.pass(s))))
        .sum();
    total / queries(batch) as f64
}

/// The mean cross-entropy over every query of `batch` and its gradient.
pub fn loss_and_grad<M: Recaller>(model: &M, batch: &[Sequence]) -> (f64, M) {
    let n = queries(batch);
    let mut grad = model.zeros();
    let mut total = 0.0;
    for s in batch {
        let pass = model.pass(s);
        for (i, &(_, y)) in s.queries.iter().enumerate() {
            total -= M::probs(&pass)[(i, y)].max(f64::MIN_POSITIVE).ln();
        }
        model.backward(s, &pass, 1.0 / n as f64, &mut grad);
    }
    (total / n as f64, grad)
}

/// Share of the queries of `set` whose most likely token is the right value.
pub fn accuracy<M: Recaller>(model: &M, set: &[Sequence]) -> f64 {
    let (mut hits, mut n) = (0, 0);
    for s in set {
        let pass = model.pass(s);
        let p = M::probs(&pass);
        for (i, &(_, y)) in s.queries.iter().enumerate() {
            let best = (0..p.ncols()).fold(0, |b, j| if p[(i, j)] > p[(i, b)] { j } else { b });
            hits += usize::from(best == y);
            n += 1;
        }
    }
    hits as f64 / n as f64
}

/// [`crate::train::check_tensors`] on every tensor of `model` over `batch`, step `h`.
pub fn gradient_check<M: Recaller>(model: &M, batch: &[Sequence], h: f64) -> Vec<TensorCheck> {
    let (_, grad) = loss_and_grad(model, batch);
    let analytic: Vec<DMatrix<f64>> = grad.read().into_iter().cloned().collect();
    check_tensors(
        model,
        model.names(),
        &analytic,
        M::write,
        |m: &M| mean_loss(m, batch),
        h,
    )
}

/// How a batch's loss and gradient and a set's accuracy are computed.
pub trait Gradients<M> {
    /// The mean cross-entropy over every query of `batch` and its gradient.
    fn loss_and_grad(&self, model: &M, batch: &[Sequence]) -> (f64, M);

    /// Share of the queries of `set` answered right.
    fn accuracy(&self, model: &M, set: &[Sequence]) -> f64;
}

/// The readable pass: [`Recaller::pass`] and [`Recaller::backward`], one sequence at a time, in `f64`.
#[derive(Clone, Copy, Debug)]
pub struct Reference;

impl<M: Recaller> Gradients<M> for Reference {
    fn loss_and_grad(&self, model: &M, batch: &[Sequence]) -> (f64, M) {
        loss_and_grad(model, batch)
    }

    fn accuracy(&self, model: &M, set: &[Sequence]) -> f64 {
        accuracy(model, set)
    }
}

/// How [`fit`] trains: a step cap, the batch, the rate at each step, the
/// weight decay, when the held-out accuracy is evaluated and when training stops.
pub struct Fit<'a, M> {
    /// How the gradient and the accuracy are computed.
    pub gradients: &'a dyn Gradients<M>,
    /// Adam steps at most, each on a fresh batch.
    pub cap: usize,
    pub batch: usize,
    /// The learning rate at step `t`.
    pub rate: &'a dyn Fn(usize) -> f64,
    /// AdamW's decoupled weight decay on every tensor (zero: Adam).
    pub weight_decay: f64,
    /// Held-out accuracy is evaluated every this many steps and at the cap.
    pub every: usize,
    /// Stop once this rule ends the held-out curve; without one, train to the cap.
    pub until: Option<&'a dyn Rule>,
}

/// Train `model` by Adam on fresh batches of `task` drawn from `rng`, as `fit`
/// says, calling `observe(step, accuracy)` at every evaluation on `test`.
/// Returns the `(step, held-out accuracy)` curve and how the run ended
/// (`Plateau(step)` when the rule ended it, `Capped` when it never did,
/// `Fixed` without one).
///
/// # Panics
/// If `fit.every` is zero.
pub fn fit<M: Recaller>(
    model: &mut M,
    task: impl Task,
    test: &[Sequence],
    rng: &mut Rng,
    fit: Fit<M>,
    mut observe: impl FnMut(usize, f64),
) -> (Vec<(usize, f64)>, Stop) {
    assert!(fit.every > 0, "mixer::fit: evaluate every ≥ 1 steps");
    let mut adam = Adam::new((fit.rate)(0));
    adam.weight_decay = fit.weight_decay;
    let (mut steps, mut accs) = (Vec::new(), Vec::new());
    let mut stop = if fit.until.is_some() {
        Stop::Capped
    } else {
        Stop::Fixed
    };
    for step in 0..fit.cap {
        adam.lr = (fit.rate)(step);
        let batch = task.draw(rng, fit.batch);
        let (_, grad) = fit.gradients.loss_and_grad(model, &batch);
        adam.step(model.write(), grad.read());
        let done = step + 1;
        if done % fit.every == 0 || done == fit.cap {
            let acc = fit.gradients.accuracy(model, test);
            observe(done, acc);
            steps.push(done);
            accs.push(acc);
            if let Some(rule) = fit.until
                && rule.ends(&steps, &accs)
            {
                stop = Stop::Plateau(done);
                break;
            }
        }
    }
    (steps.into_iter().zip(accs).collect(), stop)
}

/// `lr_t = lr · ½ (1 + cos(π t / cap))`: a cosine from `lr` to zero over the
/// cap, without warm-up (Zoology's `CosineAnnealingLR`, stepped every step).
pub fn cosine(lr: f64, cap: usize) -> impl Fn(usize) -> f64 {
    let cap = cap.max(1) as f64;
    move |step| lr * 0.5 * (1.0 + (std::f64::consts::PI * step as f64 / cap).cos())
}

/// `lr_t = lr · min(1, (t + 1) / w)`, `w = ⌈cap / 10⌉`: a linear warm-up over
/// the first tenth of the cap, then constant (a decaying rate would flatten
/// any curve and fake a plateau).
pub fn warm_then_constant(lr: f64, cap: usize) -> impl Fn(usize) -> f64 {
    let warm = cap.div_ceil(10).max(1) as f64;
    move |step| lr * ((step + 1) as f64 / warm).min(1.0)
}
