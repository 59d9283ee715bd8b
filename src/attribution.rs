//! What an attention pattern does and does not say: the weight `α_ij`, the
//! norm of what it carries, the effect of removing a token, swapping the
//! OV part of two heads, and different patterns with the same output.
//!
//! ```text
//! weight        α_ij
//! carried norm  ‖α_ij v_j‖,   v_j = x_j W_V            (Kobayashi et al. 2020)
//! leave-one-out ‖o_i − o_i^(−j)‖ = α_ij ‖v_j − o_i‖ / (1 − α_ij)
//! ```
//! Introduced in chapter 2.

use nalgebra::{DMatrix, DVector};

use crate::attention::{Head, Mask, softmax_rows};

/// The head that places weight like `qk` (its `W_Q`, `W_K`) and carries
/// values like `ov` (its `W_V`): "QK decides where, OV decides what".
///
/// # Panics
/// If the two heads take different input widths.
///
/// ```
/// use attention_geometry::attention::{Head, Mask};
/// use attention_geometry::attribution::swap_ov;
/// use attention_geometry::random::{gaussian, seeded};
/// let mut rng = seeded(0);
/// let (a, b) = (Head::random(&mut rng, 8, 4, 4), Head::random(&mut rng, 8, 4, 4));
/// let x = gaussian(&mut rng, 6, 8, 1.0);
/// let (pa, ps) = (a.forward(&x, Mask::Full), swap_ov(&a, &b).forward(&x, Mask::Full));
/// assert_eq!(pa.weights, ps.weights);
/// assert!((pa.output - ps.output).norm() > 0.1);
/// ```
pub fn swap_ov(qk: &Head, ov: &Head) -> Head {
    assert_eq!(
        qk.w_q.nrows(),
        ov.w_v.nrows(),
        "swap_ov: the QK head takes width {} but the OV head takes width {}",
        qk.w_q.nrows(),
        ov.w_v.nrows()
    );
    Head {
        w_q: qk.w_q.clone(),
        w_k: qk.w_k.clone(),
        w_v: ov.w_v.clone(),
    }
}

/// The norm of what each weight carries, `‖α_ij v_j‖ = α_ij ‖v_j‖`.
///
/// # Shapes
/// `weights: (n, n)`, `v: (n, d_v)` → `(n, n)`.
pub fn carried_norms(weights: &DMatrix<f64>, v: &DMatrix<f64>) -> DMatrix<f64> {
    assert_eq!(
        weights.ncols(),
        v.nrows(),
        "carried_norms: weights {:?} do not match v {:?}",
        weights.shape(),
        v.shape()
    );
    let norms: Vec<f64> = v.row_iter().map(|r| r.norm()).collect();
    DMatrix::from_fn(weights.nrows(), weights.ncols(), |i, j| {
        weights[(i, j)] * norms[j]
    })
}

/// The leave-one-out effect `‖o_i − o_i^(−j)‖`: how far output `i` moves
/// when token `j` is removed from the keys and values (the softmax
/// renormalises over the rest). Entries where `j` is the only visible token
/// are `NaN`.
///
/// # Shapes
/// `x: (n, d)` → `(n, n)`.
///
/// ```
/// use attention_geometry::attention::{Head, Mask};
/// use attention_geometry::attribution::leave_one_out;
/// use attention_geometry::random::{gaussian, seeded};
/// let mut rng = seeded(1);
/// let head = Head::random(&mut rng, 6, 3, 3);
/// let x = gaussian(&mut rng, 5, 6, 1.0);
/// let (pass, loo) = (head.forward(&x, Mask::Full), leave_one_out(&head, &x, Mask::Full));
/// let v = &x * &head.w_v;
/// // the closed form α_ij ‖v_j − o_i‖ / (1 − α_ij)
/// let a = pass.weights[(0, 2)];
/// let closed = a * (v.row(2) - pass.output.row(0)).norm() / (1.0 - a);
/// assert!((loo[(0, 2)] - closed).abs() < 1e-12);
/// ```
pub fn leave_one_out(head: &Head, x: &DMatrix<f64>, mask: Mask) -> DMatrix<f64> {
    let full = head.forward(x, mask).output;
    let v = x * &head.w_v;
    let mut s = head.scores(x);
    mask.apply(&mut s);
    let n = x.nrows();
    let mut effect = DMatrix::from_element(n, n, f64::NAN);
    for j in 0..n {
        // scores with column j removed: rows that then see nothing stay NaN
        let mut sj = s.clone();
        sj.column_mut(j).fill(f64::NEG_INFINITY);
        for i in 0..n {
            let row = DMatrix::from_row_slice(1, n, sj.row(i).transpose().as_slice());
            if row.iter().all(|l| *l == f64::NEG_INFINITY) {
                continue;
            }
            let o = softmax_rows(&row) * &v;
            effect[(i, j)] = (full.row(i) - o.row(0)).norm();
        }
    }
    effect
}

