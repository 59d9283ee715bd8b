//! How learned projections deform a token cloud, and what the score's
//! bilinear form `W_QK = W_Q W_Kᵀ` keeps of the raw geometry.
//!
//! Tokens are rows of `x: (n, d)`; a projection `w: (d, d_k)` moves them to
//! `x w`. Its singular values say how much each direction is stretched,
//! compressed or collapsed (a zero singular value). Introduced in chapter 1.

use nalgebra::DMatrix;

use crate::stats::ranks;

/// Singular values of `w`, largest first: the stretch of each principal direction.
///
/// ```
/// use attention_geometry::projection::stretch;
/// use nalgebra::dmatrix;
/// assert_eq!(stretch(&dmatrix![3.0, 0.0; 0.0, -0.5]), vec![3.0, 0.5]);
/// ```
pub fn stretch(w: &DMatrix<f64>) -> Vec<f64> {
    let mut s: Vec<f64> = w.singular_values().iter().cloned().collect();
    s.sort_by(|a, b| b.total_cmp(a));
    s
}

/// Number of singular values above `tol` times the largest.
pub fn numerical_rank(w: &DMatrix<f64>, tol: f64) -> usize {
    let s = stretch(w);
    let top = s.first().cloned().unwrap_or(0.0);
    s.iter().filter(|&&x| x > tol * top).count()
}

/// Pairwise Euclidean distances `‖x_i − x_j‖`, `(n, n)`.
pub fn distances(x: &DMatrix<f64>) -> DMatrix<f64> {
    let n = x.nrows();
    DMatrix::from_fn(n, n, |i, j| (x.row(i) - x.row(j)).norm())
}

/// The off-diagonal entries `m_ij, i ≠ j`, row by row.
pub fn off_diagonal(m: &DMatrix<f64>) -> Vec<f64> {
    let (n, c) = m.shape();
    (0..n)
        .flat_map(|i| (0..c).filter(move |&j| j != i).map(move |j| m[(i, j)]))
        .collect()
}

/// The `k` indices `j ≠ i` with the largest `sim[(i, j)]`.
fn top_k(sim: &DMatrix<f64>, i: usize, k: usize) -> Vec<usize> {
    let mut js: Vec<usize> = (0..sim.ncols()).filter(|&j| j != i).collect();
    js.sort_by(|&a, &b| sim[(i, b)].total_cmp(&sim[(i, a)]));
    js.truncate(k);
    js
}

/// Mean fraction of each token's `k` strongest partners under `a` that are
/// also among its `k` strongest under `b` (self excluded). Chance level for
/// unrelated rankings is `k / (n − 1)`.
///
/// ```
/// use attention_geometry::projection::knn_overlap;
/// use nalgebra::DMatrix;
/// let a = DMatrix::from_fn(5, 5, |i, j| -((i as f64) - (j as f64)).abs());
/// assert_eq!(knn_overlap(&a, &a, 2), 1.0);
/// ```
///
/// # Panics
/// If the shapes differ or `k` is not in `1..n`.
pub fn knn_overlap(a: &DMatrix<f64>, b: &DMatrix<f64>, k: usize) -> f64 {
    assert_eq!(
        a.shape(),
        b.shape(),
        "knn_overlap: shapes {:?} and {:?} differ",
        a.shape(),
        b.shape()
    );
    let n = a.nrows();
    assert!(k >= 1 && k < n, "knn_overlap: k = {k} must be in 1..{n}");
    let shared: usize = (0..n)
        .map(|i| {
            let nb = top_k(b, i, k);
            top_k(a, i, k).iter().filter(|j| nb.contains(j)).count()
        })
        .sum();
    shared as f64 / (n * k) as f64
}

/// For every pair `i < j`, how far its distance rank moves between
/// `before` and `after`, as a fraction of the number of pairs:
/// `|rank_before − rank_after| / P`. 0 means the order is kept; unrelated
/// orders give about 1/3 on average.
pub fn rank_shift(before: &DMatrix<f64>, after: &DMatrix<f64>) -> Vec<f64> {
    let upper = |m: &DMatrix<f64>| -> Vec<f64> {
        let n = m.nrows();
        (0..n)
            .flat_map(|i| ((i + 1)..n).map(move |j| m[(i, j)]))
            .collect()
    };
    let (rb, ra) = (ranks(&upper(before)), ranks(&upper(after)));
    let p = rb.len() as f64;
    rb.iter().zip(&ra).map(|(b, a)| (b - a).abs() / p).collect()
}

/// The symmetric and antisymmetric parts of a square matrix:
/// `w = (w + wᵀ)/2 + (w − wᵀ)/2`.
pub fn split_symmetric(w: &DMatrix<f64>) -> (DMatrix<f64>, DMatrix<f64>) {
    assert!(
        w.is_square(),
        "split_symmetric: {:?} is not square",
        w.shape()
    );
    let wt = w.transpose();
    ((w + &wt) * 0.5, (w - &wt) * 0.5)
}

/// Share of `‖w‖²_F` in the symmetric part. The two parts are orthogonal
/// in the Frobenius inner product, so the shares of the symmetric and the
/// antisymmetric parts add up to 1.
///
/// ```
/// use attention_geometry::projection::symmetric_share;
/// use nalgebra::dmatrix;
/// assert_eq!(symmetric_share(&dmatrix![1.0, 2.0; 2.0, 1.0]), 1.0);
/// assert_eq!(symmetric_share(&dmatrix![0.0, 1.0; -1.0, 0.0]), 0.0);
/// ```
pub fn symmetric_share(w: &DMatrix<f64>) -> f64 {
    let (s, _) = split_symmetric(w);
    s.norm_squared() / w.norm_squared()
}

/// Eigenvalues of the symmetric part of `w`, largest first. The quadratic
/// form `x ↦ xᵀ w x` sees only this part; mixed signs mean it is indefinite.
pub fn symmetric_spectrum(w: &DMatrix<f64>) -> Vec<f64> {
    let (s, _) = split_symmetric(w);
    let mut e: Vec<f64> = s.symmetric_eigenvalues().iter().cloned().collect();
    e.sort_by(|a, b| b.total_cmp(a));
    e
}

/// Fraction of rows whose largest entry is on the diagonal: how often a
/// token is its own best match under the scores.
pub fn self_match_rate(scores: &DMatrix<f64>) -> f64 {
    let n = scores.nrows();
    let hits = (0..n)
        .filter(|&i| (0..scores.ncols()).all(|j| scores[(i, j)] <= scores[(i, i)]))
        .count();
    hits as f64 / n as f64
}

/// Move both projections by an invertible `a`: `(w_q a, w_k a⁻ᵀ)`. The
/// product `w_q a (w_k a⁻ᵀ)ᵀ = w_q w_kᵀ` and so every score is unchanged.
///
/// # Panics
/// If `a` is not invertible.
///
/// ```
/// use attention_geometry::projection::regauge;
/// use nalgebra::dmatrix;
/// let (wq, wk) = (dmatrix![1.0, 2.0; 0.0, 1.0], dmatrix![0.5, 0.0; 1.0, 3.0]);
/// let (gq, gk) = regauge(&wq, &wk, &dmatrix![2.0, 1.0; 0.0, 1.0]);
/// assert!((gq * gk.transpose() - wq * wk.transpose()).norm() < 1e-12);
/// ```
pub fn regauge(
    w_q: &DMatrix<f64>,
    w_k: &DMatrix<f64>,
    a: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let inv = a
        .clone()
        .try_inverse()
        .expect("regauge: the change of coordinates is not invertible");
    (w_q * a, w_k * inv.transpose())
}
