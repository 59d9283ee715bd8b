//! The row-wise pieces of the fast pass in `f32`, on activations that stack a
//! batch's sequences row after row (`[B·T, C]`, row `b·T + t`): RMSNorm, L2
//! normalisation, the feature map `φ`, SiLU and the short causal convolution, which restarts at
//! every sequence. The formulas are those of the reference pieces
//! ([`crate::mixer::layer::rms_norm`], [`crate::mixer::gate`], [`crate::mixer::stack::conv`]).
//!
//! ```text
//! RMSNorm   y = γ ⊙ x / r,  r = sqrt(mean x² + ε)        x̄ = (γ ⊙ ȳ − x̂ (Σ γ ȳ x̂) / C) / r   (kept: 1/r)
//! L2        x̂ = x / n,  n = sqrt(‖x‖² + 10⁻⁶)            x̄ = (x̂̄ − x̂ (x̂ · x̂̄)) / n
//! φ         φ(x) = elu(x) + 1                            x̄ = φ̄ min(φ, 1)
//! conv      z_t[c] = Σ_{i<W} w[i, c] x_{t−W+1+i}[c]  within the sequence,   y = silu(z)
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;

use crate::mixer::layer::EPS;

/// An `f32` matrix.
pub type M = DMatrix<f32>;

/// `eˣ` in `f32` without a branch, so that loops over it vectorise: `x = n ln 2 + r`,
/// `|r| ≤ ln 2 / 2`, `eˣ = 2ⁿ e^r`, `e^r` by its Taylor polynomial of degree 7
/// (truncation below `4·10⁻⁹` relative); `x` clamped to `[−87, 88]`.
///
/// ```
/// use attention_geometry::mixer::fast::rows::exp;
/// for x in [-80.0f32, -3.3, 0.0, 0.7, 12.5, 80.0] {
///     assert!((exp(x) / x.exp() - 1.0).abs() < 1e-6);
/// }
/// ```
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    // adding and removing 1.5·2²³ rounds to the nearest integer
    const ROUND: f32 = 12_582_912.0;
    let x = x.clamp(-87.0, 88.0);
    let n = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    // ln 2 in two parts (Cephes' split), so that n·ln 2 loses nothing
    let r = (x - n * 0.693_359_4) + n * 2.121_944_4e-4;
    let mut p = 1.0 / 5040.0;
    for c in [720.0, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0] {
        p = p * r + 1.0 / c;
    }
    p * f32::from_bits(((n as i32 + 127) << 23) as u32)
}

/// `σ(x) = 1 / (1 + e^{−x})`.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

/// `ln(1 + y)` for `y ∈ [0, 1]` without a branch: `2 atanh(s)`, `s = y / (2 + y) ≤ 1/3`,
/// by the series `2 (s + s³/3 + … + s¹¹/11)` (truncation below `10⁻⁷`).
#[inline(always)]
fn ln_1p_unit(y: f32) -> f32 {
    let s = y / (2.0 + y);
    let s2 = s * s;
    let mut p = 1.0 / 11.0;
    for c in [9.0, 7.0, 5.0, 3.0, 1.0] {
        p = p * s2 + 1.0 / c;
    }
    2.0 * s * p
}

/// `ln(1 + eˣ) = max(x, 0) + ln(1 + e^{−|x|})`.
///
/// ```
/// use attention_geometry::mixer::fast::rows::softplus;
/// for x in [-30.0f32, -2.0, 0.0, 0.5, 4.0, 30.0] {
///     let exact = (x as f64).exp().ln_1p();
///     assert!(((softplus(x) as f64) / exact - 1.0).abs() < 1e-6);
/// }
/// ```
#[inline(always)]
pub fn softplus(x: f32) -> f32 {
    x.max(0.0) + ln_1p_unit(exp(-x.abs()))
}

/// The sum of squares of every row of `x`.
#[inline(always)]
fn row_squares(x: &M) -> Vec<f32> {
    let mut sq = vec![0.0f32; x.nrows()];
    for col in x.column_iter() {
        sq.iter_mut()
            .zip(col.as_slice())
            .for_each(|(s, &a)| *s += a * a);
    }
    sq
}

/// `(y, 1/r)`: every row of `x` RMS-normalised and scaled by `gamma: [1, C]`, and the rows' `1/r`.
#[inline(always)]
pub fn rms_norm(x: &M, gamma: &M) -> (M, Vec<f32>) {
    let c = x.ncols() as f32;
    let inv: Vec<f32> = row_squares(x)
        .into_iter()
        .map(|s| 1.0 / (s / c + EPS as f32).sqrt())
        .collect();
    let mut y = x.clone();
    for (j, mut col) in y.column_iter_mut().enumerate() {
        let gj = gamma[j];
        col.as_mut_slice()
            .iter_mut()
            .zip(&inv)
            .for_each(|(a, &i)| *a *= gj * i);
    }
    (y, inv)
}

/// `(x̄, γ̄)` from `x`, `γ`, the `1/r` of [`rms_norm`] and `ȳ`.
#[inline(always)]
pub fn rms_norm_backward(x: &M, gamma: &M, inv: &[f32], dy: &M) -> (M, M) {
    let c = x.ncols() as f32;
    // inner_t = Σ_j γ_j ȳ_tj x̂_tj / C
    let mut inner = vec![0.0f32; x.nrows()];
    let mut dgamma = M::zeros(1, x.ncols());
    for j in 0..x.ncols() {
        let (xc, dc) = (x.column(j), dy.column(j));
        let mut dg = 0.0;
        for ((s, &xt), (&dt, &i)) in inner
            .iter_mut()
            .zip(xc.as_slice())
            .zip(dc.as_slice().iter().zip(inv))
        {
            dg += dt * xt * i;
            *s += gamma[j] * dt * xt * i / c;
        }
        dgamma[j] = dg;
    }
    let mut dx = dy.clone();
    for (j, mut col) in dx.column_iter_mut().enumerate() {
        let (gj, xc) = (gamma[j], x.column(j));
        for ((d, &xt), (&s, &i)) in col
            .as_mut_slice()
            .iter_mut()
            .zip(xc.as_slice())
            .zip(inner.iter().zip(inv))
        {
            *d = (gj * *d - xt * i * s) * i;
        }
    }
    (dx, dgamma)
}

