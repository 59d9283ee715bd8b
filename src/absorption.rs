//! The successor task: on a cycle of tokens `0 → 1 → ⋯ → n−1 → 0`, each
//! token must read most from its successor. A tied head cannot do it; a
//! second head, a second layer or an untied head can. The value path is the
//! identity throughout, so the relation a model applies to its input is
//! exactly a product of attention matrices and residual mixtures.
//!
//! Tokens are rows of `e: (n, d)`, the whole context. Introduced in chapter 5.

use nalgebra::DMatrix;

use crate::attention::{Head, Mask};
use crate::relation::{compose, residual_mix};
use crate::stats::argmax;

/// Fraction of rows `i` whose largest entry off the diagonal sits at the
/// successor `(i + 1) mod n`.
///
/// ```
/// use attention_geometry::absorption::successor_accuracy;
/// use nalgebra::dmatrix;
/// let shift = dmatrix![0.2, 0.7, 0.1; 0.1, 0.2, 0.7; 0.7, 0.1, 0.2];
/// assert_eq!(successor_accuracy(&shift), 1.0);
/// assert_eq!(successor_accuracy(&shift.transpose()), 0.0);
/// ```
pub fn successor_accuracy(r: &DMatrix<f64>) -> f64 {
    let n = r.nrows();
    let hits = (0..n)
        .filter(|&i| argmax((0..n).filter(|&j| j != i), |j| r[(i, j)]) == Some((i + 1) % n))
        .count();
    hits as f64 / n as f64
}

/// A head whose queries and keys place token `a` at `h_q[a]` and `h_k[a]`:
/// `W = e⁺ h`, scaled so that the scaled score is `s_ab = h_q[a]·h_k[b]`.
/// Values are the tokens themselves (`W_V = I`).
///
/// # Shapes
/// `e: (n, d)` with `n ≤ d` and full row rank, `h_q, h_k: (n, m)`.
///
/// # Panics
/// If the shapes disagree or `e` has no right inverse.
pub fn head_placing(e: &DMatrix<f64>, h_q: &DMatrix<f64>, h_k: &DMatrix<f64>) -> Head {
    assert!(
        h_q.nrows() == e.nrows() && h_q.shape() == h_k.shape() && e.nrows() <= e.ncols(),
        "head_placing: e is {:?}, h_q {:?}, h_k {:?}; need e: (n, d) with n ≤ d and h_q, h_k: (n, m)",
        e.shape(),
        h_q.shape(),
        h_k.shape()
    );
    let pinv = e
        .clone()
        .pseudo_inverse(1e-12)
        .expect("head_placing: no pseudo-inverse");
    // scores divide by √m, so each side carries m^{1/4}
    let scale = (h_q.ncols() as f64).powf(0.25);
    Head {
        w_q: &pinv * h_q * scale,
        w_k: &pinv * h_k * scale,
        w_v: DMatrix::identity(e.ncols(), e.ncols()),
    }
}

/// A tied head (`W_Q = W_K`) placing token `a` at `h[a]`: scores `h_a·h_b`.
pub fn tied_placing(e: &DMatrix<f64>, h: &DMatrix<f64>) -> Head {
    head_placing(e, h, h)
}

/// Ways to build the successor relation on a 3-cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mechanism {
    /// One tied head, the best any tied head can do: tokens 0 and 1 right.
    TiedHead,
    /// The same head with a residual path: `½ I + ½ A`.
    TiedResidual,
    /// Two tied heads in one layer with a residual path: `½ I + ¼ (A + B)`.
    TwoTiedHeads,
    /// Two tied layers with residual paths: `(½ I + ½ B(X_1))(½ I + ½ A(X))`.
    TwoTiedLayers,
    /// One untied head (`W_Q ≠ W_K`).
    UntiedHead,
}

impl Mechanism {
    /// All five, in the book's order.
    pub const ALL: [Mechanism; 5] = [
        Mechanism::TiedHead,
        Mechanism::TiedResidual,
        Mechanism::TwoTiedHeads,
        Mechanism::TwoTiedLayers,
        Mechanism::UntiedHead,
    ];

    /// Name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::TiedHead => "tied_head",
            Mechanism::TiedResidual => "tied_residual",
            Mechanism::TwoTiedHeads => "two_heads",
            Mechanism::TwoTiedLayers => "two_layers",
            Mechanism::UntiedHead => "untied_head",
        }
    }
}

/// Placement of head A: right on tokens 0 and 1; token 2 attends to itself
/// (a large norm `big` makes its row a no-op).
pub fn placement_a(strength: f64, big: f64) -> DMatrix<f64> {
    let s = strength;
    DMatrix::from_row_slice(3, 3, &[s, 0.0, 0.0, s, s, 0.0, 0.0, 2.0 * s, big])
}

/// Placement of head B: right on token 2; tokens 0 and 1 attend to themselves.
pub fn placement_b(strength: f64, big: f64) -> DMatrix<f64> {
    let s = strength;
    DMatrix::from_row_slice(3, 3, &[big, 0.0, s, 0.0, big, 0.0, 0.0, 0.0, s])
}

/// The relation (rows: outputs, columns: input tokens) that `mechanism`,
/// built by hand for the tokens `e`, applies: `output = 2^L · relation · e`.
///
/// # Shapes
/// `e: (3, d)`, `d ≥ 3` → `(3, 3)`.
///
/// # Panics
/// If `e` is not three tokens of width at least 3.
///
/// ```
/// use attention_geometry::absorption::{constructed, successor_accuracy, Mechanism};
/// use attention_geometry::random::{gaussian, seeded};
/// let e = gaussian(&mut seeded(0), 3, 8, 1.0);
/// assert_eq!(successor_accuracy(&constructed(Mechanism::TwoTiedLayers, &e)), 1.0);
/// assert!(successor_accuracy(&constructed(Mechanism::TiedHead, &e)) < 1.0);
/// ```
pub fn constructed(mechanism: Mechanism, e: &DMatrix<f64>) -> DMatrix<f64> {
    assert!(
        e.nrows() == 3 && e.ncols() >= 3,
        "constructed: e is {:?}; need three tokens of width ≥ 3",
        e.shape()
    );
    let (strength, big) = (2.0, 6.0);
    let a = tied_placing(e, &placement_a(strength, big))
        .forward(e, Mask::Full)
        .weights;
    match mechanism {
        Mechanism::TiedHead => a,
        Mechanism::TiedResidual => residual_mix(&a),
        Mechanism::TwoTiedHeads => {
            let b = tied_placing(e, &placement_b(strength, big))
                .forward(e, Mask::Full)
                .weights;
            residual_mix(&((a + b) * 0.5))
        }
        Mechanism::TwoTiedLayers => {
            // X_1 = X + A X, and layer 2 is placed on X_1
            let x1 = e + &a * e;
            let b = tied_placing(&x1, &placement_b(strength, big))
                .forward(&x1, Mask::Full)
                .weights;
            compose(&residual_mix(&b), &residual_mix(&a))
        }
        Mechanism::UntiedHead => {
            let id = DMatrix::identity(3, 3);
            // h_q[a] = s·c_{a+1}, h_k[b] = c_b: the score is s when b = a + 1
            let shift = DMatrix::from_fn(3, 3, |i, j| {
                if j == (i + 1) % 3 {
                    2.0 * strength
                } else {
                    0.0
                }
            });
            head_placing(e, &shift, &id).forward(e, Mask::Full).weights
        }
    }
}
