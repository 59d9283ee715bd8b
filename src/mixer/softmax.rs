//! Causal softmax attention with its backward pass.
//!
//! ```text
//! forward   A = softmax_rows(s Q Kᵀ, causal),  O = A V
//! backward  Ā = Ō Vᵀ,  V̄ = Aᵀ Ō,  P̄[t, j] = A[t, j] (Ā[t, j] − Σ_m A[t, m] Ā[t, m]),
//!           Q̄ = s P̄ K,  K̄ = s P̄ᵀ Q
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;

use crate::attention::{causal_mask, scores, softmax_rows};

/// The outputs `[T, V]` and the weights `A: [T, T]` of `q, k: [T, K]`, `v: [T, V]`.
///
/// ```
/// use attention_geometry::mixer::softmax::forward;
/// use nalgebra::dmatrix;
/// let (q, v) = (dmatrix![0.0; 0.0], dmatrix![2.0; 4.0]);
/// let (o, a) = forward(&q, &q, &v, 1.0);
/// assert_eq!((o[(1, 0)], a[(0, 1)]), (3.0, 0.0)); // the mean of what is visible; no future
/// ```
pub fn forward(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    scale: f64,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let mut s = scores(q, k, scale);
    causal_mask(&mut s);
    let a = softmax_rows(&s);
    (&a * v, a)
}

/// `(q̄, k̄, v̄)` from `d_o = ∂L/∂O` and the weights `a` of [`forward`].
pub fn backward(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    a: &DMatrix<f64>,
    scale: f64,
    d_o: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>, DMatrix<f64>) {
    let da = d_o * v.transpose();
    let dv = a.tr_mul(d_o);
    let mut dp = a.component_mul(&da);
    for t in 0..a.nrows() {
        // Σ_m A[t, m] Ā[t, m]
        let inner: f64 = dp.row(t).sum();
        for j in 0..a.ncols() {
            dp[(t, j)] -= a[(t, j)] * inner;
        }
    }
    ((&dp * k) * scale, dp.tr_mul(q) * scale, dv)
}
