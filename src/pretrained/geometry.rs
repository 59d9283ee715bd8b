//! The weight geometry of a trained head: how symmetric its bilinear form
//! `W_QK = W_Q W_Kᵀ` is, and how its symmetric part's eigenvalue mass splits
//! by sign, per head and (Saponati et al. 2025) per layer.
//!
//! For a head of width `r` with `2r ≤ d`, the symmetric part
//! `S = (W_QK + W_QKᵀ)/2 = ½ A J Aᵀ`, with `A = [W_Q W_K]` `(d, 2r)` and
//! `J = [[0, I], [I, 0]]`, has exactly `r` positive and `r` negative nonzero
//! eigenvalues whenever `A` has rank `2r` (Sylvester's law of inertia): the
//! *count* is forced, for trained and random heads alike; the *mass*
//! `Σ|λ₋| / Σ|λ|` is not. Introduced in chapter 1.

use nalgebra::DMatrix;

use crate::projection::{symmetric_share, symmetric_spectrum};

/// The geometry of one head's `W_QK` (weights as stored: no biases, no gains).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeadGeometry {
    /// `‖S‖²_F / ‖W_QK‖²_F`.
    pub symmetric_share: f64,
    /// `Σ|λ₋| / Σ|λ|` over the eigenvalues of `S`.
    pub negative_mass: f64,
    /// Number of eigenvalues of `S` below `−1e-9 · max|λ|`.
    pub negative_count: usize,
}

/// `Σ|λ₋| / Σ|λ|`: the share of the absolute eigenvalue mass that is negative.
///
/// ```
/// use attention_geometry::pretrained::geometry::negative_mass;
/// assert_eq!(negative_mass(&[3.0, -1.0, 0.0]), 0.25);
/// ```
pub fn negative_mass(eigenvalues: &[f64]) -> f64 {
    let total: f64 = eigenvalues.iter().map(|e| e.abs()).sum();
    eigenvalues
        .iter()
        .filter(|&&e| e < 0.0)
        .map(|e| -e)
        .sum::<f64>()
        / total
}

/// The nonzero-spectrum eigenvalues of `S = sym(w_q w_kᵀ)`, largest first,
/// from the `(2r, 2r)` matrix `½ R J Rᵀ` where `[w_q w_k] = Q R`: the same
/// numbers as [`symmetric_spectrum`] without its zeros, in `O(d r²)` rather
/// than `O(d³)`.
///
/// # Shapes
/// `w_q`, `w_k`: `(d, r)` with `2r ≤ d`; the result has `2r` entries.
///
/// # Panics
/// If the shapes differ or `2r > d`.
///
/// ```
/// use attention_geometry::pretrained::geometry::low_rank_spectrum;
/// use attention_geometry::projection::symmetric_spectrum;
/// use attention_geometry::random::{gaussian, seeded};
/// let mut rng = seeded(1);
/// let (w_q, w_k) = (gaussian(&mut rng, 8, 2, 1.0), gaussian(&mut rng, 8, 2, 1.0));
/// let full = symmetric_spectrum(&(&w_q * w_k.transpose()));
/// let low = low_rank_spectrum(&w_q, &w_k);
/// assert!((low[0] - full[0]).abs() < 1e-12 && (low[3] - full[7]).abs() < 1e-12);
/// ```
pub fn low_rank_spectrum(w_q: &DMatrix<f64>, w_k: &DMatrix<f64>) -> Vec<f64> {
    assert_eq!(
        w_q.shape(),
        w_k.shape(),
        "low_rank_spectrum: w_q {:?} and w_k {:?} differ",
        w_q.shape(),
        w_k.shape()
    );
    let (d, r) = w_q.shape();
    assert!(
        2 * r <= d,
        "low_rank_spectrum: 2r = {} exceeds d = {d}",
        2 * r
    );
    // A = [w_q w_k] (d, 2r) = Q R, S = ½ A J Aᵀ = Q (½ R J Rᵀ) Qᵀ
    let mut a = DMatrix::zeros(d, 2 * r);
    a.columns_mut(0, r).copy_from(w_q);
    a.columns_mut(r, r).copy_from(w_k);
    let rr = a.qr().r();
    // R J swaps R's column halves: (2r, 2r)
    let mut rj = DMatrix::zeros(2 * r, 2 * r);
    rj.columns_mut(0, r).copy_from(&rr.columns(r, r));
    rj.columns_mut(r, r).copy_from(&rr.columns(0, r));
    let small = (&rj * rr.transpose() + &rr * rj.transpose()) * 0.25;
    let mut e: Vec<f64> = small.symmetric_eigenvalues().iter().cloned().collect();
    e.sort_by(|a, b| b.total_cmp(a));
    e
}

/// The geometry of the head `(w_q, w_k)`, `(d, r)` each.
///
/// ```
/// use attention_geometry::pretrained::geometry::head_geometry;
/// use nalgebra::DMatrix;
/// let w = DMatrix::from_fn(6, 2, |i, j| if i == j { 1.0 } else { 0.0 });
/// let g = head_geometry(&w, &w);
/// assert_eq!((g.symmetric_share, g.negative_mass, g.negative_count), (1.0, 0.0, 0));
/// ```
///
/// # Panics
/// As [`low_rank_spectrum`].
pub fn head_geometry(w_q: &DMatrix<f64>, w_k: &DMatrix<f64>) -> HeadGeometry {
    let e = low_rank_spectrum(w_q, w_k);
    let scale = e.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    HeadGeometry {
        symmetric_share: low_rank_share(w_q, w_k),
        negative_mass: negative_mass(&e),
        negative_count: e.iter().filter(|&&x| x < -1e-9 * scale).count(),
    }
}

