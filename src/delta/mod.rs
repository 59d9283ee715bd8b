//! Delta-rule attention: a recurrent `[K, V]` state written by (gated) delta
//! corrections instead of a table of token-to-token similarities.
//!
//! One head, rows are time steps, the state `S` is `[K, V]` (one row per key
//! channel, as in flash-linear-attention), and the read-out uses the state
//! after step `t` has written:
//!
//! ```text
//! linear attention   S_t = S_{t-1} + k_t v_tᵀ
//! DeltaNet           S_t = S_{t-1} + β_t k_t (v_t − S_{t-1}ᵀ k_t)ᵀ
//! Gated DeltaNet     S' = exp(g_t) S_{t-1},        S_t = S' + β_t k_t (v_t − S'ᵀ k_t)ᵀ
//! KDA                S' = Diag(exp(g_t)) S_{t-1},  S_t = S' + β_t k_t (v_t − S'ᵀ k_t)ᵀ
//! read-out           o_t = S_tᵀ (scale · q_t)
//! ```
//!
//! Every function takes `q, k: [T, K]`, `v: [T, V]`, per-step `beta: [T]`,
//! natural-log decays `g` (`[T]` scalar or `[T, K]` per channel, `≤ 0`), the
//! `scale` that multiplies `q` (usually `K^-1/2`) and an optional
//! `initial_state: [K, V]` added to a zero state; each returns
//! `(outputs [T, V], final_state [K, V])`. [`kda_chunked`] computes the same
//! thing chunk by chunk with the WY/UT transform. [`softmax_attention`] is the
//! softmax mixer in the same conventions, for comparisons of cost.
//!
//! Introduced in chapter 7.

mod chunked;
mod cost;
mod layer;
mod recurrent;

pub use chunked::{ChunkMatrices, DecayForm, chunk_matrices, kda_chunked, kda_chunked_with};
pub use cost::{flops_chunked, flops_recurrent, flops_softmax};
pub use layer::{beta_from_logits, gated_rms_norm, kda_gate, l2_normalize, sigmoid, softplus};
pub use recurrent::{
    delta_rule, effective_weights, gated_delta_rule, kda, linear_attention, regression_loss,
    softmax_attention,
};

use nalgebra::{DMatrix, DVector};

/// A gate's description, actual shape and expected shape, e.g. `("[T, K]", g.shape(), k.shape())`.
type GateShape<'a> = (&'a str, (usize, usize), (usize, usize));

/// Panic with the shapes unless `q, k: [T, K]`, `v: [T, V]`, `beta: [T]`,
/// `g` (described, actual, expected shape) and `initial_state: [K, V]` agree.
fn check_shapes(
    name: &str,
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    beta: Option<&DVector<f64>>,
    g: Option<GateShape>,
    initial_state: Option<&DMatrix<f64>>,
) {
    let (t, kd) = k.shape();
    let vd = v.ncols();
    let problem = if q.shape() != k.shape() {
        Some(format!(
            "q is {:?} but k is {:?}; both must be [T, K]",
            q.shape(),
            k.shape()
        ))
    } else if v.nrows() != t {
        Some(format!(
            "v is {:?} but k is {:?}; v must be [T, V] with the same T",
            v.shape(),
            k.shape()
        ))
    } else if beta.is_some_and(|b| b.len() != t) {
        Some(format!(
            "beta has length {} but T = {t}",
            beta.map_or(0, |b| b.len())
        ))
    } else if let Some((want, got, expected)) = g.filter(|(_, got, expected)| got != expected) {
        Some(format!("g is {got:?} but must be {want} = {expected:?}"))
    } else if initial_state.is_some_and(|s| s.shape() != (kd, vd)) {
        Some(format!(
            "initial_state is {:?} but must be [K, V] = [{kd}, {vd}]",
            initial_state.map(|s| s.shape()).unwrap_or_default()
        ))
    } else {
        None
    };
    if let Some(p) = problem {
        panic!("{name}: {p}");
    }
}
