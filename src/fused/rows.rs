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

use crate::mixer::fast::rows::{exp, sigmoid};
use crate::mixer::layer::EPS;

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

/// `(y, 1/r)`: every row of `x: [rows, C]` RMS-normalised and scaled by `gamma: [C]`.
#[inline(always)]
pub fn rms_norm(x: &[f32], gamma: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let c = gamma.len();
    let mut y = vec![0.0; x.len()];
    let mut inv = vec![0.0; x.len() / c];
    for ((xr, yr), i) in x.chunks_exact(c).zip(y.chunks_exact_mut(c)).zip(&mut inv) {
        *i = 1.0 / (dot(xr, xr) / c as f32 + EPS as f32).sqrt();
        for ((o, &a), &g) in yr.iter_mut().zip(xr).zip(gamma) {
            *o = a * g * *i;
        }
    }
    (y, inv)
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
    let mut dx = vec![0.0; x.len()];
    let rows = x.chunks_exact(c).zip(dy.chunks_exact(c));
    for (((xr, dr), out), &i) in rows.zip(dx.chunks_exact_mut(c)).zip(inv) {
        for ((dg, &a), &d) in dgamma.iter_mut().zip(xr).zip(dr) {
            *dg += d * a * i;
        }
        // x̄ = (γ ⊙ ȳ − x i · inner) i,  inner = Σ_j γ_j ȳ_j x_j i / C
        for ((o, &g), &d) in out.iter_mut().zip(gamma).zip(dr) {
            *o = g * d;
        }
        let inner = i * dot(out, xr) / c as f32;
        for (o, &a) in out.iter_mut().zip(xr) {
            *o = (*o - a * i * inner) * i;
        }
    }
    dx
}

/// Every row of `x: [rows, C]` divided by its norm, in place; the norms.
#[inline(always)]
pub fn l2(x: &mut [f32], c: usize) -> Vec<f32> {
    let mut norms = vec![0.0; x.len() / c];
    for (row, n) in x.chunks_exact_mut(c).zip(&mut norms) {
        *n = (dot(row, row) + 1e-6).sqrt();
        row.iter_mut().for_each(|a| *a /= *n);
    }
    norms
}

/// `x̂̄ → x̄` in place, from `x̂` and the norms of [`l2`].
#[inline(always)]
pub fn l2_backward(xhat: &[f32], norms: &[f32], d: &mut [f32]) {
    let c = xhat.len() / norms.len().max(1);
    for ((xr, dr), &n) in xhat.chunks_exact(c).zip(d.chunks_exact_mut(c)).zip(norms) {
        let along = dot(xr, dr);
        for (o, &a) in dr.iter_mut().zip(xr) {
            *o = (*o - a * along) / n;
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

/// The causal depthwise convolution within each sequence of `t_len` rows:
/// `z: [rows, C]` from columns `at .. at + C` of `x: [rows, width]` and the
/// kernel `w: [W, C]` (row-major).
#[inline(always)]
pub fn conv(x: &[f32], width: usize, at: usize, w: &[f32], c: usize, t_len: usize) -> Vec<f32> {
    let taps = w.len() / c;
    let rows = x.len() / width;
    let mut z = vec![0.0; rows * c];
    for (r, zr) in z.chunks_exact_mut(c).enumerate() {
        let t = r % t_len;
        // tap i reads row r − (W − 1 − i), if it lies in the sequence
        for (i, wi) in w
            .chunks_exact(c)
            .enumerate()
            .skip((taps - 1).saturating_sub(t))
        {
            let src = &x[(r + i + 1 - taps) * width + at..][..c];
            for ((o, &a), &b) in zr.iter_mut().zip(src).zip(wi) {
                *o += a * b;
            }
        }
    }
    z
}

/// `(x̄, w̄)` of [`conv`] from `z̄: [rows, C]`: `x̄` into columns `at .. at + C`
/// of `dx: [rows, width]`, `w̄` added into `dw: [W, C]`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn conv_backward(
    x: &[f32],
    width: usize,
    at: usize,
    w: &[f32],
    dz: &[f32],
    t_len: usize,
    dx: &mut [f32],
    dw: &mut [f32],
) {
    let c = dz.len() * width / x.len();
    let taps = w.len() / c;
    for (r, dr) in dz.chunks_exact(c).enumerate() {
        let t = r % t_len;
        let pairs = w.chunks_exact(c).zip(dw.chunks_exact_mut(c));
        for (i, (wi, dwi)) in pairs.enumerate().skip((taps - 1).saturating_sub(t)) {
            let row = (r + i + 1 - taps) * width + at;
            let src = &x[row..][..c];
            for ((g, &a), &d) in dwi.iter_mut().zip(src).zip(dr) {
                *g += d * a;
            }
            for ((o, &b), &d) in dx[row..][..c].iter_mut().zip(wi).zip(dr) {
                *o += b * d;
            }
        }
    }
}

/// `σ` of every number of `x`.
#[inline(always)]
pub fn sigmoids(x: &[f32]) -> Vec<f32> {
    let mut s = vec![0.0; x.len()];
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

/// Columns `at .. at + c` of the row-major `x: [rows, width]`, row-major.
#[inline(always)]
pub fn columns(x: &[f32], width: usize, at: usize, c: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len() / width * c);
    x.chunks_exact(width)
        .for_each(|r| out.extend_from_slice(&r[at..at + c]));
    out
}
