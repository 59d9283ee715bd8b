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

use super::Repeat;
use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::trace::Trace;

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

/// Every head's direct logit effect on the token to predict, at each repeat
/// position whose next token is scored, mean over those positions,
/// `[layer][head]`:
///
/// ```text
/// write_i = (A_h V_h)_i W_O^h                                  (576)
/// u_i     = write_i / rms(x_i^L) ⊙ g_out                       the final norm's scale frozen
/// effect  = u_i · (E_{:, t_{i+1}} − mean_v E_{:, v})            nats of logit, 0 for no copying
/// ```
///
/// An induction head attends to the token after the first copy, which is
/// the next token here, so a copying head raises its logit.
pub fn direct(m: &SmolLm2, trace: &Trace, r: &Repeat) -> Vec<Vec<f64>> {
    let (c, w) = (&m.config, &m.weights);
    let rows = r.scored().1;
    let g_out: DVector<f64> = w.output_norm.map(f64::from);
    // ē: the mean embedding column, (576)
    let mean_e: DVector<f64> = w.embedding.column_mean().map(f64::from);
    // per scored position: (E_{:, next} − ē) ⊙ g_out / rms(x_i), (576)
    let read: Vec<DVector<f64>> = rows
        .clone()
        .map(|i| {
            let x = trace.output.row(i);
            let rms = (x.norm_squared() / c.d_model as f64 + c.rms_eps).sqrt();
            let e = w.embedding.column(r.ids[i + 1] as usize).map(f64::from);
            (e - &mean_e).component_mul(&g_out) / rms
        })
        .collect();
    trace
        .layers
        .iter()
        .map(|layer| {
            let b = &w.blocks[layer.layer];
            layer
                .heads
                .iter()
                .enumerate()
                .map(|(h, head)| {
                    let w_o = b.w_o.rows(h * c.head_dim, c.head_dim).map(f64::from);
                    // (|rows|, 64) → (|rows|, 576)
                    let ctx = head.weights.rows(rows.start, rows.len()) * &head.v;
                    let write = ctx * w_o;
                    let total: f64 = read
                        .iter()
                        .enumerate()
                        .map(|(k, u)| write.row(k).transpose().dot(u))
                        .sum();
                    total / rows.len() as f64
                })
                .collect()
        })
        .collect()
}
