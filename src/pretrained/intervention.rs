//! Interventions on MiniLM's forward pass: a head's output zeroed (ablation), its
//! *direct* effect (only its own path to the output changes) and its *total* effect
//! (every later layer recomputes), after McGrath et al. 2023, "The Hydra Effect"
//! (arXiv:2307.15771).
//!
//! ```text
//! layer ℓ, head h writes  w_h = (α_h v_h) W_O,hᵀ          into  u₁ = x + Σ_h w_h + b_O
//! post-LN block           a = LN₁(u₁),  u₂ = a + FFN(a),  x' = LN₂(u₂)
//! frozen LayerNorm        LN°(δ) = γ ⊙ (δ − mean(δ)) / σ_clean     (per token, linear)
//!
//! total effect   Δ_tot = x⁶(w_h removed, layers ℓ.. recompute) − x⁶
//! direct effect  Δ_dir = LN°₂⁵ LN°₁⁵ ⋯ LN°₂^ℓ LN°₁^ℓ (−w_h)
//! ```
//!
//! The direct effect is the head's removal carried to the last hidden states along the
//! residual path alone: every later head (pattern *and* values), every FFN, and every
//! LayerNorm's scale keep their clean-run values, so nothing downstream can respond —
//! the post-LN analogue of McGrath et al.'s direct effect with the final LayerNorm scale
//! frozen. Their difference `Δ_tot − Δ_dir` is what later computation did in response;
//! [`indirect`] splits it, to first order, into each later sublayer's change carried
//! along the same frozen path.
//!
//! Runs take a *stack* of `b` variants of one `n`-token sentence, `(b·n, 384)`, each
//! with its own ablations, so that many interventions share one matrix product.
//! Introduced in chapter 3.

use nalgebra::DMatrix;

use super::minilm::weights::{LayerNorm, Linear};
use super::minilm::{D_K, HEADS, Layer, Weights, gelu};
use crate::attention::{scores, softmax_rows};

/// One layer run on a stack of variants: the sublayer outputs and the LayerNorm scales.
///
/// # Shapes
/// Every matrix `(b·n, 384)`, every scale `(b·n)`.
#[derive(Clone, Debug)]
pub struct Parts {
    /// `x`, the hidden states entering the layer.
    pub input: DMatrix<f64>,
    /// `Σ_h w_h + b_O`, the attention sublayer's output before the residual.
    pub attn: DMatrix<f64>,
    /// `σ₁ = √(var(u₁) + ε)` per token.
    pub sigma1: Vec<f64>,
    /// `a = LN₁(x + attn)`.
    pub mid: DMatrix<f64>,
    /// `FFN(a) = GELU(a W₁ᵀ + b₁) W₂ᵀ + b₂`.
    pub ffn: DMatrix<f64>,
    /// `σ₂ = √(var(u₂) + ε)` per token.
    pub sigma2: Vec<f64>,
    /// `LN₂(a + ffn)`, the layer's output.
    pub output: DMatrix<f64>,
    /// Attention weights `[variant][head]`, each `(n, n)`.
    pub weights: Vec<Vec<DMatrix<f64>>>,
    /// Values `[variant][head]` with bias, each `(n, 32)`.
    pub values: Vec<Vec<DMatrix<f64>>>,
}

/// `LN(u)` and its per-token scale `σ = √(var + ε)`, the same arithmetic as
/// [`LayerNorm::forward`].
fn normalise(ln: &LayerNorm, u: &DMatrix<f64>) -> (DMatrix<f64>, Vec<f64>) {
    let mut sigma = Vec::with_capacity(u.nrows());
    let mut y = u.clone();
    for mut row in y.row_iter_mut() {
        let d = row.len() as f64;
        let mean = row.sum() / d;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d;
        let s = (var + super::minilm::weights::LAYER_NORM_EPS).sqrt();
        sigma.push(s);
        let inv = 1.0 / s;
        for (j, v) in row.iter_mut().enumerate() {
            *v = (*v - mean) * inv * ln.weight[j] + ln.bias[j];
        }
    }
    (y, sigma)
}

