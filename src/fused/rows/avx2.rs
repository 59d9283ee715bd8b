//! The row steps that dominate a block's time, written in AVX2 and FMA for
//! rows of `NV` whole vectors (`C = 8 NV`): a row is `NV` registers, held
//! from its load to its store. The compiler, given the portable steps of
//! [`super`], split their eight-lane sums into pieces of two lanes and
//! single numbers; these run three times as fast. Each is tested against
//! its portable twin (`tests/unit/fused.rs`), which stays the definition.
//!
//! ```text
//! row        x[r·C .. r·C + C] = NV vectors;  Σ over a row: the vectors added, then one sum across lanes
//! RMSNorm    y = γ ⊙ x i,  i = 1 / sqrt(Σx²/C + ε)      x̄ = (γ ⊙ ȳ − x i² (γ ȳ · x) / C) i,  γ̄ += ȳ ⊙ x i
//! L2         x̂ = x / n,  n = sqrt(Σx² + 10⁻⁶)          x̄ = (x̂̄ − x̂ (x̂ · x̂̄)) / n
//! conv       z_r = Σ_i w_i ⊙ x_{r−W+1+i}  (rows of the same sequence only)
//! ```
//! Introduced in chapter 7.

use std::arch::x86_64::*;

use super::Conv;
use crate::mixer::layer::EPS;

/// `NV` vectors from `x[at ..]`.
///
/// # Safety
/// `at + 8 NV ≤ x.len()`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn load<const NV: usize>(x: &[f32], at: usize) -> [__m256; NV] {
    // SAFETY: the caller keeps the vectors inside `x`.
    std::array::from_fn(|v| unsafe { _mm256_loadu_ps(x.as_ptr().add(at + 8 * v)) })
}

/// `NV` vectors into `x[at ..]`.
///
/// # Safety
/// `at + 8 NV ≤ x.len()`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn store<const NV: usize>(x: &mut [f32], at: usize, y: [__m256; NV]) {
    for (v, y) in y.into_iter().enumerate() {
        // SAFETY: as `load`.
        unsafe { _mm256_storeu_ps(x.as_mut_ptr().add(at + 8 * v), y) };
    }
}

/// The sum of the lanes of `NV` vectors.
#[target_feature(enable = "avx2,fma")]
#[inline]
pub(in crate::fused) fn sum<const NV: usize>(x: [__m256; NV]) -> f32 {
    let v = x[1..].iter().fold(x[0], |a, &b| _mm256_add_ps(a, b));
    let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)))
}

/// `eˣ` of eight numbers, step for step [`crate::fused::rows::exp`].
#[target_feature(enable = "avx2,fma")]
#[inline]
pub(in crate::fused) fn exp(x: __m256) -> __m256 {
    const ROUND: f32 = 12_582_912.0;
    let x = _mm256_min_ps(
        _mm256_max_ps(x, _mm256_set1_ps(-87.0)),
        _mm256_set1_ps(88.0),
    );
    let round = _mm256_set1_ps(ROUND);
    let t = _mm256_fmadd_ps(x, _mm256_set1_ps(std::f32::consts::LOG2_E), round);
    let n = _mm256_sub_ps(t, round);
    let r = _mm256_fmadd_ps(
        n,
        _mm256_set1_ps(2.121_944_4e-4),
        _mm256_fmadd_ps(n, _mm256_set1_ps(-0.693_359_4), x),
    );
    let mut p = _mm256_set1_ps(1.0 / 5040.0);
    for c in [720.0f32, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0] {
        p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0 / c));
    }
    let n = _mm256_sub_epi32(_mm256_castps_si256(t), _mm256_castps_si256(round));
    let two_n = _mm256_slli_epi32(_mm256_add_epi32(n, _mm256_set1_epi32(127)), 23);
    _mm256_mul_ps(p, _mm256_castsi256_ps(two_n))
}

/// `a ⊙ b` lane by lane.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn mul<const NV: usize>(a: [__m256; NV], b: [__m256; NV]) -> [__m256; NV] {
    std::array::from_fn(|v| _mm256_mul_ps(a[v], b[v]))
}

