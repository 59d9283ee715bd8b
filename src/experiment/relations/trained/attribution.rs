//! The composition of measured one-layer relations along depth, on the
//! encoder only: leave-one-out effects at every layer, the composite of the
//! one-layer effects, its linearisation, rollout's distance from the measured
//! arrow, and the path test (each layer's attention on the prompt itself).
//!
//! It restarts single layers on stacks of edited streams and carries
//! Jacobian-vector products through MiniLM's own layer code
//! (`intervention::layer_parts`, `jacobian::composed`). For the decoder it
//! would take two per-model primitives the interface does not have: one block
//! run on many edited streams at once (`run_from` runs every later block), and
//! a Jacobian-vector product through a pre-RMSNorm block with RoPE.
//! Introduced in chapter 4.

use nalgebra::DMatrix;

use super::effects::{ablation_parts, effects_of};
use super::{Clean, layer_effects, linearised_effects, row_agreement, row_normalise};
use crate::pretrained::minilm::forward::layer_forward;
use crate::pretrained::minilm::{HEADS, LAYERS, Weights};
use crate::relation::{compose, rollout, total_variation};
use crate::stats::mean;

/// What one sentence measures; vectors run over depth `m = 1 … 6`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Attribution {
    /// ρ(layer m's raw head-mean attention, effect on h_m), keys with sinks.
    pub rho_raw: Vec<f64>,
    /// ρ(rollout through layer m, effect on h_m), keys with sinks.
    pub rho_rollout: Vec<f64>,
    /// The same two without `[CLS]`/`[SEP]` among the keys.
    pub rho_raw_words: Vec<f64>,
    pub rho_rollout_words: Vec<f64>,
    /// TV between the measured arrow `P^{0→m}` and the composite of measured one-layer arrows.
    pub tv_composite: Vec<f64>,
    /// TV between `P^{0→m}` and the effects carried by the composite linearisation.
    pub tv_linearised: Vec<f64>,
    /// `‖δ_lin − δ_true‖ / ‖δ_true‖`, the composite linearisation against the stack.
    pub linear_error: Vec<f64>,
    /// TV between `P^{0→m}` and the rollout through layer m.
    pub tv_rollout: Vec<f64>,
    /// TV between `P^{0→m}` and the uniform arrow.
    pub tv_uniform: Vec<f64>,
    /// Per layer: mean over heads of TV(A_l on its own input, A_l on `h_0`).
    pub path_tv: Vec<f64>,
    /// Largest `|row sum − 1|` or negative entry over every head and rollout.
    pub stochastic_gap: f64,
}

/// Measure one sentence.
pub fn attribution(w: &Weights, ids: &[u32]) -> Attribution {
    let clean = Clean::run(w, ids);
    let n = ids.len();
    let parts = ablation_parts(w, &clean);
    let effects = effects_of(&clean, &parts);
    let steps: Vec<DMatrix<f64>> = layer_effects(w, &clean).iter().map(row_normalise).collect();
    let raw: Vec<DMatrix<f64>> = (0..LAYERS).map(|l| clean.mean_attention(l)).collect();
    let uniform = DMatrix::from_element(n, n, 1.0 / n as f64);
    let mut a = Attribution {
        rho_raw: vec![],
        rho_rollout: vec![],
        rho_raw_words: vec![],
        rho_rollout_words: vec![],
        tv_composite: vec![],
        tv_linearised: vec![],
        linear_error: vec![],
        tv_rollout: vec![],
        tv_uniform: vec![],
        path_tv: vec![],
        stochastic_gap: 0.0,
    };
    let linearised = linearised_effects(w, &clean, &parts);
    let mut composite = DMatrix::identity(n, n);
    for m in 1..=LAYERS {
        let (e, r) = (&effects[m - 1], rollout(&raw[..m]));
        a.rho_raw.push(row_agreement(&raw[m - 1], e, true));
        a.rho_rollout.push(row_agreement(&r, e, true));
        a.rho_raw_words.push(row_agreement(&raw[m - 1], e, false));
        a.rho_rollout_words.push(row_agreement(&r, e, false));
        // C_m = Q_m ∘ C_{m−1}: rows at depth m, columns input tokens
        composite = compose(&steps[m - 1], &composite);
        let p = row_normalise(e);
        a.tv_composite.push(total_variation(&p, &composite));
        let (lin, error) = &linearised[m - 1];
        a.tv_linearised
            .push(total_variation(&p, &row_normalise(lin)));
        a.linear_error.push(*error);
        a.tv_rollout.push(total_variation(&p, &r));
        a.tv_uniform.push(total_variation(&p, &uniform));
        a.stochastic_gap = a.stochastic_gap.max(gap(&r));
    }
    for l in 0..LAYERS {
        let (_, on_prompt) = layer_forward(&w.layers[l], l, &clean.states[0], &[]);
        let tvs: Vec<f64> = (0..HEADS)
            .map(|h| total_variation(&clean.heads[l][h], &on_prompt.heads[h].weights))
            .collect();
        a.path_tv.push(mean(&tvs));
        for h in &clean.heads[l] {
            a.stochastic_gap = a.stochastic_gap.max(gap(h));
        }
    }
    a
}

/// Largest deviation of `m` from a stochastic matrix.
fn gap(m: &DMatrix<f64>) -> f64 {
    let rows = m
        .row_iter()
        .map(|r| (r.sum() - 1.0).abs())
        .fold(0.0, f64::max);
    rows.max(-m.min())
}
