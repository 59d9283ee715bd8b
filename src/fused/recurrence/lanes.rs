//! The recurrence with the sequences across vector lanes: `L` sequences
//! advance together, each number of their states a vector of `L` lanes, so
//! that a step is a few hundred vector operations and none of them sums
//! across a vector. The inputs and gradients stay row-major rows; the
//! kernel turns them into lanes on the way in and back on the way out. It
//! runs every width, with or without the normaliser.
//!
//! ```text
//! lanes     x[b·T + t, c]  →  X[(G·T + t)·C + c][l],   b = G·L + l  (a batch short of L·G padded with zeros)
//! ```
//! Introduced in chapter 7.

use crate::fused::rows::exp;
use crate::mixer::fast::recurrence::{Grads, Lanes};

/// Sequences per group: eight `f32` lanes fill one AVX2 register.
const L: usize = 8;

/// One number of `L` sequences.
type Lane = [f32; L];

/// `a ⊙ b`
#[inline(always)]
fn mul(a: &Lane, b: &Lane) -> Lane {
    let (a, b) = (*a, *b);
    std::array::from_fn(|l| a[l] * b[l])
}

/// `y += a ⊙ b`, every operand read before `y` is written, so that the
/// compiler sees whole vectors.
#[inline(always)]
fn add_mul(y: &mut Lane, a: &Lane, b: &Lane) {
    let (y0, a, b) = (*y, *a, *b);
    *y = std::array::from_fn(|l| y0[l] + a[l] * b[l]);
}

/// `y −= a ⊙ b`, as [`add_mul`].
#[inline(always)]
fn sub_mul(y: &mut Lane, a: &Lane, b: &Lane) {
    let (y0, a, b) = (*y, *a, *b);
    *y = std::array::from_fn(|l| y0[l] - a[l] * b[l]);
}

/// `y *= a`
#[inline(always)]
fn scale(y: &mut Lane, a: &Lane) {
    *y = mul(y, a);
}

/// The row-major rows `x: [B·T, C]` of `B` sequences of `t_len` rows as lanes `[G, T, C]`.
/// Each lane is gathered whole, so that nothing is written twice.
#[inline(always)]
fn to_lanes(x: &[f32], c: usize, t_len: usize) -> Vec<Lane> {
    let n = t_len * c;
    let seqs = x.len() / n;
    let mut out = vec![[0.0; L]; seqs.div_ceil(L) * n];
    for (group, lanes) in x.chunks(L * n).zip(out.chunks_exact_mut(n)) {
        if group.len() == L * n {
            for (i, lane) in lanes.iter_mut().enumerate() {
                *lane = std::array::from_fn(|l| group[l * n + i]);
            }
        } else {
            for (l, seq) in group.chunks_exact(n).enumerate() {
                lanes.iter_mut().zip(seq).for_each(|(o, &e)| o[l] = e);
            }
        }
    }
    out
}

/// [`to_lanes`]'s inverse for `seqs` sequences.
#[inline(always)]
fn from_lanes(x: &[Lane], c: usize, t_len: usize, seqs: usize) -> Vec<f32> {
    let n = t_len * c;
    let mut out = vec![0.0; seqs * n];
    for (b, seq) in out.chunks_exact_mut(n).enumerate() {
        let (g, l) = (b / L, b % L);
        seq.iter_mut()
            .zip(&x[g * n..][..n])
            .for_each(|(o, e)| *o = e[l]);
    }
    out
}

/// The inputs as lanes.
#[derive(Clone, Debug)]
struct Inputs {
    q: Vec<Lane>,
    k: Vec<Lane>,
    v: Vec<Lane>,
    /// `[G, T]` (none: linear attention)
    beta: Option<Vec<Lane>>,
    /// `[G, T, K]`: `α = e^g`, computed once (none: no decay)
    alpha: Option<Vec<Lane>>,
}