/// `a ⊙ b + c` lane by lane.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn fma<const NV: usize>(a: [__m256; NV], b: [__m256; NV], c: [__m256; NV]) -> [__m256; NV] {
    std::array::from_fn(|v| _mm256_fmadd_ps(a[v], b[v], c[v]))
}

/// `c − a ⊙ b` lane by lane.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn fnma<const NV: usize>(a: [__m256; NV], b: [__m256; NV], c: [__m256; NV]) -> [__m256; NV] {
    std::array::from_fn(|v| _mm256_fnmadd_ps(a[v], b[v], c[v]))
}

/// `a` in every lane of every vector.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn splat<const NV: usize>(a: f32) -> [__m256; NV] {
    [_mm256_set1_ps(a); NV]
}

/// The rows of `x` (`C = 8 NV` wide) and their count, checked against `y`.
fn rows<const NV: usize>(x: &[f32], y: usize) -> usize {
    assert!(
        x.len().is_multiple_of(8 * NV) && y == x.len(),
        "fused rows: {} and {y} numbers are not the same rows of {}",
        x.len(),
        8 * NV
    );
    x.len() / (8 * NV)
}

kernel! {
    /// [`super::rms_norm`] into `y` and `inv`.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    pub unsafe fn rms_norm<const NV: usize>(x: &[f32], gamma: &[f32], y: &mut [f32], inv: &mut [f32]) {
        let (c, n) = (8 * NV, rows::<NV>(x, y.len()));
        assert!(
            gamma.len() == c && inv.len() == n,
            "fused rms_norm: γ or 1/r of the wrong length"
        );
        // SAFETY (every load and store below): row r's vectors lie in x and y, of n rows of c.
        let g = unsafe { load::<NV>(gamma, 0) };
        for (r, i) in inv.iter_mut().enumerate() {
            let xs = unsafe { load::<NV>(x, r * c) };
            *i = 1.0 / (sum(mul(xs, xs)) / c as f32 + EPS as f32).sqrt();
            unsafe { store(y, r * c, mul(mul(xs, g), splat(*i))) };
        }
    }
}

kernel! {
    /// [`super::rms_norm_backward`] into `dx`.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    pub unsafe fn rms_norm_backward<const NV: usize>(
        x: &[f32],
        gamma: &[f32],
        inv: &[f32],
        dy: &[f32],
        dgamma: &mut [f32],
        dx: &mut [f32],
    ) {
        let (c, n) = (8 * NV, rows::<NV>(x, dy.len()));
        assert!(
            gamma.len() == c && dgamma.len() == c && inv.len() == n && dx.len() == x.len(),
            "fused rms_norm_backward: γ, γ̄, 1/r or x̄ of the wrong length"
        );
        // SAFETY (every load and store below): row r's vectors lie in x, ȳ and x̄, of n rows of c.
        let g = unsafe { load::<NV>(gamma, 0) };
        let mut dg = splat::<NV>(0.0);
        for (r, &i) in inv.iter().enumerate() {
            let (xs, ds) = unsafe { (load::<NV>(x, r * c), load::<NV>(dy, r * c)) };
            let iv = splat(i);
            // γ̄ += ȳ ⊙ x i;  out = γ ⊙ ȳ;  x̄ = (out − x i² (out · x) / C) i
            dg = fma(ds, mul(xs, iv), dg);
            let out = mul(g, ds);
            let inner = splat(i * i * sum(mul(out, xs)) / c as f32);
            unsafe { store(dx, r * c, mul(fnma(xs, inner, out), iv)) };
        }
        let mut old = unsafe { load::<NV>(dgamma, 0) };
        old = std::array::from_fn(|v| _mm256_add_ps(old[v], dg[v]));
        unsafe { store(dgamma, 0, old) };
    }
}

