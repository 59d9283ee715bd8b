//! The delta-family recurrence of [`crate::mixer::recurrence`] in `f32` over a
//! batch: the same forward and reverse-time backward, on row-major slices
//! (row `b·T + t`, a row of `K` or `V` numbers contiguous), the state `[K, V]`
//! row-major so that every update is a run of `V` contiguous numbers.
//!
//! ```text
//! forward   S' = Diag(α_t) S_{t-1},  u_t = v_t − S'ᵀ k_t,  S_t = S' + β_t k_t u_tᵀ,  o_t = S_tᵀ (s q_t)
//! backward  Σ̄ ← Σ̄ + s q_t ō_tᵀ,  q̄_t = s S_t ō_t,  β̄_t = k_tᵀ Σ̄ u_t,  ū = β_t Σ̄ᵀ k_t,
//!           k̄_t = β_t Σ̄ u_t − S' ū,  Σ̄' = Σ̄ − k_t ūᵀ,  ḡ_t[c] = α_t[c] Σ_j Σ̄'[c, j] S_{t-1}[c, j],
//!           Σ̄ ← Diag(α_t) Σ̄'
//! ```
//! Linear attention is `β = 1` without the correction (`u_t = v_t`) and without decay;
//! with the normaliser, `o_t` is divided by `d_t = s q_t·z_t + ε`, `z_t = Σ_{j≤t} k_j`,
//! and the backward adds its terms as the reference's does.
//! Both passes are written once over a value width `W` known at compile time
//! (`W = 0`: read it from the inputs), and run with `W = V` for the widths the
//! book trains (8 and 16), where every row of the state is a fixed-size array
//! the compiler keeps in vector registers.
//! Introduced in chapter 7.

use super::rows::exp;

/// The inputs: `q, k: [B·T, K]`, `v: [B·T, V]`, `beta: [B·T]` (none: linear
/// attention), `g: [B·T, K]` natural-log decays (none: no decay), all row-major.
#[derive(Clone, Copy, Debug)]
pub struct Lanes<'a> {
    pub q: &'a [f32],
    pub k: &'a [f32],
    pub v: &'a [f32],
    pub beta: Option<&'a [f32]>,
    pub g: Option<&'a [f32]>,
    pub scale: f32,
    /// The normaliser's `ε` (none: no normaliser).
    pub normaliser: Option<f32>,
    /// `T`, the rows of one sequence.
    pub t_len: usize,
    /// `K`
    pub kd: usize,
}

/// What the forward pass keeps: every state `S_0 … S_T` of every sequence,
/// the corrections `u`, and with the normaliser every `z_t` and `d_t`.
#[derive(Clone, Debug)]
pub struct Trace {
    /// `[B, T + 1, K, V]`
    states: Vec<f32>,
    /// `[B·T, V]`
    u: Vec<f32>,
    /// `[B·T, K]` (empty without the normaliser)
    z: Vec<f32>,
    /// `[B·T]` (empty without the normaliser)
    den: Vec<f32>,
}

/// The gradients of the inputs, row-major as the inputs.
#[derive(Clone, Debug)]
pub struct Grads {
    pub q: Vec<f32>,
    pub k: Vec<f32>,
    pub v: Vec<f32>,
    /// Zero for linear attention.
    pub beta: Vec<f32>,
    /// Zero without decay.
    pub g: Vec<f32>,
}

impl Lanes<'_> {
    fn vd(&self) -> usize {
        self.v.len() * self.kd / self.k.len()
    }

    fn rows(&self) -> usize {
        self.k.len() / self.kd
    }
}

/// `y += w x`.
#[inline(always)]
fn axpy(y: &mut [f32], w: f32, x: &[f32]) {
    y.iter_mut().zip(x).for_each(|(a, &b)| *a += w * b);
}

#[inline(always)]
/// `x · y`, summed in eight lanes so that the products vectorise.
fn dot(x: &[f32], y: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (a, b) in x.chunks(8).zip(y.chunks(8)) {
        lanes
            .iter_mut()
            .zip(a.iter().zip(b))
            .for_each(|(l, (p, q))| *l += p * q);
    }
    lanes.iter().sum()
}