/// What the lane recurrence keeps: the inputs as lanes, every state `S_0 … S_T`
/// of every group, the corrections `u`, and with the normaliser `z_t`, `d_t`.
#[derive(Clone, Debug)]
pub(super) struct LaneTrace {
    inputs: Inputs,
    /// `[G, T + 1, K, V]`
    states: Vec<Lane>,
    /// `[G, T, V]`
    u: Vec<Lane>,
    /// `[G, T, K]` (empty without the normaliser)
    z: Vec<Lane>,
    /// `[G, T]` (empty without the normaliser)
    den: Vec<Lane>,
}

vectorised! {
    /// [`super::forward`] with `L` sequences across the lanes.
    pub(super) fn forward_lanes(x: &Lanes) -> (Vec<f32>, LaneTrace) = forward_in;
}

/// The value width: `W`, or read from the inputs when `W = 0`.
#[inline(always)]
pub(super) fn width<const W: usize>(x: &Lanes) -> usize {
    if W == 0 {
        x.v.len() * x.kd / x.k.len()
    } else {
        W
    }
}

/// [`forward`] over the value width `W` (`W = 0`: read it from the inputs),
/// so that for the widths the book trains every loop over a row of the state
/// has a length known at compile time, and unrolls into whole vectors.
#[inline(always)]
fn forward_in(x: &Lanes) -> (Vec<f32>, LaneTrace) {
    match width::<0>(x) {
        8 => forward_with::<8>(x),
        16 => forward_with::<16>(x),
        _ => forward_with::<0>(x),
    }
}

#[inline(always)]
fn backward_in(x: &Lanes, trace: &LaneTrace, d_o: &[f32]) -> Grads {
    match width::<0>(x) {
        8 => backward_with::<8>(x, trace, d_o),
        16 => backward_with::<16>(x, trace, d_o),
        _ => backward_with::<0>(x, trace, d_o),
    }
}

#[inline(always)]
fn forward_with<const W: usize>(x: &Lanes) -> (Vec<f32>, LaneTrace) {
    let (kd, t_len) = (x.kd, x.t_len);
    let n = x.k.len() / kd;
    let vd = width::<W>(x);
    let mut alpha = x.g.map(|g| to_lanes(g, kd, t_len));
    if let Some(a) = &mut alpha {
        for lane in a.iter_mut() {
            lane.iter_mut().for_each(|e| *e = exp(*e));
        }
    }
    let inputs = Inputs {
        q: to_lanes(x.q, kd, t_len),
        k: to_lanes(x.k, kd, t_len),
        v: to_lanes(x.v, vd, t_len),
        beta: x.beta.map(|b| to_lanes(b, 1, t_len)),
        alpha,
    };
    let (groups, kv) = ((n / t_len).div_ceil(L), kd * vd);
    // each state is written once, pushed after the one before (not zeroed first)
    let mut states: Vec<Lane> = Vec::with_capacity(groups * (t_len + 1) * kv);
    let mut us = inputs.v.clone();
    let mut out = vec![[0.0; L]; groups * t_len * vd];
    let normalised = x.normaliser.is_some();
    let mut zs = vec![[0.0; L]; if normalised { groups * t_len * kd } else { 0 }];
    let mut den = vec![[0.0; L]; if normalised { groups * t_len } else { 0 }];
    let s_lane = [x.scale; L];
    let mut w = vec![[0.0; L]; kd];
    for g in 0..groups {
        // S_0 = 0
        states.resize(states.len() + kv, [0.0; L]);
        for t in 0..t_len {
            let r = g * t_len + t;
            let at = (g * (t_len + 1) + t) * kv;
            // S' = Diag(α) S_{t−1}
            states.extend_from_within(at..at + kv);
            let s = &mut states[at + kv..];
            if let Some(alpha) = &inputs.alpha {
                for (row, a) in s.chunks_exact_mut(vd).zip(&alpha[r * kd..][..kd]) {
                    row.iter_mut().for_each(|e| scale(e, a));
                }
            }
            let (kr, qr) = (&inputs.k[r * kd..][..kd], &inputs.q[r * kd..][..kd]);
            let u = &mut us[r * vd..][..vd];
            // u = v − S'ᵀ k;  w_c = β k_c
            match &inputs.beta {
                Some(beta) => {
                    for (row, kc) in s.chunks_exact(vd).zip(kr) {
                        u.iter_mut().zip(row).for_each(|(u, e)| sub_mul(u, kc, e));
                    }
                    w.iter_mut()
                        .zip(kr)
                        .for_each(|(w, kc)| *w = mul(kc, &beta[r]));
                }
                None => w.copy_from_slice(kr),
            }
            // S = S' + w uᵀ;  o = Sᵀ (s q)
            let o = &mut out[r * vd..][..vd];
            for ((row, wc), qc) in s.chunks_exact_mut(vd).zip(&w).zip(qr) {
                row.iter_mut()
                    .zip(u.iter())
                    .for_each(|(e, u)| add_mul(e, wc, u));
                let sq = mul(qc, &s_lane);
                o.iter_mut()
                    .zip(row.iter())
                    .for_each(|(o, e)| add_mul(o, &sq, e));
            }
            // z_t = z_{t−1} + k_t;  o ← o / (s q·z + ε)
            if let Some(eps) = x.normaliser {
                let (done, z) = zs.split_at_mut(r * kd);
                let z = &mut z[..kd];
                if t > 0 {
                    z.copy_from_slice(&done[(r - 1) * kd..]);
                }
                let mut d = [0.0; L];
                for ((z, kc), qc) in z.iter_mut().zip(kr).zip(qr) {
                    z.iter_mut().zip(kc).for_each(|(z, k)| *z += k);
                    add_mul(&mut d, qc, z);
                }
                let d: Lane = std::array::from_fn(|l| x.scale * d[l] + eps);
                o.iter_mut()
                    .for_each(|o| o.iter_mut().zip(&d).for_each(|(o, d)| *o /= d));
                den[r] = d;
            }
        }
    }
    let o = from_lanes(&out, vd, t_len, n / t_len);
    let trace = LaneTrace {
        inputs,
        states,
        u: us,
        z: zs,
        den,
    };
    (o, trace)
}

