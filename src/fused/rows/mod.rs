//! The row-wise pieces of the fused pass on row-major `f32` activations
//! (`[rows, width]`, one row a token, row `b·T + t`): each works through a
//! row at a time, so a row's numbers stay in registers between the steps of
//! a formula. The formulas are those of [`crate::mixer::fast::rows`].
//!
//! ```text
//! RMSNorm   y = γ ⊙ x / r,  r = sqrt(mean x² + ε)        x̄ = (γ ⊙ ȳ − x̂ (Σ γ ȳ x̂) / C) / r
//! L2        x̂ = x / n,  n = sqrt(‖x‖² + 10⁻⁶)            x̄ = (x̂̄ − x̂ (x̂ · x̂̄)) / n
//! φ         φ(x) = elu(x) + 1                            x̄ = φ̄ min(φ, 1)
//! conv      z_t[c] = Σ_{i<W} w[i, c] x_{t−W+1+i}[c]  within the sequence,   y = silu(z)
//! ```
//! Introduced in chapter 7.

use super::spare;
use crate::mixer::layer::EPS;

#[cfg(target_arch = "x86_64")]
pub mod avx2;

/// `true` after running `avx2::f::<NV>(args)`, when the processor has AVX2
/// and FMA and the row width `c = 8 NV` is one the book trains (8, 16, 24,
/// 32, 48); `false` (nothing run) otherwise, and the portable step runs.
macro_rules! on_avx2 {
    ($c:expr, $f:ident($($a:expr),* $(,)?)) => {{
        #[cfg(target_arch = "x86_64")]
        let done = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            // SAFETY: the processor has AVX2 and FMA, checked on the lines above.
            && unsafe {
                match $c {
                    8 => { avx2::$f::<1>($($a),*); true }
                    16 => { avx2::$f::<2>($($a),*); true }
                    24 => { avx2::$f::<3>($($a),*); true }
                    32 => { avx2::$f::<4>($($a),*); true }
                    48 => { avx2::$f::<6>($($a),*); true }
                    _ => false,
                }
            };
        #[cfg(not(target_arch = "x86_64"))]
        let done = false;
        done
    }};
}

/// `f::<C>(args)` with the row width `c` a constant `C` for the widths the
/// book trains (`C = 0`: read at run time), so that a loop over a row has a
/// length known at compile time and unrolls into whole vectors.
macro_rules! by_width {
    ($c:expr, $f:ident($($a:expr),* $(,)?)) => {
        match $c {
            1 => $f::<1>($($a),*),
            8 => $f::<8>($($a),*),
            16 => $f::<16>($($a),*),
            24 => $f::<24>($($a),*),
            32 => $f::<32>($($a),*),
            48 => $f::<48>($($a),*),
            _ => $f::<0>($($a),*),
        }
    };
}

mod conv;
pub use conv::{Conv, conv, conv_backward, conv_backward_with, conv_with};

/// The width `C`, or `c` when `C = 0`.
#[inline(always)]
fn fixed<const C: usize>(c: usize) -> usize {
    if C == 0 { c } else { C }
}

/// `eˣ` as [`crate::mixer::fast::rows::exp`] computes it (Cephes' split of
/// ln 2, a degree-7 polynomial), written so that a loop of it becomes
/// vectors: every step a fused multiply-add, and `n` read from the bits of
/// the rounded sum instead of by a (saturating) conversion to an integer.
///
/// ```
/// use attention_geometry::fused::rows::exp;
/// for x in [-80.0f32, -3.3, 0.0, 0.7, 12.5, 80.0] {
///     assert!((exp(x) / x.exp() - 1.0).abs() < 1e-6);
/// }
/// ```
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    // adding 1.5·2²³ rounds to the nearest integer n, held in the low bits
    const ROUND: f32 = 12_582_912.0;
    let x = x.clamp(-87.0, 88.0);
    let t = x.mul_add(std::f32::consts::LOG2_E, ROUND);
    let n = t - ROUND;
    let r = n.mul_add(2.121_944_4e-4, n.mul_add(-0.693_359_4, x));
    let mut p = 1.0f32 / 5040.0;
    for c in [720.0f32, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0] {
        p = p.mul_add(r, 1.0 / c);
    }
    let n = t.to_bits() as i32 - ROUND.to_bits() as i32;
    p * f32::from_bits(((n + 127) << 23) as u32)
}

/// `σ(x) = 1 / (1 + e^{−x})`.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

