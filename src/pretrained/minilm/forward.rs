//! MiniLM's forward pass, as Hugging Face's `BertModel` computes it, recording every
//! layer's input and every head's Q, K, V, scores and attention weights.
//!
//! ```text
//! x⁰ = LN(E_word[ids] + E_pos[0..n] + E_type[0])
//! per layer ℓ, head h (rows h·32..(h+1)·32 of each weight):
//!   q_h = x W_qhᵀ + b_qh,  k_h = x W_khᵀ + b_kh,  v_h = x W_vhᵀ + b_vh       (n, 32)
//!   scores_h = q_h k_hᵀ / √32,   weights_h = softmax_rows(scores_h)        (n, n)
//!   context = [weights_1 v_1 | … | weights_12 v_12]                         (n, 384)
//!   a = LN(context W_Oᵀ + b_O + x)
//!   x^{ℓ+1} = LN(GELU(a W_1ᵀ + b_1) W_2ᵀ + b_2 + a),  GELU(z) = z/2 · (1 + erf(z/√2))
//! sentence embedding = normalise(mean over all n tokens of x⁶)
//! ```
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use super::weights::{Layer, Weights};
use super::{D_K, HEADS};
use crate::attention::{scores, softmax_rows};
use crate::pretrained::trace::{HeadTrace, LayerTrace, Trace};

/// Exact GELU, `z/2 · (1 + erf(z/√2))` (`hidden_act = "gelu"`).
///
/// ```
/// use attention_geometry::pretrained::minilm::gelu;
/// assert!((gelu(1.0) - 0.841_344_746_068_543).abs() < 1e-15);
/// ```
pub fn gelu(z: f64) -> f64 {
    0.5 * z * (1.0 + libm::erf(z / std::f64::consts::SQRT_2))
}

/// The rest of a layer from its attention sum `u₁ = context W_Oᵀ + b_O + x`:
///
/// ```text
/// a   = LN₁(u₁)
/// out = LN₂(GELU(a W_1ᵀ + b_1) W_2ᵀ + b_2 + a)     skip = true (as trained)
/// out = LN₂(GELU(a W_1ᵀ + b_1) W_2ᵀ + b_2)         skip = false (chapter 5's FFN without its skip)
/// ```
///
/// # Shapes
/// `u1: (n, 384)` → `(n, 384)`.
pub fn finish(layer: &Layer, u1: &DMatrix<f64>, skip: bool) -> DMatrix<f64> {
    let a = layer.attention_output.layer_norm.forward(u1);
    let ffn = layer
        .output
        .dense
        .forward(&layer.intermediate.forward(&a).map(gelu));
    match skip {
        true => layer.output.layer_norm.forward(&(ffn + &a)),
        false => layer.output.layer_norm.forward(&ffn),
    }
}

/// The embeddings' output for `ids` at positions `0..n`, token type 0.
///
/// # Shapes
/// `ids: n` → `(n, 384)`.
///
/// # Panics
/// If `n` exceeds 512 positions or an id is outside the vocabulary.
pub fn embed(w: &Weights, ids: &[u32]) -> DMatrix<f64> {
    let e = &w.embeddings;
    assert!(
        ids.len() <= e.position_embeddings.nrows(),
        "embed: {} tokens, at most {} positions",
        ids.len(),
        e.position_embeddings.nrows()
    );
    let d = e.word_embeddings.ncols();
    let x = DMatrix::from_fn(ids.len(), d, |i, j| {
        e.word_embeddings[(ids[i] as usize, j)]
            + e.position_embeddings[(i, j)]
            + e.token_type_embeddings[(0, j)]
    });
    e.layer_norm.forward(&x)
}

/// Run one layer on `x`, with the heads in `ablate` contributing a zero context
/// (their output is zeroed before W_O).
///
/// # Shapes
/// `x: (n, 384)` → `(n, 384)` and the layer's [`LayerTrace`].
pub fn layer_forward(
    layer: &Layer,
    index: usize,
    x: &DMatrix<f64>,
    ablate: &[usize],
) -> (DMatrix<f64>, LayerTrace) {
    let (q, k, v) = (
        layer.query.forward(x),
        layer.key.forward(x),
        layer.value.forward(x),
    );
    let n = x.nrows();
    let mut context = DMatrix::zeros(n, HEADS * D_K);
    let heads: Vec<HeadTrace> = (0..HEADS)
        .map(|h| {
            // columns h·32..(h+1)·32 of q = rows of W_q
            let (q, k, v) = (cols(&q, h), cols(&k, h), cols(&v, h));
            let s = scores(&q, &k, 1.0 / (D_K as f64).sqrt());
            let a = softmax_rows(&s);
            if !ablate.contains(&h) {
                context.columns_mut(h * D_K, D_K).copy_from(&(&a * &v));
            }
            HeadTrace {
                q_rot: q.clone(),
                k_rot: k.clone(),
                q,
                k,
                v,
                scores: s,
                weights: a,
            }
        })
        .collect();
    let out = finish(
        layer,
        &(layer.attention_output.dense.forward(&context) + x),
        true,
    );
    let trace = LayerTrace {
        layer: index,
        input: x.clone(),
        heads,
    };
    (out, trace)
}

fn cols(m: &DMatrix<f64>, h: usize) -> DMatrix<f64> {
    m.columns(h * D_K, D_K).into_owned()
}

/// Run layers `from..6` on the hidden states `x` entering layer `from`, zeroing the
/// context of every `(layer, head)` in `ablate`.
///
/// # Shapes
/// `x: (n, 384)`.
///
/// # Panics
/// If `from > 6`, or an ablated layer or head is out of range.
pub fn run_from(w: &Weights, from: usize, x: DMatrix<f64>, ablate: &[(usize, usize)]) -> Trace {
    assert!(
        from <= w.layers.len(),
        "run_from: layer {from} out of range 0..={}",
        w.layers.len()
    );
    for &(l, h) in ablate {
        assert!(
            l < w.layers.len() && h < HEADS,
            "ablate: (layer {l}, head {h}) out of range (layers 0..{}, heads 0..{HEADS})",
            w.layers.len()
        );
    }
    let mut x = x;
    let mut layers = Vec::new();
    for (i, layer) in w.layers.iter().enumerate().skip(from) {
        let heads: Vec<usize> = ablate
            .iter()
            .filter(|(l, _)| *l == i)
            .map(|(_, h)| *h)
            .collect();
        let (out, trace) = layer_forward(layer, i, &x, &heads);
        layers.push(trace);
        x = out;
    }
    Trace { layers, output: x }
}
