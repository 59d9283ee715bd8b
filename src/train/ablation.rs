//! One head silenced: its output `y = a v W_O` zeroed, with every later
//! layer either recomputing (the *total* effect) or keeping its clean-run
//! computation (the *direct* effect), after McGrath et al. 2023, "The Hydra
//! Effect" — the toy-model form of `pretrained::intervention`.
//!
//! ```text
//! clean    z^L,            logits = z^L W_R
//! total    z^L_tot  = the forward pass with y_h = 0 (later layers recompute)
//! direct   z^L_dir  = z^L − y_h[query rows]  (residual paths carry y_h to the readout unchanged)
//! Δ_tot = (z^L_tot − z^L) W_R,   Δ_dir = (z^L_dir − z^L) W_R = −y_h W_R
//! ```
//! Introduced in chapter 3.

use nalgebra::DMatrix;

use super::model::Model;

/// The readout logits of a batch under one head's removal.
///
/// # Shapes
/// Each `(B, outputs)`, row `b` for input `b`.
#[derive(Clone, Debug, PartialEq)]
pub struct Effects {
    /// The clean run's logits.
    pub clean: DMatrix<f64>,
    /// `Δ_dir`: the head removed from the residual stream alone, later layers as in the clean run.
    pub direct: DMatrix<f64>,
    /// `Δ_tot`: the head removed and every later layer recomputed.
    pub total: DMatrix<f64>,
}

impl Model {
    /// The same model with `head` of `layer` silenced (`W_O = 0`, so `y = 0`).
    ///
    /// # Panics
    /// If there is no such head.
    pub fn without_head(&self, layer: usize, head: usize) -> Model {
        let mut m = self.clone();
        m.heads[layer][head].w_o.fill(0.0);
        m
    }

    /// Readout logits `z^L W_R` of a batch, `(B, outputs)`.
    pub fn logits(&self, xs: &[&DMatrix<f64>]) -> DMatrix<f64> {
        let fwd = self.forward_batch(xs);
        &fwd.z[self.config.layers] * &self.w_r
    }

    /// The direct and total effects on the logits of removing `head` of
    /// `layer` (an inner layer, so that its query rows reach the readout
    /// through the residual paths of the layers after it).
    ///
    /// ```
    /// use attention_geometry::random::{gaussian, seeded};
    /// use attention_geometry::train::{Config, Model, Qk};
    /// let mut rng = seeded(0);
    /// let c = Config { layers: 2, heads: 2, residual: true, ..Config::single(6, 5, Qk::Untied) };
    /// let model = Model::init(c, &mut rng);
    /// let x = gaussian(&mut rng, 4, 6, 1.0);
    /// let e = model.head_effects(&[&x], 0, 1);
    /// // the direct path is linear: the removed head's output through W_R
    /// assert!(e.direct.norm() > 0.0 && (&e.total - &e.direct).norm() > 1e-6);
    /// ```
    ///
    /// # Panics
    /// If `layer` is the last layer, or the model has no residual paths.
    pub fn head_effects(&self, xs: &[&DMatrix<f64>], layer: usize, head: usize) -> Effects {
        let c = self.config;
        assert!(
            c.residual && layer + 1 < c.layers,
            "Model::head_effects: needs residual paths and an inner layer, got layer {layer} of {} (residual: {})",
            c.layers,
            c.residual
        );
        let fwd = self.forward_batch(xs);
        let t = fwd.t;
        let clean = &fwd.z[c.layers] * &self.w_r;
        // y_h at the query rows b·T + T − 1  (B, d)
        let y = &fwd.heads[layer][head].o * &self.heads[layer][head].w_o;
        let y_query = DMatrix::from_fn(xs.len(), c.d, |b, col| y[(b * t + t - 1, col)]);
        let direct = -(y_query * &self.w_r);
        let total = self.without_head(layer, head).logits(xs) - &clean;
        Effects {
            clean,
            direct,
            total,
        }
    }
}