kernel! {
    /// [`super::l2`] in place; the norms into `norms`.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    pub unsafe fn l2<const NV: usize>(x: &mut [f32], norms: &mut [f32]) {
        let (c, n) = (8 * NV, rows::<NV>(x, x.len()));
        assert!(
            norms.len() == n,
            "fused l2: {} norms for {n} rows",
            norms.len()
        );
        for (r, norm) in norms.iter_mut().enumerate() {
            // SAFETY: row r's vectors lie in x, of n rows of c.
            let xs = unsafe { load::<NV>(x, r * c) };
            *norm = (sum(mul(xs, xs)) + 1e-6).sqrt();
            unsafe { store(x, r * c, mul(xs, splat(1.0 / *norm))) };
        }
    }
}

kernel! {
    /// [`super::l2_backward`] in place.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    pub unsafe fn l2_backward<const NV: usize>(xhat: &[f32], norms: &[f32], d: &mut [f32]) {
        let (c, n) = (8 * NV, rows::<NV>(xhat, d.len()));
        assert!(
            norms.len() == n,
            "fused l2_backward: {} norms for {n} rows",
            norms.len()
        );
        for (r, &norm) in norms.iter().enumerate() {
            // SAFETY: row r's vectors lie in x̂ and d, of n rows of c.
            let (xs, ds) = unsafe { (load::<NV>(xhat, r * c), load::<NV>(d, r * c)) };
            let along = splat(sum(mul(xs, ds)));
            unsafe { store(d, r * c, mul(fnma(xs, along, ds), splat(1.0 / norm))) };
        }
    }
}

kernel! {
    /// [`super::conv`] into `z: [rows, C]`.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    pub unsafe fn conv<const NV: usize>(k: &Conv, z: &mut [f32]) {
        let c = 8 * NV;
        let (taps, n) = (k.w.len() / c, z.len() / c);
        assert!(
            taps * c == k.w.len()
                && n * k.width == k.x.len()
                && n * c == z.len()
                && k.at + c <= k.width,
            "fused conv: x, w or z of the wrong shape"
        );
        for r in 0..n {
            let t = r % k.t_len;
            let mut acc = splat::<NV>(0.0);
            for i in (taps - 1).saturating_sub(t)..taps {
                // SAFETY: tap i reads row r + i + 1 − W ≥ r − t ≥ 0 of x (at + C ≤ width)
                // and row i of w; row r of z lies in z.
                let (xs, ws) = unsafe {
                    let row = (r + i + 1 - taps) * k.width + k.at;
                    (load::<NV>(k.x, row), load::<NV>(k.w, i * c))
                };
                acc = fma(xs, ws, acc);
            }
            unsafe { store(z, r * c, acc) };
        }
    }
}

kernel! {
    /// [`super::conv_backward`]. Each row of `x̄` gathers the rows of `z̄` that
    /// read it, so it is loaded and stored once.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    pub unsafe fn conv_backward<const NV: usize>(k: &Conv, dz: &[f32], dx: &mut [f32], dw: &mut [f32]) {
        let c = 8 * NV;
        let (taps, n) = (k.w.len() / c, dz.len() / c);
        assert!(
            taps * c == k.w.len()
                && dw.len() == k.w.len()
                && n * k.width == k.x.len()
                && dx.len() == k.x.len()
                && k.at + c <= k.width,
            "fused conv_backward: x, w, z̄, x̄ or w̄ of the wrong shape"
        );
        for s in 0..n {
            // row s of x is read by row s + W − 1 − i through tap i, within its sequence
            let (t, at) = (s % k.t_len, s * k.width + k.at);
            // SAFETY (every load and store below): rows s and s + W − 1 − i < n of x, x̄
            // and z̄ (at + C ≤ width), and row i of w and w̄.
            let (xs, mut acc) = unsafe { (load::<NV>(k.x, at), load::<NV>(dx, at)) };
            for i in 0..taps {
                let lag = taps - 1 - i;
                if t + lag >= k.t_len {
                    continue;
                }
                let d = unsafe { load::<NV>(dz, (s + lag) * c) };
                acc = fma(unsafe { load::<NV>(k.w, i * c) }, d, acc);
                let g = unsafe { load::<NV>(dw, i * c) };
                unsafe { store(dw, i * c, fma(d, xs, g)) };
            }
            unsafe { store(dx, at, acc) };
        }
    }
}
