//! The recurrence at `K = V = 8` in AVX2 and FMA, one sequence at a time with
//! its state in registers: row `c` of `S` (its `V` numbers) is one vector,
//! so the whole state is eight registers, held from the first step to the
//! last, and stored to the trace once a step. The backward pass transposes
//! each stored state once (column `j` of `S` a vector) and holds `Σ̄` so too,
//! so that all but one of its products with the state are sums of broadcast
//! rows (`combine`) or products lane by lane, with no sum across a vector:
//! only `ū = β Σ̄ᵀ k` takes eight dot products at once (`dots`). The rows
//! arrive and leave row-major, as the pass holds them. The algebra is
//! [`super`]'s, and a test holds the two to the fast pass's recurrence.
//!
//! ```text
//! state     S[c] = one vector of V = 8 lanes,  c < K = 8;  in the backward pass Sᵀ[j] = (S[c][j])_c
//! forward   S' = α ⊙ S,  u = v − Σ_c k_c S'[c],  S[c] = S'[c] + β k_c u,  o = Σ_c s q_c S[c]
//! backward  Σ̄ᵀ[j] += ō_j s q,  q̄ = s Σ_j ō_j S_tᵀ[j],  w = Σ_j u_j Σ̄ᵀ[j],  β̄ = k · w,  ū = β (Σ̄ᵀ[j] · k)_j,
//!           k̄ = β w − α ⊙ Σ_j ū_j S_{t−1}ᵀ[j],  Σ̄ᵀ[j] −= ū_j k,  ḡ = α ⊙ Σ_j Σ̄ᵀ[j] ⊙ S_{t−1}ᵀ[j],  Σ̄ᵀ[j] *= α
//! linear    β = 1, u = v, and neither correction: k̄ = w, v̄ = (Σ̄ᵀ[j] · k)_j
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

/// A trace's buffers go back to [`spare`] when it ends.
impl Drop for Trace {
    fn drop(&mut self) {
        for b in [&mut self.states, &mut self.u, &mut self.alpha] {
            spare::give(std::mem::take(b));
        }
    }
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

/// `Σ_c a[c] ⊙ b[c]`, lane by lane, in two running sums.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn lanewise(a: &[__m256; W], b: &[__m256; W]) -> __m256 {
    let (mut even, mut odd) = (_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1]));
    for c in (2..W).step_by(2) {
        even = _mm256_fmadd_ps(a[c], b[c], even);
        odd = _mm256_fmadd_ps(a[c + 1], b[c + 1], odd);
    }
    _mm256_add_ps(even, odd)
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

/// The eight rows' transpose into `x`: `x[8j + c] = rows[c][j]`,
/// by exchanges of pairs and of pairs of pairs within each half of a
/// vector, then each half stored where its column goes.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn store_transposed(x: &mut [f32; W * W], r: &[__m256; W]) {
    // t: rows 2i and 2i + 1 interleaved, by pairs of lanes
    let t: [__m256; W] = std::array::from_fn(|i| match i % 2 {
        0 => _mm256_unpacklo_ps(r[i], r[i + 1]),
        _ => _mm256_unpackhi_ps(r[i - 1], r[i]),
    });
    // u[4h + i]: lanes i' and i' + 4 of rows 4h .. 4h + 4, i' = 0, 2, 1, 3 for i = 0 .. 4
    let u: [__m256; W] = std::array::from_fn(|i| {
        let (a, b) = (t[i / 4 * 4 + i % 2], t[i / 4 * 4 + 2 + i % 2]);
        match i / 2 % 2 {
            0 => _mm256_shuffle_ps::<0x44>(a, b),
            _ => _mm256_shuffle_ps::<0xEE>(a, b),
        }
    });
    for j in 0..W {
        let i = j % 4 / 2 + j % 2 * 2;
        let (top, bottom) = match j / 4 {
            0 => (
                _mm256_castps256_ps128(u[i]),
                _mm256_castps256_ps128(u[4 + i]),
            ),
            _ => (
                _mm256_extractf128_ps::<1>(u[i]),
                _mm256_extractf128_ps::<1>(u[4 + i]),
            ),
        };
        // SAFETY: column j's eight numbers lie in x.
        unsafe {
            _mm_storeu_ps(x[j * W..].as_mut_ptr(), top);
            _mm_storeu_ps(x[j * W + 4..].as_mut_ptr(), bottom);
        }
    }
}

/// `α = e^g` of every row, `[B·T, K]` (empty when nothing decays).
#[target_feature(enable = "avx2,fma")]
#[inline]
fn decays(x: &Lanes) -> Vec<f32> {
    let Some(g) = x.g else {
        return Vec::new();
    };
    let mut alpha = spare::take(g.len());
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

/// Eight vectors from `states[at ..]`: a stored state's rows, or its
/// transpose's columns.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn state(states: &[f32], at: usize) -> [__m256; W] {
    std::array::from_fn(|c| load(states, at + c * W))
}

