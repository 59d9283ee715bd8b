//! The fused trainer: the model's tensors and Adam's moments kept in the
//! fused pass's `f32` layout ([`Model`]) from one step to the next, so that a
//! step is the fused pass and one sweep of Adam over the numbers, with no
//! conversion to or from the reference's `f64` tensors. It is
//! [`crate::train::Adam`] on [`super::Fused`]'s gradient, in `f32`.
//!
//! ```text
//! g = ∇L(θ)                                          the fused pass, into a reused buffer
//! m ← β₁ m + (1 − β₁) g,   v ← β₂ v + (1 − β₂) g²     every number, in f32
//! θ ← θ (1 − lr λ) − (lr / c₁) m / (√(v / c₂) + ε)     c₁ = 1 − β₁ᵗ, c₂ = 1 − β₂ᵗ
//! tested   the reference trainer's loss curve over 100 steps, to 10⁻⁴
//! ```
//! Introduced in chapter 7.

use super::model::Model;
use crate::mixer::stack::Stack;
use crate::recall::Sequence;
use crate::train::Adam;

/// A model in training: its tensors, Adam's moments and step count, all in
/// the fused pass's layout.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The model it started from: its configuration, gates and shapes.
    like: Stack,
    theta: Model,
    grad: Model,
    /// Adam's moments, every tensor's numbers end to end in [`Model::tensors`]' order.
    m: Vec<f32>,
    v: Vec<f32>,
    /// Adam's settings (rate, decays, `ε`, weight decay).
    adam: Adam,
    t: i32,
}

/// One step's constants of Adam's update, in `f32`.
#[derive(Clone, Copy, Debug)]
struct Update {
    b1: f32,
    b2: f32,
    /// `lr / c₁`, `1 / c₂`, `1 − lr λ`
    rate: f32,
    inv_c2: f32,
    shrink: f32,
    eps: f32,
}

impl Trainer {
    /// Training `model` with Adam's settings from `adam` (its rate, decays,
    /// `ε` and weight decay; the moments start at zero).
    pub fn new(model: &Stack, adam: &Adam) -> Self {
        let theta = Model::of(model);
        let n = theta.tensors().iter().map(|t| t.len()).sum();
        Self {
            like: model.clone(),
            grad: theta.zeros(),
            theta,
            m: vec![0.0; n],
            v: vec![0.0; n],
            adam: adam.clone(),
            t: 0,
        }
    }

    /// One Adam step on `batch`; the mean loss before it.
    ///
    /// # Panics
    /// If the batch is empty or its sequences differ in length.
    pub fn step(&mut self, batch: &[Sequence]) -> f64 {
        self.grad.clear();
        let loss = super::gradient(&self.theta, batch, &mut self.grad);
        self.t += 1;
        let a = &self.adam;
        let (c1, c2) = (1.0 - a.beta1.powi(self.t), 1.0 - a.beta2.powi(self.t));
        let u = Update {
            b1: a.beta1 as f32,
            b2: a.beta2 as f32,
            rate: (a.lr / c1) as f32,
            inv_c2: (1.0 / c2) as f32,
            shrink: (1.0 - a.lr * a.weight_decay) as f32,
            eps: a.eps as f32,
        };
        update(&mut self.theta, &self.grad, &mut self.m, &mut self.v, u);
        loss
    }

    /// The model as it stands, in the reference's `f64` tensors.
    pub fn model(&self) -> Stack {
        self.theta.to_stack(&self.like)
    }

    /// Share of the queries of `set` the model answers right, in `f32`.
    pub fn accuracy(&self, set: &[Sequence]) -> f64 {
        super::hits(&self.theta, set)
    }
}

vectorised! {
    /// Adam's update of every number of `theta` by its gradient in `grad`.
    fn update(theta: &mut Model, grad: &Model, m: &mut [f32], v: &mut [f32], u: Update) -> () = update_with;
}

#[inline(always)]
fn update_with(theta: &mut Model, grad: &Model, m: &mut [f32], v: &mut [f32], u: Update) {
    let mut at = 0;
    for (p, g) in theta.tensors_mut().into_iter().zip(grad.tensors()) {
        let n = p.len();
        let moments = m[at..at + n].iter_mut().zip(&mut v[at..at + n]);
        for ((p, &g), (m, v)) in p.iter_mut().zip(g).zip(moments) {
            *m = u.b1 * *m + (1.0 - u.b1) * g;
            *v = u.b2 * *v + (1.0 - u.b2) * g * g;
            *p = *p * u.shrink - u.rate * *m / ((*v * u.inv_c2).sqrt() + u.eps);
        }
        at += n;
    }
}