/// The symmetric share of `M = a bᵀ` from `(r, r)` Gram matrices:
/// `‖S‖²_F / ‖M‖²_F = ½ (1 + tr(M²) / ‖M‖²_F)`, with
/// `tr(M²) = tr((bᵀa)²)` and `‖M‖²_F = tr(aᵀa · bᵀb)`; equal to
/// [`symmetric_share`] of `a bᵀ` in `O(d r²)` rather than `O(d² r)`.
///
/// # Shapes
/// `a`, `b`: `(d, r)`.
///
/// # Panics
/// If the shapes differ.
///
/// ```
/// use attention_geometry::pretrained::geometry::low_rank_share;
/// use attention_geometry::projection::symmetric_share;
/// use nalgebra::dmatrix;
/// let (a, b) = (dmatrix![1.0; 2.0; 0.0], dmatrix![0.5; -1.0; 3.0]);
/// assert!((low_rank_share(&a, &b) - symmetric_share(&(&a * b.transpose()))).abs() < 1e-15);
/// ```
pub fn low_rank_share(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    assert_eq!(
        a.shape(),
        b.shape(),
        "low_rank_share: a {:?} and b {:?} differ",
        a.shape(),
        b.shape()
    );
    // c = bᵀa (r, r); tr(c c) = Σ c ∘ cᵀ
    let c = b.transpose() * a;
    let tr_m2 = c.component_mul(&c.transpose()).sum();
    // tr(X Y) = Σ X ∘ Y for symmetric X, Y
    let norm2 = (a.transpose() * a)
        .component_mul(&(b.transpose() * b))
        .sum();
    0.5 * (1.0 + tr_m2 / norm2)
}

/// Saponati et al.'s symmetry score of one matrix,
/// `s = (‖S‖²_F − ‖N‖²_F) / ‖M‖²_F = 2·share − 1` with `M = S + N` split into
/// symmetric and skew parts: 1 symmetric, −1 skew, about `1/d` for a random `M`.
///
/// ```
/// use attention_geometry::pretrained::geometry::symmetry_score;
/// use nalgebra::dmatrix;
/// // ‖M‖² = 3, ‖S‖² = 2.5, ‖N‖² = 0.5
/// assert!((symmetry_score(&dmatrix![1.0, 1.0; 0.0, 1.0]) - 2.0 / 3.0).abs() < 1e-15);
/// ```
pub fn symmetry_score(m: &DMatrix<f64>) -> f64 {
    2.0 * symmetric_share(m) - 1.0
}

/// Saponati et al.'s score of a layer, `2·share − 1` of the summed form
/// `M = Σ_h W_Q^h W_K^{g(h)ᵀ} = Σ_g (Σ_{h ∈ g} W_Q^h) W_K^gᵀ`, for query heads
/// `w_q` read in groups of `w_q.len() / w_k.len()` by the key heads `w_k`
/// (one group per head when there are as many key heads as query heads).
///
/// # Shapes
/// Every head `(d, r)`.
///
/// # Panics
/// If `w_k` is empty, does not divide `w_q`, or the shapes differ.
///
/// ```
/// use attention_geometry::pretrained::geometry::{layer_symmetry_score, symmetry_score};
/// use attention_geometry::random::{gaussian, seeded};
/// let mut rng = seeded(2);
/// let w_q: Vec<_> = (0..4).map(|_| gaussian(&mut rng, 10, 2, 1.0)).collect();
/// let w_k: Vec<_> = (0..2).map(|_| gaussian(&mut rng, 10, 2, 1.0)).collect();
/// let m = (0..4).fold(nalgebra::DMatrix::zeros(10, 10), |m, h| m + &w_q[h] * w_k[h / 2].transpose());
/// assert!((layer_symmetry_score(&w_q, &w_k) - symmetry_score(&m)).abs() < 1e-12);
/// ```
pub fn layer_symmetry_score(w_q: &[DMatrix<f64>], w_k: &[DMatrix<f64>]) -> f64 {
    assert!(
        !w_k.is_empty() && w_q.len().is_multiple_of(w_k.len()),
        "layer_symmetry_score: {} query heads cannot share {} key heads",
        w_q.len(),
        w_k.len()
    );
    let group = w_q.len() / w_k.len();
    let (d, r) = w_k[0].shape();
    // a = [Σ_{h ∈ g} W_Q^h]_g, b = [W_K^g]_g: (d, n_kv · r), M = a bᵀ
    let mut a = DMatrix::zeros(d, w_k.len() * r);
    let mut b = DMatrix::zeros(d, w_k.len() * r);
    for (g, k) in w_k.iter().enumerate() {
        b.columns_mut(g * r, r).copy_from(k);
        for q in &w_q[g * group..(g + 1) * group] {
            let mut block = a.columns_mut(g * r, r);
            block += q;
        }
    }
    2.0 * low_rank_share(&a, &b) - 1.0
}

/// The reference: [`head_geometry`] from the full `(d, d)` spectrum.
pub fn head_geometry_dense(w_q: &DMatrix<f64>, w_k: &DMatrix<f64>) -> HeadGeometry {
    let w_qk = w_q * w_k.transpose();
    let e = symmetric_spectrum(&w_qk);
    let scale = e.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    HeadGeometry {
        symmetric_share: symmetric_share(&w_qk),
        negative_mass: negative_mass(&e),
        negative_count: e.iter().filter(|&&x| x < -1e-9 * scale).count(),
    }
}