/// `softplus(x) = ln(1 + eˣ) = max(x, 0) + ln(1 + e^{−|x|})`, as
/// [`crate::mixer::fast::rows::softplus`] computes it, and `σ(x)`, from the
/// one exponential `y = e^{−|x|}` of this module's [`exp`]: `σ(x) = 1 / (1 + y)`
/// for `x ≥ 0` and `y / (1 + y)` below, so that the decay gate's backward
/// pass needs no exponential of its own. A loop of it becomes vectors.
///
/// ```
/// use attention_geometry::fused::rows::{sigmoid, softplus_sigmoid};
/// for x in [-30.0f32, -2.0, 0.0, 0.5, 4.0, 30.0] {
///     let (p, s) = softplus_sigmoid(x);
///     let exact = (x as f64).exp().ln_1p();
///     assert!(((p as f64) / exact - 1.0).abs() < 1e-6);
///     assert!((s / sigmoid(x) - 1.0).abs() < 1e-6);
/// }
/// ```
#[inline(always)]
pub fn softplus_sigmoid(x: f32) -> (f32, f32) {
    let y = exp(-x.abs());
    let inv = 1.0 / (1.0 + y);
    let s = if x >= 0.0 { inv } else { y * inv };
    (x.max(0.0) + ln_1p(y), s)
}

/// `ln(1 + y)` for `y` in `[0, 1]` by the series of `2 atanh(s)`,
/// `s = y / (2 + y)`, each step a fused multiply-add.
#[inline(always)]
fn ln_1p(y: f32) -> f32 {
    let s = y / (2.0 + y);
    let s2 = s * s;
    let mut p = 1.0f32 / 11.0;
    for c in [9.0, 7.0, 5.0, 3.0, 1.0] {
        p = p.mul_add(s2, 1.0 / c);
    }
    2.0 * s * p
}

/// `x · y`, summed in eight lanes: a sum taken in order is a chain of
/// dependent additions, which the compiler may not reorder into vectors.
#[inline(always)]
pub fn dot(x: &[f32], y: &[f32]) -> f32 {
    let ((xs, x_tail), (ys, y_tail)) = (x.as_chunks::<8>(), y.as_chunks::<8>());
    let mut lanes = [0.0f32; 8];
    for (a, b) in xs.iter().zip(ys) {
        let (l0, a, b) = (lanes, *a, *b);
        lanes = std::array::from_fn(|l| l0[l] + a[l] * b[l]);
    }
    let tail: f32 = x_tail.iter().zip(y_tail).map(|(a, b)| a * b).sum();
    lanes.iter().sum::<f32>() + tail
}

/// The largest number of `x`, taken eight lanes at a time.
#[inline(always)]
pub fn largest(x: &[f32]) -> f32 {
    let (chunks, tail) = x.as_chunks::<8>();
    let lanes = chunks.iter().fold([f32::NEG_INFINITY; 8], |m, c| {
        std::array::from_fn(|l| if c[l] > m[l] { c[l] } else { m[l] })
    });
    tail.iter()
        .chain(&lanes)
        .fold(f32::NEG_INFINITY, |m, &x| if x > m { x } else { m })
}

/// `Σ x`, summed in eight lanes as [`dot`] sums.
#[inline(always)]
pub fn sum(x: &[f32]) -> f32 {
    let (xs, tail) = x.as_chunks::<8>();
    let mut lanes = [0.0f32; 8];
    for a in xs {
        let (l0, a) = (lanes, *a);
        lanes = std::array::from_fn(|l| l0[l] + a[l]);
    }
    lanes.iter().sum::<f32>() + tail.iter().sum::<f32>()
}

/// `y[j] ← f(y[j], a[j], b[j])` for every `j`, eight numbers at a time: a
/// loop of scalar steps over a short row is not always made into vectors.
#[inline(always)]
fn each(y: &mut [f32], a: &[f32], b: &[f32], f: impl Fn(f32, f32, f32) -> f32) {
    let ((ys, y_tail), (xs, a_tail), (zs, b_tail)) = (
        y.as_chunks_mut::<8>(),
        a.as_chunks::<8>(),
        b.as_chunks::<8>(),
    );
    for ((y, a), b) in ys.iter_mut().zip(xs).zip(zs) {
        let (y0, a, b) = (*y, *a, *b);
        *y = std::array::from_fn(|l| f(y0[l], a[l], b[l]));
    }
    for ((y, &a), &b) in y_tail.iter_mut().zip(a_tail).zip(b_tail) {
        *y = f(*y, a, b);
    }
}