vectorised! {
    /// [`super::backward`] with `L` sequences across the lanes.
    pub(super) fn backward_lanes(x: &Lanes, trace: &LaneTrace, d_o: &[f32]) -> Grads = backward_in;
}

#[inline(always)]
fn backward_with<const W: usize>(x: &Lanes, trace: &LaneTrace, d_o: &[f32]) -> Grads {
    let (kd, t_len, inp) = (x.kd, x.t_len, &trace.inputs);
    let n = x.k.len() / kd;
    let vd = width::<W>(x);
    let (groups, kv) = ((n / t_len).div_ceil(L), kd * vd);
    let lanes = |c: usize| vec![[0.0f32; L]; groups * t_len * c];
    let (mut dq, mut dk, mut dv, mut db, mut dg) =
        (lanes(kd), lanes(kd), lanes(vd), lanes(1), lanes(kd));
    let d_o = to_lanes(d_o, vd, t_len);
    let s_lane = [x.scale; L];
    let mut ds = vec![[0.0f32; L]; kv];
    let mut du = vec![[0.0f32; L]; vd];
    let mut dor = vec![[0.0f32; L]; vd];
    let mut dz = vec![[0.0f32; L]; kd];
    for g in 0..groups {
        ds.fill([0.0; L]);
        dz.fill([0.0; L]);
        for t in (0..t_len).rev() {
            let r = g * t_len + t;
            let at = (g * (t_len + 1) + t) * kv;
            let (prev, s_t) = (&trace.states[at..][..kv], &trace.states[at + kv..][..kv]);
            let (kr, qr) = (&inp.k[r * kd..][..kd], &inp.q[r * kd..][..kd]);
            dor.copy_from_slice(&d_o[r * vd..][..vd]);
            if x.normaliser.is_some() {
                // ō ← ō / d_t
                let d = &trace.den[r];
                dor.iter_mut()
                    .for_each(|o| o.iter_mut().zip(d).for_each(|(o, d)| *o /= d));
            }
            // Σ̄ += s q ōᵀ;  q̄ = s S_t ō
            let dqr = &mut dq[r * kd..][..kd];
            for (((row, srow), qc), dqc) in ds
                .chunks_exact_mut(vd)
                .zip(s_t.chunks_exact(vd))
                .zip(qr)
                .zip(dqr.iter_mut())
            {
                let sq = mul(qc, &s_lane);
                row.iter_mut()
                    .zip(&dor)
                    .for_each(|(e, o)| add_mul(e, &sq, o));
                srow.iter().zip(&dor).for_each(|(e, o)| add_mul(dqc, e, o));
                scale(dqc, &s_lane);
            }
            let dkr = &mut dk[r * kd..][..kd];
            if x.normaliser.is_some() {
                let den = &trace.den[r];
                // d̄ = −s q·q̄ / d;  q̄ += d̄ z;  ζ̄ += s d̄ q;  k̄ = ζ̄
                let mut w = [0.0; L];
                qr.iter()
                    .zip(dqr.iter())
                    .for_each(|(q, d)| add_mul(&mut w, q, d));
                let w: Lane = std::array::from_fn(|l| -x.scale * w[l] / den[l]);
                let zr = &trace.z[r * kd..][..kd];
                for (((dqc, zc), dzc), qc) in dqr.iter_mut().zip(zr).zip(dz.iter_mut()).zip(qr) {
                    add_mul(dqc, &w, zc);
                    add_mul(dzc, &w, qc);
                }
                dkr.copy_from_slice(&dz);
            }
            let u = &trace.u[r * vd..][..vd];
            // ū = β Σ̄ᵀ k (linear: v̄ = Σ̄ᵀ k);  k̄ += β Σ̄ u;  β̄ = kᵀ Σ̄ u
            let beta = inp.beta.as_ref().map(|b| &b[r]);
            du.fill([0.0; L]);
            let mut dbr = [0.0; L];
            for ((row, kc), dkc) in ds.chunks_exact(vd).zip(kr).zip(dkr.iter_mut()) {
                let mut w = [0.0; L];
                row.iter().zip(u).for_each(|(e, u)| add_mul(&mut w, e, u));
                add_mul(&mut dbr, kc, &w);
                let bk = beta.map_or(*kc, |b| mul(b, kc));
                du.iter_mut().zip(row).for_each(|(d, e)| add_mul(d, &bk, e));
                match beta {
                    Some(b) => add_mul(dkc, b, &w),
                    None => dkc.iter_mut().zip(&w).for_each(|(d, w)| *d += w),
                }
            }
            dv[r * vd..][..vd].copy_from_slice(&du);
            if beta.is_some() {
                db[r] = dbr;
            }
            // k̄ −= S' ū;  Σ̄' = Σ̄ − k ūᵀ (delta only);  ḡ = α Σ_j Σ̄'[c, j] S_{t−1}[c, j];  Σ̄ ← α Σ̄'
            let rows = ds
                .chunks_exact_mut(vd)
                .zip(prev.chunks_exact(vd))
                .zip(kr)
                .enumerate();
            for (c, ((row, prow), kc)) in rows {
                let a = inp.alpha.as_ref().map(|al| &al[r * kd + c]);
                if beta.is_some() {
                    let mut sp = [0.0; L];
                    prow.iter()
                        .zip(du.iter())
                        .for_each(|(p, d)| add_mul(&mut sp, p, d));
                    let sp = a.map_or(sp, |a| mul(a, &sp));
                    dkr[c].iter_mut().zip(&sp).for_each(|(d, s)| *d -= s);
                    row.iter_mut()
                        .zip(du.iter())
                        .for_each(|(e, d)| sub_mul(e, kc, d));
                }
                if let Some(a) = a {
                    let mut dgc = [0.0; L];
                    row.iter()
                        .zip(prow)
                        .for_each(|(e, p)| add_mul(&mut dgc, e, p));
                    dg[r * kd + c] = mul(a, &dgc);
                    row.iter_mut().for_each(|e| scale(e, a));
                }
            }
        }
    }
    let seqs = n / t_len;
    Grads {
        q: from_lanes(&dq, kd, t_len, seqs),
        k: from_lanes(&dk, kd, t_len, seqs),
        v: from_lanes(&dv, vd, t_len, seqs),
        beta: from_lanes(&db, 1, t_len, seqs),
        g: from_lanes(&dg, kd, t_len, seqs),
    }
}
