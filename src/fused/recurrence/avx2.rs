//! The recurrence at `K = V = 8` in AVX2 and FMA, one sequence at a time with
//! its state in registers: row `c` of `S` (its `V` numbers) is one vector,
//! so the whole state is eight registers, held from the first step to the
//! last and stored to the trace once a step. The rows arrive and leave
//! row-major, as the pass holds them. The backward pass's dot products
//! along a row (four a row and step) are taken eight rows at once: the eight
//! products reduce to one vector of eight sums (`sums`). The algebra is
//! [`super`]'s, and a test holds the two to the fast pass's recurrence.
//!
//! ```text
//! state     S[c] = one vector of V = 8 lanes,  c < K = 8
//! forward   S' = α ⊙ S,  u = v − Σ_c k_c S'[c],  S[c] = S'[c] + β k_c u,  o = Σ_c s q_c S[c]
//! backward  Σ̄[c] += s q_c ō,  q̄ = s (S[c] · ō)_c,  w = (Σ̄[c] · u)_c,  β̄ = k · w,  ū = β Σ_c k_c Σ̄[c],
//!           k̄ = β w − α ⊙ (S_{t−1}[c] · ū)_c,  Σ̄[c] −= k_c ū,  ḡ = α ⊙ (Σ̄[c] · S_{t−1}[c])_c,  Σ̄[c] *= α_c
//! linear    β = 1, u = v, and neither correction: k̄ = (Σ̄[c] · v)_c, v̄ = Σ_c k_c Σ̄[c]
//! ```
//! Introduced in chapter 7.

use std::arch::x86_64::*;

use crate::fused::rows::avx2::{exp, sum};
use crate::fused::spare;
use crate::mixer::fast::recurrence::{Grads, Lanes};

/// `K = V`: the width this kernel runs.
pub(super) const W: usize = 8;

/// What the forward pass keeps, every sequence's rows in order.
#[derive(Clone, Debug)]
pub struct Trace {
    /// `[B, T + 1, K, V]`: `S_0 = 0 … S_T`.
    states: Vec<f32>,
    /// `[B·T, V]`
    u: Vec<f32>,
    /// `[B·T, K]`: `α = e^g` of every row (empty when nothing decays),
    /// computed before the steps so that no step waits for an exponential.
    alpha: Vec<f32>,
}

/// Whether this kernel computes `x`: `K = V = 8`, no normaliser, and a
/// decay only with the delta rule (as every mixer of the book has it).
pub(super) fn fits(x: &Lanes, vd: usize) -> bool {
    x.kd == W && vd == W && x.normaliser.is_none() && (x.g.is_none() || x.beta.is_some())
}

/// Eight numbers from `x[at ..]`.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn load(x: &[f32], at: usize) -> __m256 {
    let x = &x[at..at + W];
    // SAFETY: `x` holds the eight numbers read.
    unsafe { _mm256_loadu_ps(x.as_ptr()) }
}

/// Eight numbers into `x[at ..]`.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn store(x: &mut [f32], at: usize, v: __m256) {
    let x = &mut x[at..at + W];
    // SAFETY: `x` holds the eight numbers written.
    unsafe { _mm256_storeu_ps(x.as_mut_ptr(), v) }
}

/// `(Σ_j p_c[j])_c`: the lane sums of eight vectors as one vector, by three
/// rounds of pairwise sums and one exchange of halves.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn sums(p: [__m256; W]) -> __m256 {
    let h01 = _mm256_hadd_ps(p[0], p[1]);
    let h23 = _mm256_hadd_ps(p[2], p[3]);
    let h45 = _mm256_hadd_ps(p[4], p[5]);
    let h67 = _mm256_hadd_ps(p[6], p[7]);
    // [Σ₀₋₃ of rows 0–3 | Σ₄₋₇ of rows 0–3], and the same for rows 4–7
    let low = _mm256_hadd_ps(h01, h23);
    let high = _mm256_hadd_ps(h45, h67);
    _mm256_add_ps(
        _mm256_permute2f128_ps(low, high, 0x20),
        _mm256_permute2f128_ps(low, high, 0x31),
    )
}

/// `(a[c] · b[c])_c` for eight pairs of rows.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn dots(a: &[__m256; W], b: &[__m256; W]) -> __m256 {
    sums(std::array::from_fn(|c| _mm256_mul_ps(a[c], b[c])))
}

/// `Σ_c x[c] rows[c]`, in two running sums.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn combine(x: &[f32], rows: &[__m256; W]) -> __m256 {
    let (mut even, mut odd) = (_mm256_setzero_ps(), _mm256_setzero_ps());
    for c in (0..W).step_by(2) {
        even = _mm256_fmadd_ps(_mm256_set1_ps(x[c]), rows[c], even);
        odd = _mm256_fmadd_ps(_mm256_set1_ps(x[c + 1]), rows[c + 1], odd);
    }
    _mm256_add_ps(even, odd)
}

/// `α = e^g` of every row, `[B·T, K]` (empty when nothing decays).
#[target_feature(enable = "avx2,fma")]
#[inline]
fn decays(x: &Lanes) -> Vec<f32> {
    let Some(g) = x.g else {
        return Vec::new();
    };
    let mut alpha = vec![0.0; g.len()];
    for at in (0..g.len()).step_by(W) {
        store(&mut alpha, at, exp(load(g, at)));
    }
    alpha
}

/// Row `r`'s `α` as a vector and as numbers (one when nothing decays).
#[target_feature(enable = "avx2,fma")]
#[inline]
fn decay(alpha: &[f32], r: usize) -> (__m256, [f32; W]) {
    match alpha.is_empty() {
        true => (_mm256_set1_ps(1.0), [1.0; W]),
        false => {
            let a = &alpha[r * W..][..W];
            (load(a, 0), std::array::from_fn(|c| a[c]))
        }
    }
}