/// The outputs `[B·T, V]` (row-major) and the trace.
///
/// # Panics
/// If the slices' lengths disagree with `T` and `K`.
#[inline(always)]
pub fn forward(x: &Lanes) -> (Vec<f32>, Trace) {
    match x.vd() {
        8 => forward_with::<8>(x),
        16 => forward_with::<16>(x),
        _ => forward_with::<0>(x),
    }
}

/// The gradients of the inputs from `d_o: [B·T, V]` (row-major).
#[inline(always)]
pub fn backward(x: &Lanes, trace: &Trace, d_o: &[f32]) -> Grads {
    match x.vd() {
        8 => backward_with::<8>(x, trace, d_o),
        16 => backward_with::<16>(x, trace, d_o),
        _ => backward_with::<0>(x, trace, d_o),
    }
}

/// `W`, or the inputs' `V` where `W = 0`.
#[inline(always)]
fn width<const W: usize>(x: &Lanes) -> usize {
    if W == 0 { x.vd() } else { W }
}

#[inline(always)]
fn forward_with<const W: usize>(x: &Lanes) -> (Vec<f32>, Trace) {
    let (kd, vd, n, t_len) = (x.kd, width::<W>(x), x.rows(), x.t_len);
    assert!(
        x.q.len() == x.k.len() && n % t_len == 0 && x.v.len() == n * vd,
        "fast recurrence: q, k, v of lengths {}, {}, {} do not make rows of K = {kd} and T = {t_len}",
        x.q.len(),
        x.k.len(),
        x.v.len()
    );
    let kv = kd * vd;
    let mut states = vec![0.0f32; n / t_len * (t_len + 1) * kv];
    let mut us = vec![0.0f32; n * vd];
    let mut out = vec![0.0f32; n * vd];
    let normalised = x.normaliser.is_some();
    let mut zs = vec![0.0f32; if normalised { n * kd } else { 0 }];
    let mut den = vec![0.0f32; if normalised { n } else { 0 }];
    for b in 0..n / t_len {
        let base = b * (t_len + 1) * kv;
        for t in 0..t_len {
            let r = b * t_len + t;
            let (done, rest) = states.split_at_mut(base + (t + 1) * kv);
            let s = &mut rest[..kv];
            s.copy_from_slice(&done[base + t * kv..]);
            if let Some(g) = x.g {
                for (c, row) in s.chunks_exact_mut(vd).enumerate() {
                    let a = exp(g[r * kd + c]);
                    row.iter_mut().for_each(|e| *e *= a);
                }
            }
            let (kr, qr) = (&x.k[r * kd..(r + 1) * kd], &x.q[r * kd..(r + 1) * kd]);
            let u = &mut us[r * vd..(r + 1) * vd];
            u.copy_from_slice(&x.v[r * vd..(r + 1) * vd]);
            let strength = match x.beta {
                Some(beta) => {
                    for (row, &kc) in s.chunks_exact(vd).zip(kr) {
                        axpy(u, -kc, row);
                    }
                    beta[r]
                }
                None => 1.0,
            };
            let o = &mut out[r * vd..(r + 1) * vd];
            for ((row, &kc), &qc) in s.chunks_exact_mut(vd).zip(kr).zip(qr) {
                axpy(row, strength * kc, u);
                axpy(o, x.scale * qc, row);
            }
            // z_t = z_{t−1} + k_t;  o_t ← o_t / (s q_t·z_t + ε)
            if let Some(eps) = x.normaliser {
                let (done, z) = zs.split_at_mut(r * kd);
                let z = &mut z[..kd];
                if t > 0 {
                    z.copy_from_slice(&done[(r - 1) * kd..]);
                }
                axpy(z, 1.0, kr);
                den[r] = x.scale * dot(qr, z) + eps;
                o.iter_mut().for_each(|e| *e /= den[r]);
            }
        }
    }
    let trace = Trace {
        states,
        u: us,
        z: zs,
        den,
    };
    (out, trace)
}

