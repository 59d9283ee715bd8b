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
//! thing chunk by chunk with the WY/UT transform, [`kda_fused`] as a recurrence
//! in one pass over the state per two steps; [`kda`] is the readable reference.
//! [`softmax_attention`] is the softmax mixer in the same conventions, for
//! comparisons of cost. [`DeltaInput`] bundles the inputs, checked once, with
//! a method for each mixer; the free functions are thin wrappers of the same kernels.
//!
//! Introduced in chapter 7.

pub mod args;
mod block;
mod chunked;
mod cost;
pub mod fused;
mod input;
pub mod lanes;
mod layer;
mod prefetch;
mod recurrent;
mod sweep;
pub mod wide;

pub use chunked::{
    ChunkMatrices, DecayForm, SAFE_EXPONENT, chunk_matrices, kda_chunked, kda_chunked_with,
};
pub use cost::{flops_chunked, flops_recurrent, flops_softmax};
pub use fused::{PANEL_BYTES as FUSED_PANEL_BYTES, STEPS as FUSED_STEPS, kda_fused};
pub use input::{DeltaInput, Gate, ShapeError};
pub use layer::{beta_from_logits, gated_rms_norm, kda_gate, l2_normalize, sigmoid, softplus};
pub use recurrent::{
    delta_rule, effective_weights, gated_delta_rule, kda, linear_attention, regression_loss,
    softmax_attention,
};
