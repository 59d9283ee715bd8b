//! Scale-invariant fixed-point residuals of a model's layers on a data set:
//! how far the map `f_θ(x) = z^L(x)` ([`Model::states`]) is from leaving
//! each token where it is, in a form that does not grow or shrink with the
//! size of the outputs the model learns.
//!
//! ```text
//! turn    ρ(θ) = mean_{x, t} (1 − cos(f_θ(x)_t, x_t))           0 ⇔ every token kept on its own ray
//! output  q(θ) = √( Σ_x ‖f_θ(x) − x‖²_F / Σ_x ‖f_θ(x)‖²_F )     the DEQ residual ‖f(z) − z‖ / ‖f(z)‖ at z = x
//! ```
//! `ρ` is invariant to any rescaling of `f`'s outputs; `q` is invariant to
//! rescaling `x` and `f` together. [`super::data_residual`], relative to
//! `‖x‖`, is neither: it grows with the outputs' scale. Introduced in chapter 5.

use super::model::Model;
use super::task::Example;

/// The turn residual `ρ(θ)`: the mean over examples and tokens of
/// `1 − cos(f_θ(x)_t, x_t)`, in `[0, 2]`.
///
/// # Panics
/// If `examples` is empty.
///
/// ```
/// use attention_geometry::random::seeded;
/// use attention_geometry::train::{Config, Model, Qk, Relation, Task, turn_residual};
/// let task = Task { relation: Relation::Successor, vocab: 8, context: 4, d: 8, noise: 0.0, examples: None };
/// let mut rng = seeded(1);
/// let examples = task.world(&mut rng).examples(&mut rng, 20);
/// let mut model = Model::init(Config { residual: true, ..Config::single(8, 8, Qk::Tied) }, &mut rng);
/// let r = turn_residual(&model, &examples);
/// // scaling the outputs (W_O) of a layer without residual path leaves ρ unchanged
/// model.config.residual = false;
/// let a = turn_residual(&model, &examples);
/// model.heads[0][0].w_o *= 10.0;
/// assert!((turn_residual(&model, &examples) - a).abs() < 1e-12);
/// assert!(r > 0.0 && r < 2.0);
/// ```
pub fn turn_residual(model: &Model, examples: &[Example]) -> f64 {
    assert!(!examples.is_empty(), "turn_residual: no examples");
    let (sum, count) = examples.iter().fold((0.0, 0usize), |(s, n), e| {
        let z = model.states(&e.x);
        let turned: f64 = (0..z.nrows())
            .map(|t| {
                let (f, x) = (z.row(t), e.x.row(t));
                1.0 - f.dot(&x) / (f.norm() * x.norm()).max(f64::MIN_POSITIVE)
            })
            .sum();
        (s + turned, n + z.nrows())
    });
    sum / count as f64
}

/// The output residual `q(θ) = √(Σ‖f(x) − x‖² / Σ‖f(x)‖²)`.
///
/// # Panics
/// If `examples` is empty.
pub fn output_residual(model: &Model, examples: &[Example]) -> f64 {
    assert!(!examples.is_empty(), "output_residual: no examples");
    let (moved, size) = examples.iter().fold((0.0, 0.0), |(m, s), e| {
        let z = model.states(&e.x);
        (m + (&z - &e.x).norm_squared(), s + z.norm_squared())
    });
    (moved / size).sqrt()
}