#[inline(always)]
fn backward_with<const W: usize>(x: &Lanes, trace: &Trace, d_o: &[f32]) -> Grads {
    let (kd, vd, n, t_len) = (x.kd, width::<W>(x), x.rows(), x.t_len);
    let kv = kd * vd;
    let mut gr = Grads {
        q: vec![0.0; n * kd],
        k: vec![0.0; n * kd],
        v: vec![0.0; n * vd],
        beta: vec![0.0; n],
        g: vec![0.0; n * kd],
    };
    let mut ds = vec![0.0f32; kv];
    let mut du = vec![0.0f32; vd];
    // ζ̄ = ∂L/∂z_t;  the numerator's ō
    let mut dz = vec![0.0f32; kd];
    let mut dor = vec![0.0f32; vd];
    for b in 0..n / t_len {
        ds.fill(0.0);
        dz.fill(0.0);
        let base = b * (t_len + 1) * kv;
        for t in (0..t_len).rev() {
            let r = b * t_len + t;
            let s_t = &trace.states[base + (t + 1) * kv..base + (t + 2) * kv];
            let s_prev = &trace.states[base + t * kv..base + (t + 1) * kv];
            let (kr, qr) = (&x.k[r * kd..(r + 1) * kd], &x.q[r * kd..(r + 1) * kd]);
            dor.copy_from_slice(&d_o[r * vd..(r + 1) * vd]);
            if x.normaliser.is_some() {
                // ō_t ← ō_t / d_t
                dor.iter_mut().for_each(|e| *e /= trace.den[r]);
            }
            // Σ̄ += s q_t ō_tᵀ;  q̄_t = s S_t ō_t
            for c in 0..kd {
                axpy(&mut ds[c * vd..(c + 1) * vd], x.scale * qr[c], &dor);
                gr.q[r * kd + c] = x.scale * dot(&s_t[c * vd..(c + 1) * vd], &dor);
            }
            if x.normaliser.is_some() {
                // d̄ = −q_t·q̄_t / d;  q̄ += s d̄ z_t;  ζ̄ += s d̄ q_t;  k̄ += ζ̄
                let dq = &mut gr.q[r * kd..(r + 1) * kd];
                let w = -x.scale * dot(qr, dq) / trace.den[r];
                axpy(dq, w, &trace.z[r * kd..(r + 1) * kd]);
                axpy(&mut dz, w, qr);
                gr.k[r * kd..(r + 1) * kd].copy_from_slice(&dz);
            }
            let Some(beta) = x.beta else {
                // linear: k̄_t = Σ̄ v_t, v̄_t = Σ̄ᵀ k_t; Σ̄ passes on unchanged
                let vr = &x.v[r * vd..(r + 1) * vd];
                for (c, row) in ds.chunks_exact(vd).enumerate() {
                    gr.k[r * kd + c] += dot(row, vr);
                    axpy(&mut gr.v[r * vd..(r + 1) * vd], kr[c], row);
                }
                continue;
            };
            let (bt, u) = (beta[r], &trace.u[r * vd..(r + 1) * vd]);
            // ū = β Σ̄ᵀ k_t;  β̄ = k_t · Σ̄ u;  k̄_t = β Σ̄ u
            du.fill(0.0);
            let mut db = 0.0;
            for (c, row) in ds.chunks_exact(vd).enumerate() {
                let w = dot(row, u);
                db += kr[c] * w;
                gr.k[r * kd + c] += bt * w;
                axpy(&mut du, bt * kr[c], row);
            }
            gr.beta[r] = db;
            gr.v[r * vd..(r + 1) * vd].copy_from_slice(&du);
            for c in 0..kd {
                let a = x.g.map_or(1.0, |g| exp(g[r * kd + c]));
                let (row, prev) = (&mut ds[c * vd..(c + 1) * vd], &s_prev[c * vd..(c + 1) * vd]);
                // k̄ −= S' ū;  Σ̄' = Σ̄ − k ūᵀ;  ḡ = α Σ Σ̄' ⊙ S_{t−1};  Σ̄ ← α Σ̄'
                gr.k[r * kd + c] -= a * dot(prev, &du);
                axpy(row, -kr[c], &du);
                gr.g[r * kd + c] = a * dot(row, prev);
                row.iter_mut().for_each(|e| *e *= a);
            }
        }
    }
    gr
}