/// `y += a ⊙ b`
#[inline(always)]
fn add_mul(y: &mut [f32], a: &[f32], b: &[f32]) {
    each(y, a, b, |y, a, b| y + a * b);
}

/// `(y, 1/r)`: every row of `x: [rows, C]` RMS-normalised and scaled by `gamma: [C]`.
#[inline(always)]
pub fn rms_norm(x: &[f32], gamma: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let c = gamma.len();
    let (mut y, mut inv) = (spare::take(x.len()), spare::take(x.len() / c));
    if !on_avx2!(c, rms_norm(x, gamma, &mut y, &mut inv)) {
        by_width!(c, rms_norm_with(x, gamma, &mut y, &mut inv));
    }
    (y, inv)
}

/// The portable [`rms_norm`] into `y` and `inv`.
#[inline(always)]
pub fn rms_norm_with<const C: usize>(x: &[f32], gamma: &[f32], y: &mut [f32], inv: &mut [f32]) {
    let c = fixed::<C>(gamma.len());
    for ((xr, yr), i) in x
        .chunks_exact(c)
        .zip(y.chunks_exact_mut(c))
        .zip(inv.iter_mut())
    {
        *i = 1.0 / (dot(xr, xr) / c as f32 + EPS as f32).sqrt();
        let i = *i;
        each(yr, xr, gamma, |_, a, g| a * g * i);
    }
}

/// `x̄` from `x`, `γ`, the `1/r` of [`rms_norm`] and `ȳ`; adds `γ̄` into `dgamma`.
#[inline(always)]
pub fn rms_norm_backward(
    x: &[f32],
    gamma: &[f32],
    inv: &[f32],
    dy: &[f32],
    dgamma: &mut [f32],
) -> Vec<f32> {
    let c = gamma.len();
    let mut dx = spare::take(x.len());
    if !on_avx2!(c, rms_norm_backward(x, gamma, inv, dy, dgamma, &mut dx)) {
        by_width!(
            c,
            rms_norm_backward_with(x, gamma, inv, dy, dgamma, &mut dx)
        );
    }
    dx
}

/// The portable [`rms_norm_backward`] into `dx`.
#[inline(always)]
pub fn rms_norm_backward_with<const C: usize>(
    x: &[f32],
    gamma: &[f32],
    inv: &[f32],
    dy: &[f32],
    dgamma: &mut [f32],
    dx: &mut [f32],
) {
    let c = fixed::<C>(gamma.len());
    let rows = x.chunks_exact(c).zip(dy.chunks_exact(c));
    for (((xr, dr), out), &i) in rows.zip(dx.chunks_exact_mut(c)).zip(inv) {
        each(dgamma, xr, dr, |g, a, d| g + d * a * i);
        // x̄ = (γ ⊙ ȳ − x i · inner) i,  inner = Σ_j γ_j ȳ_j x_j i / C
        each(out, gamma, dr, |_, g, d| g * d);
        let inner = i * dot(out, xr) / c as f32;
        each(out, xr, xr, |o, a, _| (o - a * i * inner) * i);
    }
}

/// Every row of `x: [rows, C]` divided by its norm, in place; the norms.
#[inline(always)]
pub fn l2(x: &mut [f32], c: usize) -> Vec<f32> {
    let mut norms = spare::take(x.len() / c);
    if !on_avx2!(c, l2(x, &mut norms)) {
        by_width!(c, l2_with(x, &mut norms));
    }
    norms
}

/// The portable [`l2`], the norms into `norms`.
#[inline(always)]
pub fn l2_with<const C: usize>(x: &mut [f32], norms: &mut [f32]) {
    let c = fixed::<C>(x.len() / norms.len().max(1));
    for (row, n) in x.chunks_exact_mut(c).zip(norms.iter_mut()) {
        *n = (dot(row, row) + 1e-6).sqrt();
        let inv = 1.0 / *n;
        row.iter_mut().for_each(|a| *a *= inv);
    }
}

/// `x̂̄ → x̄` in place, from `x̂` and the norms of [`l2`].
#[inline(always)]
pub fn l2_backward(xhat: &[f32], norms: &[f32], d: &mut [f32]) {
    let c = xhat.len() / norms.len().max(1);
    if !on_avx2!(c, l2_backward(xhat, norms, d)) {
        by_width!(c, l2_backward_with(xhat, norms, d));
    }
}

