//! Gradient check: the hand-written backward pass against central finite
//! differences, tensor by tensor.
//!
//! ```text
//! ∂L/∂θ_i ≈ (L(θ + h e_i) − L(θ − h e_i)) / 2h
//! error = ‖g_analytic − g_numeric‖ / max(‖g_analytic‖ + ‖g_numeric‖, 10⁻¹²)
//! ```
//! Introduced in chapter 6.

use nalgebra::DMatrix;

use crate::train::model::Model;

/// Relative error of one tensor's analytic gradient.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorCheck {
    /// The tensor's name, as in [`Model::named_tensors`].
    pub name: String,
    /// `‖g_a − g_n‖ / (‖g_a‖ + ‖g_n‖)`.
    pub error: f64,
    /// `‖g_a‖`, so that a check of a zero gradient is visible.
    pub norm: f64,
}

/// Check every tensor of `model` on a batch, with step `h`.
///
/// ```
/// use attention_geometry::random::seeded;
/// use attention_geometry::train::{Config, Model, Qk, Relation, Task, gradient_check};
/// let task = Task { relation: Relation::Successor, vocab: 6, context: 4, d: 4, noise: 0.1, examples: None };
/// let mut rng = seeded(0);
/// let world = task.world(&mut rng);
/// let ex = world.examples(&mut rng, 2);
/// let model = Model::init(Config::single(4, 6, Qk::Untied), &mut rng);
/// let batch: Vec<_> = ex.iter().map(|e| (&e.x, e.target)).collect();
/// for c in gradient_check(&model, &batch, 1e-5) {
///     assert!(c.error < 1e-6, "{} {}", c.name, c.error);
/// }
/// ```
pub fn gradient_check(model: &Model, batch: &[(&DMatrix<f64>, usize)], h: f64) -> Vec<TensorCheck> {
    let (_, grad) = model.loss_and_grad(batch);
    let names: Vec<String> = model.named_tensors().into_iter().map(|(n, _)| n).collect();
    let analytic: Vec<DMatrix<f64>> = grad.tensors().into_iter().cloned().collect();
    check_tensors(
        model,
        names,
        &analytic,
        Model::tensors_mut,
        |m: &Model| m.mean_loss(batch),
        h,
    )
}

/// The check for any model: `names` and `analytic` gradients in the order of
/// `tensors_mut`, against central differences of `loss` with step `h`.
///
/// # Panics
/// If `names`, `analytic` and `tensors_mut(model)` differ in length.
pub fn check_tensors<M: Clone>(
    model: &M,
    names: Vec<String>,
    analytic: &[DMatrix<f64>],
    tensors_mut: impl Fn(&mut M) -> Vec<&mut DMatrix<f64>>,
    loss: impl Fn(&M) -> f64,
    h: f64,
) -> Vec<TensorCheck> {
    assert_eq!(
        names.len(),
        analytic.len(),
        "check_tensors: {} names but {} gradients",
        names.len(),
        analytic.len()
    );
    names
        .into_iter()
        .enumerate()
        .map(|(ti, name)| {
            let ga = &analytic[ti];
            let mut gn = DMatrix::zeros(ga.nrows(), ga.ncols());
            for i in 0..ga.len() {
                let mut plus = model.clone();
                tensors_mut(&mut plus)[ti][i] += h;
                let mut minus = model.clone();
                tensors_mut(&mut minus)[ti][i] -= h;
                gn[i] = (loss(&plus) - loss(&minus)) / (2.0 * h);
            }
            let error = (ga - &gn).norm() / (ga.norm() + gn.norm()).max(1e-12);
            TensorCheck {
                name,
                error,
                norm: ga.norm(),
            }
        })
        .collect()
}
