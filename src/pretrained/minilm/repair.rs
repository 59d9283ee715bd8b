//! The encoder's direct path for [`crate::pretrained::repair`]: a change
//! entering a layer's attention sum carried to MiniLM's last hidden states with
//! its LayerNorms frozen or recomputed.
//!
//! ```text
//! change δ enters layer ℓ's attention sum   u₁ = x + attn + δ
//! total        Δ_tot = x⁶(every later sublayer recomputes) − x⁶
//! direct, LN°  Δ_dir = LN°₂⁵ LN°₁⁵ ⋯ LN°₂^ℓ LN°₁^ℓ δ         (scales frozen at the clean run)
//! direct, LN   h ← LN₂(LN₁(h + attn_clean) + ffn_clean) per layer, Δ_dir = h⁶ − x⁶
//!              (sublayer outputs frozen, every LayerNorm recomputed)
//! output       g(Δ) = P⊥ mean_i Δ_i, the pooled embedding's turn
//! ```
//!
//! The trace records no LayerNorm scale, so the clean sublayers from layer ℓ
//! on are rerun from the trace's input to ℓ (one variant beside the reruns'
//! several).
//!
//! Introduced in chapter 3.

use nalgebra::DMatrix;

use super::forward::finish;
use super::{D_K, Layer, Weights};
use crate::pretrained::corpus::pooled;
use crate::pretrained::intervention::{Parts, frozen, run_parts};
use crate::pretrained::repair::{Effects, turn};
use crate::pretrained::trace::Trace;

/// `δ` entering layer `layer`'s attention sum carried to the last hidden states,
/// every later sublayer output at its clean value: every LayerNorm frozen at its
/// clean scale (`LN°`, the direct effect), and every LayerNorm recomputed.
///
/// # Shapes
/// `delta: (n, 384)`; `from`: the clean layers `layer..6` → `(n, 384)` each.
fn direct(
    w: &Weights,
    from: &[Parts],
    layer: usize,
    delta: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let (mut d, mut h) = (delta.clone(), &from[0].input + delta);
    for (p, ln) in from.iter().zip(&w.layers[layer..]) {
        let (ln1, ln2) = (&ln.attention_output.layer_norm, &ln.output.layer_norm);
        // d ← LN°₂(LN°₁(d))
        d = frozen(ln2, &frozen(ln1, &d, &p.sigma1), &p.sigma2);
        // h ← LN₂(LN₁(h + attn) + ffn)
        let mid = ln1.forward(&(h + &p.attn));
        h = ln2.forward(&(mid + &p.ffn));
    }
    (d, h - &from[from.len() - 1].output)
}

/// Total and direct effects of each change in `deltas`, all entering layer `layer`'s
/// attention sum in the clean run `clean` (the totals from one stacked run).
///
/// # Shapes
/// Each delta `(n, 384)`; `clean`: a whole pass, layers `0..6`.
///
/// # Panics
/// If `deltas` is empty.
pub fn effects(w: &Weights, clean: &Trace, layer: usize, deltas: &[DMatrix<f64>]) -> Vec<Effects> {
    assert!(!deltas.is_empty(), "effects: no change to measure");
    let x = &clean
        .layer(layer)
        .expect("effects: the trace runs the layer")
        .input;
    let n = x.nrows();
    // the clean sublayers and LayerNorm scales of layers layer..6
    let from = &run_parts(w, layer, x.clone(), n, &[vec![]]);
    let (p, b) = (&from[0], deltas.len());
    // b variants of u₁ stacked: (b·n, 384)
    let mut u1 = DMatrix::zeros(b * n, p.input.ncols());
    for (k, d) in deltas.iter().enumerate() {
        u1.rows_mut(k * n, n).copy_from(&(&p.input + &p.attn + d));
    }
    let out = finish(&w.layers[layer], &u1, true);
    let last = match run_parts(w, layer + 1, out.clone(), n, &vec![vec![]; b]).last() {
        Some(q) => q.output.clone(),
        None => out,
    };
    let clean_out = &from[from.len() - 1].output;
    let e = pooled(clean_out);
    deltas
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let total = last.rows(k * n, n) - clean_out;
            let (direct, recomputed) = direct(w, from, layer, d);
            Effects {
                output: [turn(&total, &e), turn(&direct, &e)],
                recomputed: Some(recomputed),
                total,
                direct,
            }
        })
        .collect()
}

/// Head `h`'s attention with `W_QK = W_qᵀ W_k` replaced by its symmetric part
/// (biases kept): `s' = s − ½ (q₀k₀ᵀ − k₀q₀ᵀ)/√32`, `q₀ = x W_qᵀ`, `k₀ = x W_kᵀ`.
pub fn symmetric_weights(layer: &Layer, x: &DMatrix<f64>, h: usize) -> DMatrix<f64> {
    let rows = |m: &DMatrix<f64>| m.rows(h * D_K, D_K).transpose();
    let (q0, k0) = (x * rows(&layer.query.weight), x * rows(&layer.key.weight));
    let (bq, bk) = (
        layer.query.bias.rows(h * D_K, D_K),
        layer.key.bias.rows(h * D_K, D_K),
    );
    let mut q = q0.clone();
    let mut k = k0.clone();
    for mut r in q.row_iter_mut() {
        r += bq.transpose();
    }
    for mut r in k.row_iter_mut() {
        r += bk.transpose();
    }
    let anti = (&q0 * k0.transpose() - &k0 * q0.transpose()) * 0.5;
    let s = (q * k.transpose() - anti) / (D_K as f64).sqrt();
    crate::attention::softmax_rows(&s)
}