/// The state stored at `states[at ..]`, a row a vector.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn state(states: &[f32], at: usize) -> [__m256; W] {
    std::array::from_fn(|c| load(states, at + c * W))
}

/// The outputs `[B·T, V]` and the trace.
///
/// # Safety
/// The processor has AVX2 and FMA, and `fits(x)`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn forward(x: &Lanes) -> (Vec<f32>, Trace) {
    let (t_len, n) = (x.t_len, x.k.len() / W);
    let mut states = Vec::with_capacity(n / t_len * (t_len + 1) * W * W);
    let mut us = vec![0.0; n * W];
    let mut out = vec![0.0; n * W];
    let mut kept = [0.0f32; W * W];
    let alpha = decays(x);
    for b in 0..n / t_len {
        let mut s = [_mm256_setzero_ps(); W];
        states.extend_from_slice(&[0.0; W * W]);
        for r in b * t_len..(b + 1) * t_len {
            let (kr, qr) = (&x.k[r * W..][..W], &x.q[r * W..][..W]);
            if x.g.is_some() {
                let (_, a) = decay(&alpha, r);
                for (row, &ac) in s.iter_mut().zip(&a) {
                    *row = _mm256_mul_ps(*row, _mm256_set1_ps(ac));
                }
            }
            let v = load(x.v, r * W);
            // u = v − S'ᵀ k;  S = S' + β k uᵀ
            let (u, strength) = match x.beta {
                Some(beta) => (_mm256_sub_ps(v, combine(kr, &s)), beta[r]),
                None => (v, 1.0),
            };
            for (row, &kc) in s.iter_mut().zip(kr) {
                *row = _mm256_fmadd_ps(_mm256_set1_ps(strength * kc), u, *row);
            }
            store(&mut us, r * W, u);
            let sq: [f32; W] = std::array::from_fn(|c| x.scale * qr[c]);
            store(&mut out, r * W, combine(&sq, &s));
            for (c, &row) in s.iter().enumerate() {
                store(&mut kept, c * W, row);
            }
            states.extend_from_slice(&kept);
        }
    }
    let trace = Trace {
        states,
        u: us,
        alpha,
    };
    (out, trace)
}

/// The gradients of the inputs from `d_o: [B·T, V]`.
///
/// # Safety
/// As [`forward`], whose trace `trace` is.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn backward(x: &Lanes, trace: &Trace, d_o: &[f32]) -> Grads {
    let (t_len, n, kv) = (x.t_len, x.k.len() / W, W * W);
    // q̄, k̄, v̄ are written at every row, and β̄, ḡ where the mixer has them
    let mut gr = Grads {
        q: spare::take(n * W),
        k: spare::take(n * W),
        v: spare::take(n * W),
        beta: match x.beta {
            Some(_) => spare::take(n),
            None => vec![0.0; n],
        },
        g: match x.g {
            Some(_) => spare::take(n * W),
            None => vec![0.0; n * W],
        },
    };
    let scale = _mm256_set1_ps(x.scale);
    for b in 0..n / t_len {
        let mut ds = [_mm256_setzero_ps(); W];
        for t in (0..t_len).rev() {
            let r = b * t_len + t;
            let at = (b * (t_len + 1) + t) * kv;
            let (prev, s_t) = (state(&trace.states, at), state(&trace.states, at + kv));
            let (kr, qr) = (&x.k[r * W..][..W], &x.q[r * W..][..W]);
            let d_or = load(d_o, r * W);
            // Σ̄[c] += s q_c ō;  q̄ = s (S_t[c] · ō)_c
            for (row, &qc) in ds.iter_mut().zip(qr) {
                *row = _mm256_fmadd_ps(_mm256_set1_ps(x.scale * qc), d_or, *row);
            }
            let ov = [d_or; W];
            store(&mut gr.q, r * W, _mm256_mul_ps(scale, dots(&s_t, &ov)));
            let u = load(&trace.u, r * W);
            let w = dots(&ds, &[u; W]);
            let Some(beta) = x.beta else {
                // linear: k̄ = (Σ̄[c] · v)_c,  v̄ = Σ_c k_c Σ̄[c];  Σ̄ passes on unchanged
                store(&mut gr.k, r * W, w);
                store(&mut gr.v, r * W, combine(kr, &ds));
                continue;
            };
            // β̄ = k · w;  ū = β Σ_c k_c Σ̄[c];  k̄ = β w − α ⊙ (S_{t−1}[c] · ū)_c
            let (bt, kvec) = (_mm256_set1_ps(beta[r]), load(x.k, r * W));
            gr.beta[r] = sum([_mm256_mul_ps(kvec, w)]);
            let du = _mm256_mul_ps(bt, combine(kr, &ds));
            store(&mut gr.v, r * W, du);
            let (a, ac) = decay(&trace.alpha, r);
            let sp = _mm256_mul_ps(a, dots(&prev, &[du; W]));
            store(&mut gr.k, r * W, _mm256_fmsub_ps(bt, w, sp));
            // Σ̄' = Σ̄ − k ūᵀ;  ḡ = α ⊙ (Σ̄'[c] · S_{t−1}[c])_c;  Σ̄ ← α Σ̄'
            for (row, &kc) in ds.iter_mut().zip(kr) {
                *row = _mm256_fnmadd_ps(_mm256_set1_ps(kc), du, *row);
            }
            if x.g.is_some() {
                store(&mut gr.g, r * W, _mm256_mul_ps(a, dots(&ds, &prev)));
                for (row, &c) in ds.iter_mut().zip(&ac) {
                    *row = _mm256_mul_ps(*row, _mm256_set1_ps(c));
                }
            }
        }
    }
    gr
}
