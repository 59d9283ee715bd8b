//! The map a model's attention layers compute on every token, `x ↦ z^L`,
//! and the data-level fixed-point residual of that map on a data set.
//! Introduced in chapter 5.

use nalgebra::DMatrix;

use super::model::{Model, Qk};
use super::task::Example;
use crate::attention::softmax_rows;

impl Model {
    /// The last layer's states at every token, `z^L: (T, d)` (the forward
    /// pass computes only the query row of the last layer; this computes all
    /// `T` with the same weights):
    ///
    /// ```text
    /// z⁰ = x,   z^{l+1} = (z^l if residual) + Σ_h softmax_rows(z^l W_Q (z^l W_K)ᵀ / √d_k) z^l W_V W_O
    /// ```
    ///
    /// # Shapes
    /// `x: (T, d)` → `(T, d)`.
    ///
    /// # Panics
    /// If `x` is not `d` wide, or has one row without self-attention.
    ///
    /// ```
    /// use attention_geometry::random::{gaussian, seeded};
    /// use attention_geometry::train::{Config, Model, Qk};
    /// let mut rng = seeded(0);
    /// let model = Model::init(Config { layers: 2, residual: true, ..Config::single(6, 5, Qk::Tied) }, &mut rng);
    /// let x = gaussian(&mut rng, 4, 6, 1.0);
    /// let z = model.states(&x);
    /// assert_eq!(z.shape(), (4, 6));
    /// // the query row is the one the forward pass reads out
    /// assert!((z.row(3) - model.forward(&x).z[2].row(0)).norm() < 1e-12);
    /// ```
    pub fn states(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        let c = self.config;
        let t = x.nrows();
        assert!(
            x.ncols() == c.d && (c.self_attention || t > 1),
            "Model::states: x is {:?} but the model is {} wide{}",
            x.shape(),
            c.d,
            if c.self_attention {
                ""
            } else {
                " and needs two tokens (no self-attention)"
            }
        );
        let scale = 1.0 / (c.d_k as f64).sqrt();
        let mut z = x.clone();
        for layer in &self.heads {
            let mut next = if c.residual {
                z.clone()
            } else {
                DMatrix::zeros(t, c.d)
            };
            for p in layer {
                let (q, k) = match c.qk {
                    Qk::Untied | Qk::Mimetic => (&z * &p.w_q, &z * &p.w_k),
                    Qk::Tied => (&z * &p.w_q, &z * &p.w_q),
                    Qk::Identity => (z.clone(), z.clone()),
                };
                // s = q kᵀ / √d_k, diagonal −∞ without self-attention  (T, T)
                let mut s = q * k.transpose() * scale;
                if !c.self_attention {
                    s.fill_diagonal(f64::NEG_INFINITY);
                }
                // z^{l+1} += a z W_V W_O  (T, d)
                next += softmax_rows(&s) * &z * &p.w_v * &p.w_o;
            }
            z = next;
        }
        z
    }
}

/// The data-level fixed-point residual of a model's layers on `examples`:
/// the square root of the Lagrangian's first term relative to the data's size,
///
/// ```text
/// r(θ) = √( Σ_x ‖f_θ(x) − x‖²_F / Σ_x ‖x‖²_F ),   f_θ(x) = z^L(x)  (Model::states)
/// ```
///
/// 0 when the layers leave every input unchanged.
///
/// # Panics
/// If `examples` is empty.
///
/// ```
/// use attention_geometry::random::seeded;
/// use attention_geometry::train::{Config, Model, Qk, Relation, Task, data_residual};
/// let task = Task { relation: Relation::Successor, vocab: 8, context: 4, d: 8, noise: 0.0, examples: None };
/// let mut rng = seeded(1);
/// let examples = task.world(&mut rng).examples(&mut rng, 20);
/// let mut model = Model::init(Config { residual: true, ..Config::single(8, 8, Qk::Tied) }, &mut rng);
/// assert!(data_residual(&model, &examples) > 0.0);
/// // with W_O = 0 a residual layer is the identity: every input is a fixed point
/// model.heads[0][0].w_o.fill(0.0);
/// assert_eq!(data_residual(&model, &examples), 0.0);
/// ```
pub fn data_residual(model: &Model, examples: &[Example]) -> f64 {
    assert!(!examples.is_empty(), "data_residual: no examples");
    let (moved, size) = examples.iter().fold((0.0, 0.0), |(m, s), e| {
        (
            m + (model.states(&e.x) - &e.x).norm_squared(),
            s + e.x.norm_squared(),
        )
    });
    (moved / size).sqrt()
}
