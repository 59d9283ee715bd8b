//! Olsson et al.'s copying score: does a head's OV circuit, read from token
//! embedding to logit, map each token onto itself?
//!
//! ```text
//! M_h = Eᵀ diag(g_attn) W_V^h W_O^h diag(g_out) E        (vocab, vocab), tied E: (576, vocab)
//! nonzero eig(M_h) = eig(W_O^h diag(g_out) E Eᵀ diag(g_attn) W_V^h)      (64, 64), cyclic
//! positivity = Σ Re λ / Σ |λ|       1: copies, −1: suppresses, ≈ 0 for a random map
//! ```
//!
//! The RMSNorms' gains are folded in; their `1/rms(x)` scales are scalars and
//! leave the positivity unchanged.

use nalgebra::{DMatrix, DVector};

use crate::pretrained::smollm2::SmolLm2;

/// `Σ Re λ / Σ |λ|` over the eigenvalues of a square matrix.
///
/// ```
/// use attention_geometry::experiment::multi_head::induction_heads::copying::positivity;
/// use nalgebra::DMatrix;
/// assert!((positivity(&DMatrix::identity(3, 3)) - 1.0).abs() < 1e-12);
/// let rotation = DMatrix::from_row_slice(2, 2, &[0.0, -1.0, 1.0, 0.0]);
/// assert!(positivity(&rotation).abs() < 1e-12);
/// ```
pub fn positivity(m: &DMatrix<f64>) -> f64 {
    let eig = m.complex_eigenvalues();
    let re: f64 = eig.iter().map(|l| l.re).sum();
    let abs: f64 = eig.iter().map(|l| l.norm()).sum();
    re / abs
}

/// Every head's copying score, `[layer][head]`.
pub fn positivities(m: &SmolLm2) -> Vec<Vec<f64>> {
    let (c, w) = (&m.config, &m.weights);
    let r = c.head_dim;
    // E Eᵀ: (576, 576)
    let gram = (&w.embedding * w.embedding.transpose()).map(f64::from);
    let g_out: DVector<f64> = w.output_norm.map(f64::from);
    (0..c.n_layer)
        .map(|l| {
            let b = &w.blocks[l];
            let g_attn = m.attn_norm(l);
            // diag(g_out) E Eᵀ diag(g_attn)
            let inner = DMatrix::from_fn(c.d_model, c.d_model, |i, j| {
                g_out[i] * gram[(i, j)] * g_attn[j]
            });
            (0..c.n_head)
                .map(|h| {
                    let w_v = b.w_v.columns(c.kv_head(h) * r, r).map(f64::from);
                    let w_o = b.w_o.rows(h * r, r).map(f64::from);
                    positivity(&(w_o * &inner * w_v))
                })
                .collect()
        })
        .collect()
}
