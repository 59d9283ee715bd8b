//! The backward passes of the pieces around the kernel: L2-normalised rows,
//! the feature map of Zoology's linear attention and the decay gate
//! `g = −exp(A_log) · softplus(z)`.
//!
//! ```text
//! x̂ = x / n,  n = sqrt(‖x‖² + 1e-6)           x̄ = (x̂̄ − x̂ (x̂ · x̂̄)) / n
//! φ(x) = elu(x) + 1 = x + 1 (x > 0), eˣ (x ≤ 0)   x̄ = φ̄ min(φ(x), 1)
//! g = −exp(A_log) softplus(z)                  z̄ = ḡ · (−exp(A_log)) σ(z),   Ā_log = Σ ḡ g
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;

use crate::delta::{l2_normalize, sigmoid};

/// The rows of `x: [T, K]` normalised as [`crate::delta::l2_normalize`] does, and their norms `n`.
pub fn l2_rows(x: &DMatrix<f64>) -> (DMatrix<f64>, Vec<f64>) {
    let norms = x
        .row_iter()
        .map(|r| (r.norm_squared() + 1e-6).sqrt())
        .collect();
    (l2_normalize(x), norms)
}

/// `x̄` from `x̂: [T, K]`, the norms of [`l2_rows`] and `x̂̄ = ∂L/∂x̂: [T, K]`.
///
/// ```
/// use attention_geometry::mixer::gate::{l2_rows, l2_rows_backward};
/// use nalgebra::dmatrix;
/// let (xh, n) = l2_rows(&dmatrix![3.0, 4.0]);
/// // a gradient along x̂ itself changes only the length, which x̂ ignores
/// let dx = l2_rows_backward(&xh, &n, &xh);
/// assert!(dx.amax() < 1e-7);
/// ```
pub fn l2_rows_backward(xhat: &DMatrix<f64>, norms: &[f64], dxhat: &DMatrix<f64>) -> DMatrix<f64> {
    let mut dx = dxhat.clone();
    for (t, mut row) in dx.row_iter_mut().enumerate() {
        let along = xhat.row(t).dot(&dxhat.row(t));
        row -= xhat.row(t) * along;
        row /= norms[t];
    }
    dx
}

/// `φ(x) = elu(x) + 1`, entrywise: Katharopoulos et al.'s positive feature map
/// (Zoology's `pos_elu` at temperature 1, fla's `elu`).
///
/// ```
/// use attention_geometry::mixer::gate::features;
/// use nalgebra::dmatrix;
/// let phi = features(&dmatrix![-30.0, 0.0, 2.0]);
/// assert!(phi[0] > 0.0 && phi[0] < 1e-12 && phi[1] == 1.0 && phi[2] == 3.0);
/// ```
pub fn features(x: &DMatrix<f64>) -> DMatrix<f64> {
    x.map(|a| if a > 0.0 { a + 1.0 } else { a.exp() })
}

/// `x̄` from `φ = features(x)` and `φ̄`: `φ'(x) = min(φ, 1)` (1 for `x > 0`, `eˣ = φ` below).
pub fn features_backward(phi: &DMatrix<f64>, dphi: &DMatrix<f64>) -> DMatrix<f64> {
    phi.zip_map(dphi, |p, d| d * p.min(1.0))
}

/// `(z̄, Ā_log)` of the decay gate from `z` (the softplus input), `g` and `ḡ`, all `[T, K]`.
pub fn decay_backward(
    z: &DMatrix<f64>,
    g: &DMatrix<f64>,
    a_log: f64,
    dg: &DMatrix<f64>,
) -> (DMatrix<f64>, f64) {
    let a = a_log.exp();
    let dz = DMatrix::from_fn(z.nrows(), z.ncols(), |t, c| {
        -dg[(t, c)] * a * sigmoid(z[(t, c)])
    });
    (dz, dg.dot(g))
}
