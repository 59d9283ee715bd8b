//! The row-wise pieces of the fast pass in `f32`, on activations that stack a
//! batch's sequences row after row (`[B·T, C]`, row `b·T + t`): RMSNorm, L2
//! normalisation, SiLU and the short causal convolution, which restarts at
//! every sequence. The formulas are those of the reference pieces
//! ([`crate::mixer::layer::rms_norm`], [`crate::mixer::gate`], [`crate::mixer::stack::conv`]).
//!
//! ```text
//! RMSNorm   y = γ ⊙ x / r,  r = sqrt(mean x² + ε)        x̄ = (γ ⊙ ȳ − x̂ (Σ γ ȳ x̂) / C) / r
//! L2        x̂ = x / n,  n = sqrt(‖x‖² + 10⁻⁶)            x̄ = (x̂̄ − x̂ (x̂ · x̂̄)) / n
//! conv      z_t[c] = Σ_{i<W} w[i, c] x_{t−W+1+i}[c]  within the sequence,   y = silu(z)
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;

use crate::mixer::layer::EPS;

/// An `f32` matrix.
pub type M = DMatrix<f32>;

/// `σ(x)`, stable at both ends.
pub fn sigmoid(x: f32) -> f32 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln(1 + eˣ) = max(x, 0) + ln(1 + e^{−|x|})`.
pub fn softplus(x: f32) -> f32 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// The sum of squares of every row of `x`.
fn row_squares(x: &M) -> Vec<f32> {
    let mut sq = vec![0.0f32; x.nrows()];
    for col in x.column_iter() {
        sq.iter_mut()
            .zip(col.iter())
            .for_each(|(s, &a)| *s += a * a);
    }
    sq
}

/// `(y, r)`: every row of `x` RMS-normalised and scaled by `gamma: [1, C]`, and the rows' `r`.
pub fn rms_norm(x: &M, gamma: &M) -> (M, Vec<f32>) {
    let c = x.ncols() as f32;
    let r: Vec<f32> = row_squares(x)
        .into_iter()
        .map(|s| (s / c + EPS as f32).sqrt())
        .collect();
    let mut y = x.clone();
    for (j, mut col) in y.column_iter_mut().enumerate() {
        col.iter_mut()
            .zip(&r)
            .for_each(|(a, &rt)| *a *= gamma[j] / rt);
    }
    (y, r)
}

/// `(x̄, γ̄)` from `x`, `γ`, the `r` of [`rms_norm`] and `ȳ`.
pub fn rms_norm_backward(x: &M, gamma: &M, r: &[f32], dy: &M) -> (M, M) {
    let c = x.ncols() as f32;
    let mut inner = vec![0.0f32; x.nrows()];
    let mut dgamma = M::zeros(1, x.ncols());
    for j in 0..x.ncols() {
        let (xc, dc) = (x.column(j), dy.column(j));
        let mut dg = 0.0;
        for t in 0..x.nrows() {
            let hat = xc[t] / r[t];
            dg += dc[t] * hat;
            inner[t] += gamma[j] * dc[t] * hat;
        }
        dgamma[j] = dg;
    }
    let dx = M::from_fn(x.nrows(), x.ncols(), |t, j| {
        (gamma[j] * dy[(t, j)] - x[(t, j)] / r[t] * inner[t] / c) / r[t]
    });
    (dx, dgamma)
}

/// `(x̂, n)`: every row of `x` divided by its norm `n = sqrt(‖x‖² + 10⁻⁶)`.
pub fn l2_rows(x: &M) -> (M, Vec<f32>) {
    let n: Vec<f32> = row_squares(x)
        .into_iter()
        .map(|s| (s + 1e-6).sqrt())
        .collect();
    let mut y = x.clone();
    for mut col in y.column_iter_mut() {
        col.iter_mut().zip(&n).for_each(|(a, &nt)| *a /= nt);
    }
    (y, n)
}

/// `x̄` from `x̂`, the norms of [`l2_rows`] and `x̂̄`.
pub fn l2_rows_backward(xhat: &M, norms: &[f32], dxhat: &M) -> M {
    let mut along = vec![0.0f32; xhat.nrows()];
    for (a, b) in xhat.column_iter().zip(dxhat.column_iter()) {
        along
            .iter_mut()
            .zip(a.iter().zip(b.iter()))
            .for_each(|(s, (&x, &d))| *s += x * d);
    }
    M::from_fn(xhat.nrows(), xhat.ncols(), |t, j| {
        (dxhat[(t, j)] - xhat[(t, j)] * along[t]) / norms[t]
    })
}

/// `silu(z) = z σ(z)`, entrywise.
pub fn silu(z: &M) -> M {
    z.map(|a| a * sigmoid(a))
}

/// `ȳ ⊙ silu'(z)`.
pub fn silu_backward(z: &M, dy: &M) -> M {
    z.zip_map(dy, |a, d| {
        let s = sigmoid(a);
        d * s * (1.0 + a * (1.0 - s))
    })
}

/// `(y, z)`: the causal depthwise convolution of `x: [B·T, C]` by `w: [W, C]`
/// within each sequence of `t_len` rows, after SiLU, and its pre-activation.
pub fn conv(x: &M, w: &M, t_len: usize) -> (M, M) {
    let width = w.nrows();
    let mut z = M::zeros(x.nrows(), x.ncols());
    for c in 0..x.ncols() {
        let (xc, mut zc) = (x.column(c), z.column_mut(c));
        for r in 0..x.nrows() {
            let t = r % t_len;
            // tap i reads row r − (W − 1 − i), inside the sequence
            let first = (width - 1).saturating_sub(t);
            zc[r] = (first..width)
                .map(|i| w[(i, c)] * xc[r + i + 1 - width])
                .sum();
        }
    }
    (silu(&z), z)
}

/// `(x̄, w̄)` of [`conv`] from `x`, `w`, its `z` and `ȳ`.
pub fn conv_backward(x: &M, w: &M, z: &M, dy: &M, t_len: usize) -> (M, M) {
    let dz = silu_backward(z, dy);
    let width = w.nrows();
    let mut dx = M::zeros(x.nrows(), x.ncols());
    let mut dw = M::zeros(width, x.ncols());
    for c in 0..x.ncols() {
        let (xc, dzc) = (x.column(c), dz.column(c));
        for r in 0..x.nrows() {
            let first = (width - 1).saturating_sub(r % t_len);
            for i in first..width {
                let s = r + i + 1 - width;
                dw[(i, c)] += dzc[r] * xc[s];
                dx[(s, c)] += dzc[r] * w[(i, c)];
            }
        }
    }
    (dx, dw)
}
