//! Direct against total effect of a change written into a transformer's
//! residual stream, the one measurement behind chapter 3's self-repair and
//! chapter 5's absorption (after McGrath et al. 2023, "The Hydra Effect",
//! arXiv:2307.15771), asked of either model through
//! [`Transformer::effects`].
//!
//! ```text
//! change δ enters layer ℓ's attention sum    u = x^ℓ + attn^ℓ + δ
//! total     Δ_tot  blocks ℓ.. rerun from u, on the read-out states
//! direct    Δ_dir  δ carried along the residual path, every norm on it frozen
//!                  at the clean run's scale:
//!   post-LN encoder   Δ_dir = LN°₂⁵ LN°₁⁵ ⋯ LN°₂^ℓ LN°₁^ℓ δ   (six frozen LayerNorms per path)
//!   pre-LN decoder    Δ_dir = δ / rms(x^L) ⊙ g_out          (the stream is a running sum:
//!                                                         only the final RMSNorm is on it)
//! output    the same two effects on what the model is used for: the pooled
//!           embedding's turn g(Δ) = P⊥ mean_i Δ_i (a sentence encoder), the
//!           logit of each position's clean top-1 token (a language model)
//! kept      κ = ⟨Δ_tot, Δ_dir⟩ / ‖Δ_dir‖²     κ < 1: later layers cancel part of δ
//! ```
//!
//! Each model carries its own direct path ([`super::minilm::repair`],
//! [`super::smollm2::repair`]); what an experiment does with the effects
//! (the changes, their means, κ) is written once, here and in
//! [`crate::experiment::multi_head::repair`].
//!
//! Introduced in chapter 3; chapter 5 reads the same numbers.

use nalgebra::{DMatrix, DVector};

use super::trace::Trace;
use super::transformer::Transformer;

/// The effects of one change.
#[derive(Clone, Debug)]
pub struct Effects {
    /// Total, on the read-out states `(n, d)`.
    pub total: DMatrix<f64>,
    /// Direct, every norm on the residual path frozen at the clean run, `(n, d)`.
    pub direct: DMatrix<f64>,
    /// Direct with every norm on the path recomputed (sublayer outputs frozen):
    /// the post-LN encoder only, whose direct path crosses twelve LayerNorms; in
    /// the pre-LN decoder the only norm on it is the read-out's own.
    pub recomputed: Option<DMatrix<f64>>,
    /// `[total, direct]` on the model's output (see the module docs).
    pub output: [DVector<f64>; 2],
}

/// `κ = ⟨total, direct⟩ / ‖direct‖²`.
pub fn kept(total: &DMatrix<f64>, direct: &DMatrix<f64>) -> f64 {
    total.dot(direct) / direct.norm_squared()
}

/// `g(Δ) = P⊥ mean_i Δ_i`: a change's turn of the pooled embedding, `ê` the
/// clean (unit) embedding.
///
/// # Shapes
/// `delta: (n, d)`, `e: (d)` → `(d)`.
pub fn turn(delta: &DMatrix<f64>, e: &DVector<f64>) -> DVector<f64> {
    let m: DVector<f64> = delta.row_sum().transpose() / delta.nrows() as f64;
    &m - e * e.dot(&m)
}

/// Mean over every token of `runs` of each head's write `w_h = α_h f`,
/// `[layer·heads + head]`, and of each layer's whole attention output (bias
/// included), `[layer]`: what mean ablation puts in their place.
pub fn mean_writes(m: &dyn Transformer, runs: &[&Trace]) -> (Vec<DVector<f64>>, Vec<DVector<f64>>) {
    let (layers, heads) = (m.layers(), m.heads());
    let d = runs[0].output.ncols();
    let (mut head, mut layer) = (
        vec![DVector::zeros(d); layers * heads],
        vec![DVector::zeros(d); layers],
    );
    let mut tokens = 0.0;
    for t in runs {
        tokens += t.output.nrows() as f64;
        for (l, lt) in t.layers.iter().enumerate() {
            layer[l] += m.attention(lt).row_sum().transpose();
            for h in 0..heads {
                head[l * heads + h] += m.write(lt, h).row_sum().transpose();
            }
        }
    }
    for v in head.iter_mut().chain(layer.iter_mut()) {
        *v /= tokens;
    }
    (head, layer)
}
