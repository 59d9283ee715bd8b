//! The heads as each layer applies them to its normalised input: the preceding
//! norm's gain folded into `W_Q` and `W_K`, and (MiniLM) the biases carried as one
//! more input coordinate.
//!
//! ```text
//! MiniLM   x = γ ⊙ x̂ + β,  q = x W_Q + b_Q = [x̂, 1] [diag(γ) W_Q ; β W_Q + b_Q]   (d + 1, r)
//! SmolLM2  x = g ⊙ x̂,      q = x̂ diag(g) W_Q                                      (d, r)
//! ```
//!
//! γ, β are the LayerNorm that wrote the layer's input (the embeddings' for layer
//! 0, the previous layer's output LayerNorm after); `g` is the layer's attention
//! RMSNorm gain. Introduced in chapter 1.

use nalgebra::{DMatrix, DVector};

use super::heads::LayerHeads;
use super::minilm::weights::{LayerNorm, Linear};
use super::minilm::{D_K, HEADS, Minilm};
use super::smollm2::SmolLm2;

/// `[diag(γ) W ; β W + b]` for head `h` of `lin`, `(d + 1, r)`.
fn augmented(lin: &Linear, ln: &LayerNorm, h: usize) -> DMatrix<f64> {
    // W: (d, r), columns of head h
    let w = lin.weight.rows(h * D_K, D_K).transpose();
    let b: DVector<f64> = lin.bias.rows(h * D_K, D_K).into_owned();
    let d = w.nrows();
    let mut out = DMatrix::zeros(d + 1, D_K);
    for i in 0..d {
        out.row_mut(i).copy_from(&(w.row(i) * ln.weight[i]));
    }
    // β W + b, (1, r)
    out.row_mut(d)
        .copy_from(&(ln.bias.transpose() * &w + b.transpose()));
    out
}

/// MiniLM's layers, gains and biases folded in: heads `(385, 32)`.
pub fn minilm_folded(m: &Minilm) -> Vec<LayerHeads> {
    let w = &m.weights;
    (0..w.layers.len())
        .map(|l| {
            let ln = match l {
                0 => &w.embeddings.layer_norm,
                _ => &w.layers[l - 1].output.layer_norm,
            };
            let layer = &w.layers[l];
            LayerHeads {
                w_q: (0..HEADS).map(|h| augmented(&layer.query, ln, h)).collect(),
                w_k: (0..HEADS).map(|h| augmented(&layer.key, ln, h)).collect(),
            }
        })
        .collect()
}

/// SmolLM2's layers, the attention RMSNorm gain folded in: heads `(576, 64)`.
pub fn smollm2_folded(m: &SmolLm2) -> Vec<LayerHeads> {
    super::heads::smollm2_layers(m)
        .into_iter()
        .enumerate()
        .map(|(l, layer)| {
            let g = m.attn_norm(l);
            let fold =
                |x: DMatrix<f64>| DMatrix::from_fn(x.nrows(), x.ncols(), |i, j| g[i] * x[(i, j)]);
            LayerHeads {
                w_q: layer.w_q.into_iter().map(fold).collect(),
                w_k: layer.w_k.into_iter().map(fold).collect(),
            }
        })
        .collect()
}