/// `(x̂, n)`: every row of `x` divided by its norm `n = sqrt(‖x‖² + 10⁻⁶)`.
#[inline(always)]
pub fn l2_rows(x: &M) -> (M, Vec<f32>) {
    let n: Vec<f32> = row_squares(x)
        .into_iter()
        .map(|s| (s + 1e-6).sqrt())
        .collect();
    let mut y = x.clone();
    for mut col in y.column_iter_mut() {
        col.as_mut_slice()
            .iter_mut()
            .zip(&n)
            .for_each(|(a, &nt)| *a /= nt);
    }
    (y, n)
}

/// `x̄` from `x̂`, the norms of [`l2_rows`] and `x̂̄`.
#[inline(always)]
pub fn l2_rows_backward(xhat: &M, norms: &[f32], dxhat: &M) -> M {
    let mut along = vec![0.0f32; xhat.nrows()];
    for (a, b) in xhat.column_iter().zip(dxhat.column_iter()) {
        along
            .iter_mut()
            .zip(a.as_slice().iter().zip(b.as_slice()))
            .for_each(|(s, (&x, &d))| *s += x * d);
    }
    let mut dx = dxhat.clone();
    for (mut col, xc) in dx.column_iter_mut().zip(xhat.column_iter()) {
        for ((d, &x), (&a, &n)) in col
            .as_mut_slice()
            .iter_mut()
            .zip(xc.as_slice())
            .zip(along.iter().zip(norms))
        {
            *d = (*d - x * a) / n;
        }
    }
    dx
}

/// `φ(x) = elu(x) + 1`, entrywise (as [`crate::mixer::gate::features`]).
#[inline(always)]
pub fn features(x: &M) -> M {
    x.map(|a| if a > 0.0 { a + 1.0 } else { exp(a) })
}

/// `x̄` from `φ` and `φ̄`: `φ'(x) = min(φ, 1)`.
#[inline(always)]
pub fn features_backward(phi: &M, dphi: &M) -> M {
    phi.zip_map(dphi, |p, d| d * p.min(1.0))
}

/// `silu(z) = z σ(z)`, entrywise.
#[inline(always)]
pub fn silu(z: &M) -> M {
    let mut y = z.clone();
    y.as_mut_slice().iter_mut().for_each(|a| *a *= sigmoid(*a));
    y
}

/// `ȳ ⊙ silu'(z)`, `silu'(z) = σ(z) (1 + z (1 − σ(z)))`.
#[inline(always)]
pub fn silu_backward(z: &M, dy: &M) -> M {
    let mut dz = dy.clone();
    for (d, &a) in dz.as_mut_slice().iter_mut().zip(z.as_slice()) {
        let s = sigmoid(a);
        *d *= s * (1.0 + a * (1.0 - s));
    }
    dz
}

/// `(y, z)`: the causal depthwise convolution of `x: [B·T, C]` by `w: [W, C]`
/// within each sequence of `t_len` rows, after SiLU, and its pre-activation.
#[inline(always)]
pub fn conv(x: &M, w: &M, t_len: usize) -> (M, M) {
    let width = w.nrows();
    let mut z = M::zeros(x.nrows(), x.ncols());
    for c in 0..x.ncols() {
        let (xc, mut zc) = (x.column(c), z.column_mut(c));
        let (xc, zc) = (xc.as_slice(), zc.as_mut_slice());
        for (xs, zs) in xc.chunks_exact(t_len).zip(zc.chunks_exact_mut(t_len)) {
            // tap i reads `shift = W − 1 − i` rows back
            for i in 0..width {
                let (wi, shift) = (w[(i, c)], width - 1 - i);
                zs[shift..]
                    .iter_mut()
                    .zip(xs)
                    .for_each(|(a, &b)| *a += wi * b);
            }
        }
    }
    (silu(&z), z)
}

/// `(x̄, w̄)` of [`conv`] from `x`, `w`, its `z` and `ȳ`.
#[inline(always)]
pub fn conv_backward(x: &M, w: &M, z: &M, dy: &M, t_len: usize) -> (M, M) {
    let dz = silu_backward(z, dy);
    let width = w.nrows();
    let mut dx = M::zeros(x.nrows(), x.ncols());
    let mut dw = M::zeros(width, x.ncols());
    for c in 0..x.ncols() {
        let (xc, dzc, mut dxc) = (x.column(c), dz.column(c), dx.column_mut(c));
        let (xc, dzc, dxc) = (xc.as_slice(), dzc.as_slice(), dxc.as_mut_slice());
        for ((xs, dzs), dxs) in xc
            .chunks_exact(t_len)
            .zip(dzc.chunks_exact(t_len))
            .zip(dxc.chunks_exact_mut(t_len))
        {
            for i in 0..width {
                let (wi, shift) = (w[(i, c)], width - 1 - i);
                let mut dwi = 0.0;
                for ((d, &xv), &g) in dxs.iter_mut().zip(xs).zip(&dzs[shift..]) {
                    dwi += g * xv;
                    *d += wi * g;
                }
                dw[(i, c)] += dwi;
            }
        }
    }
    (dx, dw)
}
