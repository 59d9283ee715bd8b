//! Softmax attention's weights and their gradient a row at a time in AVX2
//! and FMA, for sequences of whole vectors (`T` a multiple of 8). A row at
//! position `t` is computed only up to `t`, in the `⌈(t + 1)/8⌉` vectors
//! that hold it, so the causal half of the scores is never formed; between
//! the product and the softmax the scores stay in place in the row. The
//! formulas are [`super::weights_with`]'s and [`super::scores_backward_with`]'s,
//! and each is tested against them.
//!
//! ```text
//! scores    s_t[j] = q_t · k_j = Σ_p q_t[p] Kᵀ[p, j]        j in the row's vectors, Kᵀ: [K, T]
//! forward   a_t = softmax(s (s_t − max s_t)) over j ≤ t,  0 past t
//! backward  ā_t = Σ_p ō_t[p] Vᵀ[p, ·],  p̄_t = s a_t ⊙ (ā_t − a_t · ā_t)
//! ```
//! Introduced in chapter 7.

use std::arch::x86_64::*;

use crate::fused::rows::avx2::{exp, sum};

/// The largest lane of `v`.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn largest(v: __m256) -> f32 {
    let s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    let s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    _mm_cvtss_f32(_mm_max_ss(s, _mm_movehdup_ps(s)))
}

/// The lanes of the vector starting at column `j0` that lie at or before `t`.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn seen(j0: usize, t: usize) -> __m256 {
    let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let last = _mm256_set1_epi32((t - j0) as i32);
    // lane ≤ t − j0  ⇔  ¬(lane > t − j0)
    _mm256_castsi256_ps(_mm256_xor_si256(
        _mm256_cmpgt_epi32(lane, last),
        _mm256_set1_epi32(-1),
    ))
}

/// `acc[n] += x · yt[at + 8n ..]` for the `N` vectors.
///
/// # Safety
/// The `N` vectors from `at` lie in `yt`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn accumulate<const N: usize>(acc: &mut [__m256; N], x: f32, yt: &[f32], at: usize) {
    let x = _mm256_set1_ps(x);
    for (n, acc) in acc.iter_mut().enumerate() {
        // SAFETY: the caller keeps the N vectors from `at` inside yt.
        let y = unsafe { _mm256_loadu_ps(yt.as_ptr().add(at + 8 * n)) };
        *acc = _mm256_fmadd_ps(x, y, *acc);
    }
}

/// Vectors `b .. b + N` of row `i` of `x: [·, C]` times `yt: [C, T]`:
/// `Σ_p x[i, p] yt[p, 8b ..]`, each `x[i, p]` broadcast once for the `N`,
/// in two sums for each vector (over even and odd `p`), so that no chain of
/// dependent multiply-adds is longer than `C / 2`.
///
/// # Safety
/// `x` holds row `i` of `C`, and `yt` is `[C, T]` with `8 (b + N) ≤ T`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn product<const N: usize>(
    x: &[f32],
    yt: &[f32],
    c: usize,
    t_len: usize,
    i: usize,
    b: usize,
) -> [__m256; N] {
    let (mut even, mut odd) = ([_mm256_setzero_ps(); N], [_mm256_setzero_ps(); N]);
    let mut p = 0;
    while p < c {
        // SAFETY: the caller keeps row i of x and columns 8b .. 8(b + N) of yt inside them.
        unsafe {
            let x0 = *x.get_unchecked(i * c + p);
            accumulate(&mut even, x0, yt, p * t_len + 8 * b);
            if p + 1 < c {
                let x = *x.get_unchecked(i * c + p + 1);
                accumulate(&mut odd, x, yt, (p + 1) * t_len + 8 * b);
            }
        }
        p += 2;
    }
    for (e, o) in even.iter_mut().zip(odd) {
        *e = _mm256_add_ps(*e, o);
    }
    even
}

/// Row `i`'s vectors `0 .. nv` of `x: [·, C]` times `yt: [C, T]`, into
/// `row[.. 8 nv]`, four vectors at a time and then one at a time.
///
/// # Safety
/// As [`product`], with `8 nv ≤ T ≤ row.len()`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn products(
    x: &[f32],
    yt: &[f32],
    c: usize,
    t_len: usize,
    i: usize,
    nv: usize,
    row: &mut [f32],
) {
    let mut b = 0;
    // SAFETY (both loops): 8 (b + N) ≤ 8 nv ≤ T, and the row holds T numbers.
    while b + 4 <= nv {
        let y = unsafe { product::<4>(x, yt, c, t_len, i, b) };
        for (i, y) in y.into_iter().enumerate() {
            unsafe { _mm256_storeu_ps(row.as_mut_ptr().add(8 * (b + i)), y) };
        }
        b += 4;
    }
    while b < nv {
        let [y] = unsafe { product::<1>(x, yt, c, t_len, i, b) };
        unsafe { _mm256_storeu_ps(row.as_mut_ptr().add(8 * b), y) };
        b += 1;
    }
}

/// Zeros from vector `nv` of the row to its end (`T` a multiple of 8).
#[target_feature(enable = "avx2,fma")]
#[inline]
fn zeros_from(row: &mut [f32], nv: usize) {
    for v in row.as_chunks_mut::<8>().0[nv..].iter_mut() {
        // SAFETY: the chunk is eight numbers.
        unsafe { _mm256_storeu_ps(v.as_mut_ptr(), _mm256_setzero_ps()) };
    }
}