/// A LayerNorm frozen at the clean run's scales: `γ ⊙ (δ − mean(δ)) / σ`, per token.
///
/// # Shapes
/// `delta: (n, 384)`, `sigma: (n)` → `(n, 384)`.
pub fn frozen(ln: &LayerNorm, delta: &DMatrix<f64>, sigma: &[f64]) -> DMatrix<f64> {
    let mut y = delta.clone();
    for (r, mut row) in y.row_iter_mut().enumerate() {
        let mean = row.sum() / row.len() as f64;
        for (j, v) in row.iter_mut().enumerate() {
            *v = (*v - mean) / sigma[r] * ln.weight[j];
        }
    }
    y
}

/// Head `h`'s values carried through its slice of W_O: `f(x_j) = v_j W_O,hᵀ`, the
/// vectors of Kobayashi et al. 2020 whose norms weigh the attention weights.
///
/// # Shapes
/// `v: (n, 32)` → `(n, 384)`.
pub fn value_out(layer: &Layer, v: &DMatrix<f64>, h: usize) -> DMatrix<f64> {
    v * layer
        .attention_output
        .dense
        .weight
        .columns(h * D_K, D_K)
        .transpose()
}

/// `x Wᵀ + 1 bᵀ` computed as `(W xᵀ)ᵀ`, so that the large `W` is never copied (the
/// same map as [`Linear::forward`], up to rounding).
///
/// # Shapes
/// `x: (m, in)` → `(m, out)`.
fn apply(lin: &Linear, x: &DMatrix<f64>) -> DMatrix<f64> {
    let mut y = (&lin.weight * x.transpose()).transpose();
    for mut row in y.row_iter_mut() {
        row += lin.bias.transpose();
    }
    y
}

/// Run one layer on a stack of `ablate.len()` variants of an `n`-token sentence,
/// variant `k` with the heads in `ablate[k]` zeroed before W_O.
///
/// # Shapes
/// `x: (b·n, 384)` → [`Parts`] of `b·n` rows.
///
/// # Panics
/// If `x` does not have `ablate.len() · n` rows.
pub fn layer_parts(layer: &Layer, x: &DMatrix<f64>, n: usize, ablate: &[Vec<usize>]) -> Parts {
    let b = ablate.len();
    assert_eq!(
        x.nrows(),
        b * n,
        "layer_parts: x has {} rows, {b} variants of {n} tokens",
        x.nrows()
    );
    let (q, k, v) = (
        apply(&layer.query, x),
        apply(&layer.key, x),
        apply(&layer.value, x),
    );
    let mut context = DMatrix::zeros(b * n, HEADS * D_K);
    let (mut weights, mut values) = (Vec::with_capacity(b), Vec::with_capacity(b));
    for (s, heads) in ablate.iter().enumerate() {
        let (mut ws, mut vs) = (Vec::with_capacity(HEADS), Vec::with_capacity(HEADS));
        for h in 0..HEADS {
            // variant s, head h: rows s·n.., columns h·32..
            let block = |m: &DMatrix<f64>| m.view((s * n, h * D_K), (n, D_K)).into_owned();
            let (qh, kh, vh) = (block(&q), block(&k), block(&v));
            let a = softmax_rows(&scores(&qh, &kh, 1.0 / (D_K as f64).sqrt()));
            if !heads.contains(&h) {
                context
                    .view_mut((s * n, h * D_K), (n, D_K))
                    .copy_from(&(&a * &vh));
            }
            ws.push(a);
            vs.push(vh);
        }
        weights.push(ws);
        values.push(vs);
    }
    let ao = &layer.attention_output;
    let attn = apply(&ao.dense, &context);
    let (mid, sigma1) = normalise(&ao.layer_norm, &(&attn + x));
    let ffn = apply(
        &layer.output.dense,
        &apply(&layer.intermediate, &mid).map(gelu),
    );
    let (output, sigma2) = normalise(&layer.output.layer_norm, &(&ffn + &mid));
    Parts {
        input: x.clone(),
        attn,
        sigma1,
        mid,
        ffn,
        sigma2,
        output,
        weights,
        values,
    }
}