/// A different attention distribution with the same output: `α + tδ`, where
/// `δ` is the part of `e_k − e_top` (moving weight from the heaviest token
/// `top` to the lightest `k`) orthogonal to the rows of `[Vᵀ; 1ᵀ]`, and `t`
/// is the largest step that keeps every weight non-negative.
///
/// ```text
/// Vᵀ δ = 0, 1ᵀ δ = 0  ⇒  (α + tδ)ᵀ V = αᵀ V  and  Σ_j (α + tδ)_j = 1
/// ```
/// Such a `δ ≠ 0` exists when `n > rank V + 1`.
///
/// # Shapes
/// `alpha: (n)`, a distribution; `v: (n, d_v)` → `(n)`.
///
/// # Panics
/// If the shapes disagree or `[Vᵀ; 1ᵀ]` leaves no room (`δ = 0`).
///
/// ```
/// use attention_geometry::attribution::equivalent_weights;
/// use attention_geometry::random::{gaussian, seeded};
/// use nalgebra::DVector;
/// let v = gaussian(&mut seeded(2), 6, 2, 1.0);
/// let alpha = DVector::from_vec(vec![0.4, 0.2, 0.1, 0.1, 0.1, 0.1]);
/// let other = equivalent_weights(&alpha, &v);
/// assert!((other.sum() - 1.0).abs() < 1e-12 && other.min() >= 0.0);
/// assert!((v.transpose() * &other - v.transpose() * &alpha).norm() < 1e-12);
/// assert!((&other - &alpha).abs().sum() > 0.1);
/// ```
pub fn equivalent_weights(alpha: &DVector<f64>, v: &DMatrix<f64>) -> DVector<f64> {
    let n = alpha.len();
    assert_eq!(
        n,
        v.nrows(),
        "equivalent_weights: alpha has {n} entries but v is {:?}",
        v.shape()
    );
    // C = [Vᵀ; 1ᵀ]  (d_v + 1, n); δ = t₀ − C⁺ C t₀ projects t₀ onto ker C
    let mut c = DMatrix::from_element(v.ncols() + 1, n, 1.0);
    c.view_mut((0, 0), (v.ncols(), n)).copy_from(&v.transpose());
    let top = alpha.argmax().0;
    let low = alpha.argmin().0;
    let mut t0 = DVector::zeros(n);
    t0[low] += 1.0;
    t0[top] -= 1.0;
    let pinv = c
        .clone()
        .pseudo_inverse(1e-12)
        .expect("the pseudo-inverse of a finite matrix exists");
    let delta = &t0 - &pinv * (&c * &t0);
    assert!(
        delta.norm() > 1e-9,
        "equivalent_weights: n = {n} tokens leave no null space beside V {:?}",
        v.shape()
    );
    // the largest t with α + tδ ≥ 0
    let t = (0..n)
        .filter(|&j| delta[j] < -1e-15)
        .map(|j| alpha[j] / -delta[j])
        .fold(f64::INFINITY, f64::min);
    let mut out = alpha + delta * t;
    out.apply(|w| *w = w.max(0.0));
    out
}
