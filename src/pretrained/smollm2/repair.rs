//! The decoder's direct path for [`crate::pretrained::repair`]: a change
//! written into SmolLM2's residual stream carried to the normed last stream
//! and the logits (after McGrath et al. 2023, "The Hydra Effect",
//! arXiv:2307.15771).
//!
//! ```text
//! change δ enters block ℓ after attention   u = x^ℓ + attn^ℓ + δ,  then ffn^ℓ, blocks ℓ+1…29
//! read-out       N(x) = x / rms(x) ⊙ g_out                  (the final RMSNorm, per row)
//! total          Δ_tot = N(x³⁰ after the rerun) − N(x³⁰)     (scale recomputed)
//! direct         Δ_dir = δ / rms(x³⁰) ⊙ g_out                (scale frozen at the clean run)
//! logit of the clean top-1 token t_i at each position i:
//!                Δ_tot · e_{t_i},  Δ_dir · e_{t_i}           (e: the tied embedding's column)
//! kept           κ = ⟨Δ_tot, Δ_dir⟩ / ‖Δ_dir‖²                κ < 1: later blocks cancel part of δ
//! ```
//!
//! In the post-LayerNorm encoder a change reaches the output only through every
//! later LayerNorm, so its direct path has to be carried through six frozen
//! scales ([`crate::pretrained::minilm::repair`]). Here the stream is a running sum:
//! `x³⁰ = x^ℓ + attn^ℓ + ffn^ℓ + … `, so δ reaches the last stream as δ itself,
//! and only the final norm stands between it and the logits.
//!
//! Introduced in chapter 3.

use nalgebra::{DMatrix, DVector};

use super::SmolLm2;
use super::forward::{Cache, Options, rms_norm_f64, run_from};
use super::linear::project;
use crate::pretrained::repair::Effects;
use crate::pretrained::trace::Trace;
use crate::pretrained::transformer::Transformer;

/// The last stream when block `l` resumes from its attention sum `u`
/// (`u + ffn(rms(u))`, then blocks `l + 1..`), nothing recorded.
///
/// # Shapes
/// `u: (n, 576)` → `(n, 576)`.
pub fn resume(m: &SmolLm2, l: usize, u: &DMatrix<f64>) -> DMatrix<f64> {
    let x = crate::pretrained::value_zeroing::decoder_finish(m, l, u).map(|v| v as f32);
    let out = run_from(
        &m.weights,
        l + 1,
        x,
        &mut Cache::new(&m.config),
        Options::default(),
    )
    .0;
    out.map(f64::from)
}

/// The final RMSNorm in f64, `x / rms(x) ⊙ g_out` per row.
pub fn read_out(m: &SmolLm2, x: &DMatrix<f64>) -> DMatrix<f64> {
    rms_norm_f64(x, &m.weights.output_norm, m.config.rms_eps)
}

/// `1 / √(mean(x²) + ε)` of each row.
fn inverse_rms(m: &SmolLm2, x: &DMatrix<f64>) -> Vec<f64> {
    let d = x.ncols() as f64;
    x.row_iter()
        .map(|r| 1.0 / (r.norm_squared() / d + m.config.rms_eps).sqrt())
        .collect()
}

/// The clean run's top-1 next token at each position.
pub fn top1(m: &SmolLm2, clean: &Trace) -> Vec<usize> {
    let normed = read_out(m, &clean.output).map(|v| v as f32);
    let logits = project(&normed, &m.weights.embedding);
    logits
        .row_iter()
        .map(|r| r.transpose().argmax().0)
        .collect()
}

/// Total and direct effects of each change in `deltas`, all entering block
/// `l` after its attention in the clean run `clean`: on the normed last
/// stream, and on the logit of each position's clean top-1 token (the output).
///
/// # Shapes
/// Each delta `(n, 576)`.
pub fn effects(m: &SmolLm2, clean: &Trace, l: usize, deltas: &[DMatrix<f64>]) -> Vec<Effects> {
    let (x_l, last) = (&clean.layers[l].input, &clean.output);
    let base = read_out(m, last);
    let (scale, g) = (inverse_rms(m, last), m.weights.output_norm.map(f64::from));
    let top = top1(m, clean);
    let e = &m.weights.embedding;
    // Δ (n, 576) → the logit change of each position's top-1 token, (n)
    let logit = |d: &DMatrix<f64>| {
        DVector::from_iterator(
            d.nrows(),
            (0..d.nrows()).map(|i| {
                (0..d.ncols())
                    .map(|j| d[(i, j)] * f64::from(e[(j, top[i])]))
                    .sum::<f64>()
            }),
        )
    };
    let u = x_l + m.attention(&clean.layers[l]);
    deltas
        .iter()
        .map(|delta| {
            let total = read_out(m, &resume(m, l, &(&u + delta))) - &base;
            let mut direct = delta.clone();
            for (i, mut row) in direct.row_iter_mut().enumerate() {
                row.component_mul_assign(&(g.transpose() * scale[i]));
            }
            Effects {
                output: [logit(&total), logit(&direct)],
                recomputed: None,
                total,
                direct,
            }
        })
        .collect()
}
