//! The cheap first pass of the decoder's pruning: each head's first-order
//! direct effect on the next-token loss, through the frozen final norm.
//!
//! ```text
//! write      w_lh(i) = (A_lh V_g)_i W_O^h                       (d) the head's output at position i
//! gradient   ∂L_i/∂x_i = (g_out / rms(x_i)) ⊙ E (p_i − e_{y_i})  final stream x, rms frozen
//! effect     δ_lh(i) = −⟨w_lh(i), ∂L_i/∂x_i⟩                    removing the head, direct path only
//! ```
//!
//! Michel et al. (2019) score a head by |∂L/∂ξ_h| for a gate ξ_h on its
//! output; δ is that derivative with every later block frozen (the direct
//! path), per position.
//!
//! Introduced in chapter 3.

use nalgebra::DMatrix;

use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::smollm2::forward;
use crate::pretrained::trace::Trace;

/// `∂L_i/∂x_i` at every position `i < n − 1` (the token after it is `ids[i + 1]`).
///
/// # Shapes
/// `x: (n, d)` → `(n − 1, d)`.
pub fn loss_gradient(s: &SmolLm2, x: &DMatrix<f64>, ids: &[u32]) -> DMatrix<f64> {
    let n = ids.len() - 1;
    let rows = x.rows(0, n).map(|v| v as f32);
    let logits = forward::logits(&s.weights, &rows);
    // (n − 1, vocab): p_i − e_{y_i}
    let mut d = DMatrix::<f32>::zeros(n, logits.ncols());
    for i in 0..n {
        let row: Vec<f32> = logits.row(i).iter().copied().collect();
        for (j, lp) in forward::log_softmax(&row).into_iter().enumerate() {
            d[(i, j)] = lp.exp() as f32;
        }
        d[(i, ids[i + 1] as usize)] -= 1.0;
    }
    // (n − 1, d): (p − e_y) Eᵀ, then ⊙ g / rms
    let mut g = (d * s.weights.embedding.transpose()).map(f64::from);
    let eps = s.config.rms_eps;
    for i in 0..n {
        let rms = (x.row(i).norm_squared() / x.ncols() as f64 + eps).sqrt();
        for c in 0..x.ncols() {
            g[(i, c)] *= f64::from(s.weights.output_norm[c]) / rms;
        }
    }
    g
}

/// `δ_lh(i)` for every head, `[layer·heads + head][i]`, positions `i < n − 1`.
pub fn effects(s: &SmolLm2, trace: &Trace, ids: &[u32]) -> Vec<Vec<f64>> {
    let grad = loss_gradient(s, &trace.output, ids);
    let (n, r) = (ids.len() - 1, s.config.head_dim);
    let mut out = Vec::new();
    for layer in &trace.layers {
        let w_o = s.weights.blocks[layer.layer].w_o.map(f64::from);
        for (h, head) in layer.heads.iter().enumerate() {
            // (n, d): A V_g W_O^h
            let write = &head.weights * &head.v * w_o.rows(h * r, r);
            out.push((0..n).map(|i| -write.row(i).dot(&grad.row(i))).collect());
        }
    }
    out
}