/// Run layers `from..6` on a stack of variants, variant `k` ablating the `(layer, head)`
/// pairs in `ablate[k]`.
///
/// # Shapes
/// `x: (b·n, 384)` → one [`Parts`] per layer run.
///
/// # Panics
/// As [`layer_parts`], and if an ablated pair is out of range.
pub fn run_parts(
    w: &Weights,
    from: usize,
    x: DMatrix<f64>,
    n: usize,
    ablate: &[Vec<(usize, usize)>],
) -> Vec<Parts> {
    for &(l, h) in ablate.iter().flatten() {
        assert!(
            l < w.layers.len() && h < HEADS,
            "run_parts: (layer {l}, head {h}) out of range"
        );
    }
    let mut x = x;
    let mut out = Vec::new();
    for (i, layer) in w.layers.iter().enumerate().skip(from) {
        let heads: Vec<Vec<usize>> = ablate
            .iter()
            .map(|a| a.iter().filter(|(l, _)| *l == i).map(|(_, h)| *h).collect())
            .collect();
        let parts = layer_parts(layer, &x, n, &heads);
        x = parts.output.clone();
        out.push(parts);
    }
    out
}

/// Where a change enters a layer: before its first LayerNorm (attention sublayer) or
/// before its second (FFN sublayer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Attention,
    Ffn,
}

/// Carry a change `delta` entering layer `layer` at `stage` to the last hidden states
/// along the residual path, every LayerNorm frozen at the `clean` run's scales.
///
/// # Shapes
/// `delta: (n, 384)`, `clean`: all six layers of one variant → `(n, 384)`.
pub fn propagate(
    w: &Weights,
    clean: &[Parts],
    layer: usize,
    stage: Stage,
    delta: DMatrix<f64>,
) -> DMatrix<f64> {
    let mut d = delta;
    for (l, p) in clean.iter().enumerate().skip(layer) {
        let lw = &w.layers[l];
        if l > layer || stage == Stage::Attention {
            d = frozen(&lw.attention_output.layer_norm, &d, &p.sigma1);
        }
        d = frozen(&lw.output.layer_norm, &d, &p.sigma2);
    }
    d
}

/// The direct effect of removing head `h` of layer `layer` (see the module docs):
/// `−w_h` carried along the frozen residual path.
///
/// # Shapes
/// `clean`: all six layers of one variant → `(n, 384)`.
pub fn direct_effect(w: &Weights, clean: &[Parts], layer: usize, h: usize) -> DMatrix<f64> {
    let p = &clean[layer];
    let write = &p.weights[0][h] * value_out(&w.layers[layer], &p.values[0][h], h);
    propagate(w, clean, layer, Stage::Attention, -write)
}

/// Rows `k·n..(k+1)·n` of every matrix of `parts` (one variant of a stack).
pub fn variant(parts: &Parts, k: usize, n: usize) -> Parts {
    let rows = |m: &DMatrix<f64>| m.rows(k * n, n).into_owned();
    Parts {
        input: rows(&parts.input),
        attn: rows(&parts.attn),
        sigma1: parts.sigma1[k * n..(k + 1) * n].to_vec(),
        mid: rows(&parts.mid),
        ffn: rows(&parts.ffn),
        sigma2: parts.sigma2[k * n..(k + 1) * n].to_vec(),
        output: rows(&parts.output),
        weights: vec![parts.weights[k].clone()],
        values: vec![parts.values[k].clone()],
    }
}

/// The later computation's response to an ablation at `layer`, split by sublayer: each
/// sublayer's change (ablated run `ablated`, layers `layer..6`, minus `clean`) carried
/// along the frozen residual path. Entry `(ℓ', stage, Δ)`; the FFN of `layer` itself is
/// the first entry. To first order `Δ_tot ≈ Δ_dir + Σ Δ`.
pub fn indirect(
    w: &Weights,
    clean: &[Parts],
    ablated: &[Parts],
    layer: usize,
) -> Vec<(usize, Stage, DMatrix<f64>)> {
    let mut out = Vec::new();
    for (a, l) in ablated.iter().zip(layer..) {
        let c = &clean[l];
        if l > layer {
            out.push((
                l,
                Stage::Attention,
                propagate(w, clean, l, Stage::Attention, &a.attn - &c.attn),
            ));
        }
        out.push((
            l,
            Stage::Ffn,
            propagate(w, clean, l, Stage::Ffn, &a.ffn - &c.ffn),
        ));
    }
    out
}