kernel! {
    /// The outputs `[B·T, V]` and the trace.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA, and `fits(x)`.
    pub unsafe fn forward(x: &Lanes) -> (Vec<f32>, Trace) {
        let (t_len, n) = (x.t_len, x.k.len() / W);
        // every number of these is written below
        let mut states = spare::take(n / t_len * (t_len + 1) * W * W);
        let (mut us, mut out) = (spare::take(n * W), spare::take(n * W));
        let alpha = decays(x);
        let scale = _mm256_set1_ps(x.scale);
        for b in 0..n / t_len {
            let mut s = [_mm256_setzero_ps(); W];
            let mut at = b * (t_len + 1) * W * W;
            states[at..at + W * W].fill(0.0);
            for r in b * t_len..(b + 1) * t_len {
                let (kr, qr) = (&x.k[r * W..][..W], &x.q[r * W..][..W]);
                if x.g.is_some() {
                    let (_, a) = decay(&alpha, r);
                    for (row, &ac) in s.iter_mut().zip(&a) {
                        *row = _mm256_mul_ps(*row, _mm256_set1_ps(ac));
                    }
                }
                let v = load(x.v, r * W);
                // u = v − S'ᵀ k;  S = S' + β k uᵀ  (β k_c off the chain from S to S)
                let (u, strength) = match x.beta {
                    Some(beta) => (_mm256_sub_ps(v, combine(kr, &s)), beta[r]),
                    None => (v, 1.0),
                };
                for (row, &kc) in s.iter_mut().zip(kr) {
                    *row = _mm256_fmadd_ps(_mm256_set1_ps(strength * kc), u, *row);
                }
                store(&mut us, r * W, u);
                store(&mut out, r * W, _mm256_mul_ps(scale, combine(qr, &s)));
                at += W * W;
                for (c, &row) in s.iter().enumerate() {
                    store(&mut states, at + c * W, row);
                }
            }
        }
        let trace = Trace {
            states,
            u: us,
            alpha,
        };
        (out, trace)
    }
}

kernel! {
    /// The gradients of the inputs from `d_o: [B·T, V]`.
    ///
    /// # Safety
    /// As [`forward`], whose trace `trace` is.
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
            // dt[j] = Σ̄ᵀ[j], column j of Σ̄
            let mut dt = [_mm256_setzero_ps(); W];
            // S_tᵀ and S_{t−1}ᵀ, each state transposed once
            let (mut s_tt, mut prev_t) = ([0.0; W * W], [0.0; W * W]);
            let last = (b * (t_len + 1) + t_len) * kv;
            store_transposed(&mut s_tt, &state(&trace.states, last));
            for t in (0..t_len).rev() {
                let r = b * t_len + t;
                let at = (b * (t_len + 1) + t) * kv;
                store_transposed(&mut prev_t, &state(&trace.states, at));
                let (prev, s_t) = (state(&prev_t, 0), state(&s_tt, 0));
                let (d_or, ur) = (&d_o[r * W..][..W], &trace.u[r * W..][..W]);
                let (q, k) = (load(x.q, r * W), load(x.k, r * W));
                // Σ̄ᵀ[j] += ō_j s q;  q̄ = s Σ_j ō_j S_tᵀ[j];  w = Σ_j u_j Σ̄ᵀ[j]
                let sq = _mm256_mul_ps(scale, q);
                for (column, &oj) in dt.iter_mut().zip(d_or) {
                    *column = _mm256_fmadd_ps(_mm256_set1_ps(oj), sq, *column);
                }
                store(&mut gr.q, r * W, _mm256_mul_ps(scale, combine(d_or, &s_t)));
                let w = combine(ur, &dt);
                let kk = dots(&dt, &[k; W]);
                let Some(beta) = x.beta else {
                    // linear: k̄ = w,  v̄ = (Σ̄ᵀ[j] · k)_j;  Σ̄ passes on unchanged
                    store(&mut gr.k, r * W, w);
                    store(&mut gr.v, r * W, kk);
                    s_tt = prev_t;
                    continue;
                };
                // β̄ = k · w;  ū = β (Σ̄ᵀ[j] · k)_j;  k̄ = β w − α ⊙ Σ_j ū_j S_{t−1}ᵀ[j]
                let bt = _mm256_set1_ps(beta[r]);
                gr.beta[r] = sum([_mm256_mul_ps(k, w)]);
                store(&mut gr.v, r * W, _mm256_mul_ps(bt, kk));
                let du: [f32; W] = std::array::from_fn(|j| gr.v[r * W + j]);
                let (a, _) = decay(&trace.alpha, r);
                let sp = _mm256_mul_ps(a, combine(&du, &prev));
                store(&mut gr.k, r * W, _mm256_fmsub_ps(bt, w, sp));
                // Σ̄ᵀ[j] −= ū_j k;  ḡ = α ⊙ Σ_j Σ̄ᵀ[j] ⊙ S_{t−1}ᵀ[j];  Σ̄ᵀ[j] *= α
                for (column, &uj) in dt.iter_mut().zip(&du) {
                    *column = _mm256_fnmadd_ps(_mm256_set1_ps(uj), k, *column);
                }
                if x.g.is_some() {
                    store(&mut gr.g, r * W, _mm256_mul_ps(a, lanewise(&dt, &prev)));
                    for column in dt.iter_mut() {
                        *column = _mm256_mul_ps(*column, a);
                    }
                }
                s_tt = prev_t;
            }
        }
        gr
    }
}