/// The portable [`l2_backward`].
#[inline(always)]
pub fn l2_backward_with<const C: usize>(xhat: &[f32], norms: &[f32], d: &mut [f32]) {
    let c = fixed::<C>(xhat.len() / norms.len().max(1));
    for ((xr, dr), &n) in xhat.chunks_exact(c).zip(d.chunks_exact_mut(c)).zip(norms) {
        let (along, inv) = (dot(xr, dr), 1.0 / n);
        for (o, &a) in dr.iter_mut().zip(xr) {
            *o = (*o - a * along) * inv;
        }
    }
}

/// `φ(x) = elu(x) + 1` in place.
#[inline(always)]
pub fn features(x: &mut [f32]) {
    x.iter_mut()
        .for_each(|a| *a = if *a > 0.0 { *a + 1.0 } else { exp(*a) });
}

/// `φ̄ → x̄` in place, from `φ`: `φ'(x) = min(φ, 1)`.
#[inline(always)]
pub fn features_backward(phi: &[f32], d: &mut [f32]) {
    d.iter_mut().zip(phi).for_each(|(o, &p)| *o *= p.min(1.0));
}

/// `σ` of every number of `x`.
#[inline(always)]
pub fn sigmoids(x: &[f32]) -> Vec<f32> {
    let mut s = spare::take(x.len());
    s.iter_mut().zip(x).for_each(|(o, &a)| *o = sigmoid(a));
    s
}

/// `o = silu(z)` from `z` and `σ(z)`.
#[inline(always)]
pub fn silu_into(o: &mut [f32], z: &[f32], s: &[f32]) {
    o.iter_mut()
        .zip(z.iter().zip(s))
        .for_each(|(o, (&z, &s))| *o = z * s);
}

/// `x: [rows, C]` into columns `at .. at + C` of the row-major `out: [rows, width]`.
#[inline(always)]
pub fn set_columns(out: &mut [f32], width: usize, at: usize, x: &[f32]) {
    let c = x.len() * width / out.len().max(1);
    if c > 0 {
        by_width!(c, set_columns_with(out, width, at, x));
    }
}

/// [`set_columns`] a row of `C` at a time.
#[inline(always)]
fn set_columns_with<const C: usize>(out: &mut [f32], width: usize, at: usize, x: &[f32]) {
    let c = fixed::<C>(x.len() * width / out.len().max(1));
    for (o, r) in out.chunks_exact_mut(width).zip(x.chunks_exact(c)) {
        o[at..at + c].copy_from_slice(r);
    }
}

/// Columns `at .. at + c` of the row-major `x: [rows, width]`, row-major.
#[inline(always)]
pub fn columns(x: &[f32], width: usize, at: usize, c: usize) -> Vec<f32> {
    let mut out = spare::take(x.len() / width * c);
    if c > 0 {
        by_width!(c, columns_with(x, width, at, &mut out));
    }
    out
}

/// [`columns`] into `out`, a row of `C` at a time (a copy of a length known
/// at compile time is a few vector moves, not a call to `memcpy`).
#[inline(always)]
fn columns_with<const C: usize>(x: &[f32], width: usize, at: usize, out: &mut [f32]) {
    let c = fixed::<C>(out.len() * width / x.len().max(1));
    for (o, r) in out.chunks_exact_mut(c).zip(x.chunks_exact(width)) {
        o.copy_from_slice(&r[at..at + c]);
    }
}

/// Columns `at .. at + c` of the rows `picked` of the row-major
/// `x: [rows, width]`, row-major `[picked, c]`.
pub fn pick(x: &[f32], width: usize, at: usize, c: usize, picked: &[usize]) -> Vec<f32> {
    let mut out = Vec::with_capacity(picked.len() * c);
    for &r in picked {
        out.extend_from_slice(&x[r * width + at..][..c]);
    }
    out
}

/// [`pick`]'s adjoint: `out[r, at .. at + c] += x[i]` for the `i`-th row `r` of `picked`.
pub fn put_add(out: &mut [f32], width: usize, at: usize, x: &[f32], picked: &[usize]) {
    let c = x.len() / picked.len().max(1);
    for (&r, xr) in picked.iter().zip(x.chunks_exact(c.max(1))) {
        for (o, &e) in out[r * width + at..][..c].iter_mut().zip(xr) {
            *o += e;
        }
    }
}