kernel! {
    /// [`super::weights`] from `q: [n, K]` (row `i` at position `ts[i]`) and
    /// `kt = Kᵀ: [K, T]` into `a: [n, T]`.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn weights(
        q: &[f32],
        kt: &[f32],
        kd: usize,
        t_len: usize,
        ts: &[usize],
        scale: f32,
        a: &mut [f32],
    ) {
        assert!(
            t_len.is_multiple_of(8)
                && q.len() == ts.len() * kd
                && kt.len() == kd * t_len
                && a.len() == ts.len() * t_len
                && ts.iter().all(|&t| t < t_len),
            "fused attention weights: q, Kᵀ, A or the positions of the wrong shape"
        );
        let s = _mm256_set1_ps(scale);
        let mut totals = vec![0.0; ts.len()];
        for (i, (row, total_t)) in a.chunks_exact_mut(t_len).zip(&mut totals).enumerate() {
            let t = ts[i];
            let nv = t / 8 + 1;
            let last = seen(8 * (nv - 1), t);
            // the scores, and their largest at or before t
            // SAFETY: row i of q; 8 nv ≤ T; the row holds T numbers.
            unsafe { products(q, kt, kd, t_len, i, nv, row) };
            let mut top = _mm256_set1_ps(f32::NEG_INFINITY);
            for (b, x) in row.as_chunks::<8>().0[..nv].iter().enumerate() {
                // SAFETY: the chunk is eight numbers.
                let x = unsafe { _mm256_loadu_ps(x.as_ptr()) };
                let x = match b + 1 == nv {
                    true => _mm256_blendv_ps(_mm256_set1_ps(f32::NEG_INFINITY), x, last),
                    false => x,
                };
                top = _mm256_max_ps(top, x);
            }
            let top = _mm256_set1_ps(largest(top));
            let mut total = _mm256_setzero_ps();
            for b in 0..nv {
                // SAFETY: as above.
                let at = unsafe { row.as_mut_ptr().add(8 * b) };
                let mut e = exp(_mm256_mul_ps(
                    s,
                    _mm256_sub_ps(unsafe { _mm256_loadu_ps(at) }, top),
                ));
                if b + 1 == nv {
                    e = _mm256_and_ps(e, last);
                }
                total = _mm256_add_ps(total, e);
                unsafe { _mm256_storeu_ps(at, e) };
            }
            *total_t = sum([total]);
            zeros_from(row, nv);
        }
        // each row divided by its sum in a pass of its own, so that no row waits
        // for the one before it to be summed
        for ((row, &total), &t) in a.chunks_exact_mut(t_len).zip(&totals).zip(ts) {
            let inv = _mm256_set1_ps(1.0 / total);
            for x in row.as_chunks_mut::<8>().0[..t / 8 + 1].iter_mut() {
                // SAFETY: the chunk is eight numbers.
                unsafe {
                    _mm256_storeu_ps(
                        x.as_mut_ptr(),
                        _mm256_mul_ps(_mm256_loadu_ps(x.as_ptr()), inv),
                    )
                };
            }
        }
    }
}

kernel! {
    /// [`super::scores_backward`] from `ō: [n, V]` (row `i` at position
    /// `ts[i]`), `vt = Vᵀ: [V, T]` and the weights `a` into `dp: [n, T]`.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn scores_backward(
        d_o: &[f32],
        vt: &[f32],
        a: &[f32],
        vd: usize,
        t_len: usize,
        ts: &[usize],
        scale: f32,
        dp: &mut [f32],
    ) {
        let n = ts.len();
        assert!(
            t_len.is_multiple_of(8)
                && d_o.len() == n * vd
                && vt.len() == vd * t_len
                && a.len() == n * t_len
                && dp.len() == n * t_len
                && ts.iter().all(|&t| t < t_len),
            "fused attention scores_backward: ō, Vᵀ, A, P̄ or the positions of the wrong shape"
        );
        let s = _mm256_set1_ps(scale);
        for (i, (row, ar)) in dp
            .chunks_exact_mut(t_len)
            .zip(a.chunks_exact(t_len))
            .enumerate()
        {
            let nv = ts[i] / 8 + 1;
            // ā_t in the row; a_t · ā_t (A is zero past t)
            // SAFETY: row i of ō; 8 nv ≤ T; the row holds T numbers.
            unsafe { products(d_o, vt, vd, t_len, i, nv, row) };
            let mut inner = _mm256_setzero_ps();
            for (x, y) in row.as_chunks::<8>().0[..nv]
                .iter()
                .zip(ar.as_chunks::<8>().0)
            {
                // SAFETY: each chunk is eight numbers.
                let (x, y) = unsafe { (_mm256_loadu_ps(x.as_ptr()), _mm256_loadu_ps(y.as_ptr())) };
                inner = _mm256_fmadd_ps(x, y, inner);
            }
            let inner = _mm256_set1_ps(sum([inner]));
            for b in 0..nv {
                // SAFETY: as above.
                unsafe {
                    let at = row.as_mut_ptr().add(8 * b);
                    let y = _mm256_loadu_ps(ar.as_ptr().add(8 * b));
                    let p = _mm256_mul_ps(
                        _mm256_mul_ps(s, y),
                        _mm256_sub_ps(_mm256_loadu_ps(at), inner),
                    );
                    _mm256_storeu_ps(at, p);
                }
            }
            zeros_from(row, nv);
        }
    }
}
