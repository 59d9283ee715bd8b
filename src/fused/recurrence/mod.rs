//! The delta-family recurrence of [`crate::mixer::fast::recurrence`] in two
//! kernels: eight sequences at a time across the lanes of a vector
//! ([`lanes`], every width), and at `K = V = 8` (the capacity page's width),
//! where the processor has AVX2, one sequence at a time with its whole state
//! in eight registers ([`avx2`]). The algebra is the fast pass's, and so are
//! the inputs and gradients (row-major rows). A test holds both to the fast
//! pass.
//!
//! ```text
//! forward   S' = Diag(α_t) S_{t-1},  u_t = v_t − S'ᵀ k_t,  S_t = S' + β_t k_t u_tᵀ,  o_t = S_tᵀ (s q_t)
//! backward  Σ̄ += s q_t ō_tᵀ,  q̄_t = s S_t ō_t,  ū = β_t Σ̄ᵀ k_t,  β̄_t = k_tᵀ Σ̄ u_t,
//!           k̄_t = β_t Σ̄ u_t − S' ū,  Σ̄' = Σ̄ − k_t ūᵀ,  ḡ_t = α_t ⊙ rows(Σ̄' ⊙ S_{t−1}),  Σ̄ ← Diag(α_t) Σ̄'
//! linear    β = 1, u = v, and neither correction (ū = Σ̄ᵀ k_t is v̄_t; Σ̄' = Σ̄)
//! ```
//! Introduced in chapter 7.

use crate::mixer::fast::recurrence::{Grads, Lanes};
use lanes::{LaneTrace, backward_lanes, forward_lanes};

#[cfg(target_arch = "x86_64")]
pub mod avx2;
pub mod lanes;

/// What the forward pass keeps for the backward pass, in the layout of the
/// kernel that ran it.
#[derive(Clone, Debug)]
pub struct Trace(Kept);

#[derive(Clone, Debug)]
enum Kept {
    Lanes(LaneTrace),
    #[cfg(target_arch = "x86_64")]
    Registers(avx2::Trace),
}

/// Whether the processor runs [`avx2`]'s kernel and it computes `x`.
#[cfg(target_arch = "x86_64")]
fn in_registers(x: &Lanes) -> bool {
    avx2::fits(x, lanes::width::<0>(x))
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("fma")
}

/// The outputs `[B·T, V]` (row-major) and the trace: at `K = V = 8` one
/// sequence at a time with its state in registers ([`avx2`]), otherwise
/// `L` sequences at a time across the lanes.
///
/// # Panics
/// If the slices' lengths disagree with `T` and `K`.
pub fn forward(x: &Lanes) -> (Vec<f32>, Trace) {
    let (kd, t_len) = (x.kd, x.t_len);
    let n = x.k.len() / kd;
    assert!(
        x.q.len() == x.k.len() && n.is_multiple_of(t_len) && x.v.len().is_multiple_of(n),
        "fused recurrence: q, k, v of lengths {}, {}, {} do not make rows of K = {kd} and T = {t_len}",
        x.q.len(),
        x.k.len(),
        x.v.len()
    );
    #[cfg(target_arch = "x86_64")]
    if in_registers(x) {
        // SAFETY: the processor has AVX2 and FMA, and the kernel fits `x`.
        let (o, trace) = unsafe { avx2::forward(x) };
        return (o, Trace(Kept::Registers(trace)));
    }
    let (o, trace) = forward_lanes(x);
    (o, Trace(Kept::Lanes(trace)))
}

/// The gradients of the inputs from `d_o: [B·T, V]` (row-major), by the
/// kernel that ran the forward pass.
pub fn backward(x: &Lanes, trace: &Trace, d_o: &[f32]) -> Grads {
    match &trace.0 {
        Kept::Lanes(t) => backward_lanes(x, t, d_o),
        // SAFETY: the forward pass ran this kernel, so the processor has AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        Kept::Registers(t) => unsafe { avx2::backward(x, t, d_o) },
    }
}
