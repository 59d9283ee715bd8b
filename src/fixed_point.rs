//! Fixed points of a weight-tied attention layer: the iteration
//! `Z_{k+1} = f(Z_k)`, its residual `‖f(Z) − Z‖`, rank collapse, the
//! contraction that makes an input-injected layer converge, the series'
//! Lagrangian, and the Hopfield energy that exists for tied attention.
//!
//! Tokens are rows of `z: (n, d)`; the layer is one [`Head`] with all three
//! projections `(d, d)`, applied again and again with the same weights.
//! Introduced in chapter 5.

use nalgebra::{DMatrix, DVector};

use crate::attention::{Head, Mask, softmax_rows};

/// The three tied-layer maps of chapter 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Pure attention with the tokens as values: `f(Z) = A(Z) Z`.
    Attention,
    /// Residual path and normalisation: `f(Z) = norm(Z + A(Z) Z W_V)`.
    ResidualNorm,
    /// Input injection: `f(Z) = X + γ A(X) Z W_V`, a contraction when `γ ‖W_V‖₂ < 1`.
    Injected,
}

impl Variant {
    /// All three, in the book's order.
    pub const ALL: [Variant; 3] = [Variant::Attention, Variant::ResidualNorm, Variant::Injected];

    /// Name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Attention => "attention",
            Variant::ResidualNorm => "residual_norm",
            Variant::Injected => "injected",
        }
    }
}

/// Centre each row and scale it to norm `√d` (layer normalisation without gain).
///
/// ```
/// use attention_geometry::fixed_point::normalise_rows;
/// use nalgebra::dmatrix;
/// let z = normalise_rows(&dmatrix![1.0, 3.0; 2.0, 2.5]);
/// assert!((z.row(0).norm() - 2f64.sqrt()).abs() < 1e-12 && z.row(1).sum().abs() < 1e-12);
/// ```
pub fn normalise_rows(z: &DMatrix<f64>) -> DMatrix<f64> {
    let d = z.ncols() as f64;
    let mut out = z.clone();
    for mut row in out.row_iter_mut() {
        let mean = row.mean();
        row.add_scalar_mut(-mean);
        // row ← √d · row / ‖row‖ (a zero row stays zero)
        let norm = row.norm();
        if norm > 0.0 {
            row *= d.sqrt() / norm;
        }
    }
    out
}

/// A weight-tied attention layer: one head, applied with the same weights
/// at every iteration; `gamma` scales the injected variant's update.
#[derive(Clone, Debug, PartialEq)]
pub struct TiedLayer {
    pub head: Head,
    pub gamma: f64,
}

impl TiedLayer {
    /// The contraction factor `c = γ ‖W_V‖₂` of the injected variant.
    pub fn contraction(&self) -> f64 {
        self.gamma * self.head.w_v.singular_values().max()
    }

    /// One application `f(Z)` of `variant`; `x` is the injected input.
    ///
    /// # Shapes
    /// `z, x: (n, d)` → `(n, d)`.
    ///
    /// # Panics
    /// If `z` and `x` differ in shape.
    ///
    /// ```
    /// use attention_geometry::attention::Head;
    /// use attention_geometry::fixed_point::{TiedLayer, Variant};
    /// use attention_geometry::random::{gaussian, seeded};
    /// let mut rng = seeded(0);
    /// let layer = TiedLayer { head: Head::random(&mut rng, 4, 4, 4), gamma: 0.0 };
    /// let x = gaussian(&mut rng, 3, 4, 1.0);
    /// // with γ = 0 the injected layer maps everything to its input
    /// assert_eq!(layer.apply(Variant::Injected, &gaussian(&mut rng, 3, 4, 1.0), &x), x);
    /// ```
    pub fn apply(&self, variant: Variant, z: &DMatrix<f64>, x: &DMatrix<f64>) -> DMatrix<f64> {
        assert_eq!(
            z.shape(),
            x.shape(),
            "TiedLayer::apply: z is {:?} but x is {:?}",
            z.shape(),
            x.shape()
        );
        match variant {
            // A(Z) Z
            Variant::Attention => self.head.forward(z, Mask::Full).weights * z,
            // norm(Z + A(Z) Z W_V)
            Variant::ResidualNorm => normalise_rows(&(z + self.head.forward(z, Mask::Full).output)),
            // X + γ A(X) Z W_V
            Variant::Injected => {
                x + self.head.forward(x, Mask::Full).weights * z * &self.head.w_v * self.gamma
            }
        }
    }

    /// Iterate `Z_{k+1} = f(Z_k)` from `Z_0 = x` for `steps` steps; returns
    /// every iterate `Z_0 … Z_steps`.
    pub fn iterate(&self, variant: Variant, x: &DMatrix<f64>, steps: usize) -> Vec<DMatrix<f64>> {
        let mut zs = vec![x.clone()];
        for _ in 0..steps {
            let next = self.apply(variant, zs.last().expect("starts with x"), x);
            zs.push(next);
        }
        zs
    }
}

/// Relative fixed-point residual `‖f(Z) − Z‖_F / ‖Z‖_F`.
///
/// ```
/// use attention_geometry::fixed_point::residual;
/// use nalgebra::dmatrix;
/// // f(Z) − Z = (3, −1): √10 / 5
/// assert!((residual(&dmatrix![3.0, 4.0], &dmatrix![0.0, 5.0]) - 10f64.sqrt() / 5.0).abs() < 1e-15);
/// ```
pub fn residual(f_z: &DMatrix<f64>, z: &DMatrix<f64>) -> f64 {
    (f_z - z).norm() / z.norm()
}

/// Relative distance from rank one, `‖Z − 1 z̄ᵀ‖_F / ‖Z‖_F` with `z̄` the
/// mean row: 0 when every token holds the same state (rank collapse).
///
/// ```
/// use attention_geometry::fixed_point::collapse;
/// use nalgebra::dmatrix;
/// assert_eq!(collapse(&dmatrix![1.0, 2.0; 1.0, 2.0]), 0.0);
/// assert!(collapse(&dmatrix![1.0, 0.0; -1.0, 0.0]) > 0.99);
/// ```
pub fn collapse(z: &DMatrix<f64>) -> f64 {
    let mean = z.row_mean();
    let mut centred = z.clone();
    for mut row in centred.row_iter_mut() {
        row -= &mean;
    }
    centred.norm() / z.norm()
}

/// The series' Lagrangian for one tied layer on a data set:
///
/// ```text
/// L(θ, λ) = E_x ‖f_θ(x) − x‖²_F + λ g(θ),   g(θ) = max(0, γ ‖W_V‖₂ − 1)²
/// ```
///
/// The first term is a data-level fixed-point residual (`f(x) ≈ x` on the
/// data); `g` is the architectural constraint the injected variant needs to
/// be a contraction. Returns `(E‖f(x) − x‖², g(θ), L)`.
///
/// # Panics
/// If `data` is empty.
///
/// ```
/// use attention_geometry::attention::Head;
/// use attention_geometry::fixed_point::{lagrangian, TiedLayer, Variant};
/// use attention_geometry::random::{gaussian, seeded};
/// let mut rng = seeded(2);
/// let head = Head::random(&mut rng, 4, 4, 4);
/// let gamma = 3.0 / head.w_v.singular_values().max(); // c = 3 breaks the constraint
/// let data = [gaussian(&mut rng, 3, 4, 1.0)];
/// let (fit, g, l) = lagrangian(&TiedLayer { head, gamma }, Variant::Injected, &data, 0.5);
/// assert!((g - 4.0).abs() < 1e-9 && (l - fit - 2.0).abs() < 1e-9);
/// ```
pub fn lagrangian(
    layer: &TiedLayer,
    variant: Variant,
    data: &[DMatrix<f64>],
    lambda: f64,
) -> (f64, f64, f64) {
    assert!(!data.is_empty(), "lagrangian: no data");
    let fit = data
        .iter()
        .map(|x| (layer.apply(variant, x, x) - x).norm_squared())
        .sum::<f64>()
        / data.len() as f64;
    let g = (layer.contraction() - 1.0).max(0.0).powi(2);
    (fit, g, fit + lambda * g)
}

/// The hidden-state fixed point of a Deep Equilibrium layer: iterate
/// `Z ← f(Z; x)` from `Z = x` until `‖f(Z) − Z‖_F / ‖Z‖_F < tol`.
/// Returns `(Z*, steps)`; `steps = max_steps` means it did not get there.
pub fn solve(
    layer: &TiedLayer,
    variant: Variant,
    x: &DMatrix<f64>,
    tol: f64,
    max_steps: usize,
) -> (DMatrix<f64>, usize) {
    let mut z = x.clone();
    for step in 0..max_steps {
        let next = layer.apply(variant, &z, x);
        if residual(&next, &z) < tol {
            return (next, step + 1);
        }
        z = next;
    }
    (z, max_steps)
}

fn check_hopfield_shapes(name: &str, x: &DMatrix<f64>, m: &DMatrix<f64>, xi: &DVector<f64>) {
    assert!(
        x.ncols() == m.nrows() && m.is_square() && xi.len() == m.ncols(),
        "{name}: x is {:?}, m is {:?}, xi has {}; need x: (n, d), m: (d, d), xi: d",
        x.shape(),
        m.shape(),
        xi.len()
    );
}

/// Log-sum-exp, stable for large arguments.
fn log_sum_exp(v: &DVector<f64>) -> f64 {
    let max = v.max();
    max + v.map(|a| (a - max).exp()).sum().ln()
}

/// The Hopfield energy of Ramsauer et al. (2020), generalised to a bilinear
/// form `M`, for stored patterns `x` and a state `ξ` (up to a constant):
///
/// ```text
/// E(ξ) = −β⁻¹ log Σ_i exp(β x_iᵀ M ξ) + ½ ξᵀ M ξ          (M = I: Ramsauer et al.)
/// ```
///
/// For symmetric positive semi-definite `M` (a tied head, `M = W Wᵀ`) the
/// update [`hopfield_update`] never increases it (a concave–convex procedure).
///
/// # Shapes
/// `x: (n, d)`, `m: (d, d)`, `xi: d`.
///
/// # Panics
/// If the shapes disagree.
pub fn hopfield_energy(x: &DMatrix<f64>, m: &DMatrix<f64>, xi: &DVector<f64>, beta: f64) -> f64 {
    check_hopfield_shapes("hopfield_energy", x, m, xi);
    let mx = m * xi;
    -log_sum_exp(&(x * &mx * beta)) / beta + 0.5 * xi.dot(&mx)
}

/// One retrieval step `ξ ← xᵀ softmax(β x M ξ)`: attention of the query `ξ`
/// over keys and values `x`, with scores through `M`.
///
/// ```
/// use attention_geometry::fixed_point::{hopfield_energy, hopfield_update};
/// use nalgebra::{dmatrix, dvector, DMatrix};
/// let x = dmatrix![1.0, 0.0; 0.0, 1.0; -1.0, 0.5];
/// let m = DMatrix::identity(2, 2);
/// let xi = dvector![0.6, 0.2];
/// let next = hopfield_update(&x, &m, &xi, 4.0);
/// assert!(hopfield_energy(&x, &m, &next, 4.0) <= hopfield_energy(&x, &m, &xi, 4.0));
/// ```
pub fn hopfield_update(
    x: &DMatrix<f64>,
    m: &DMatrix<f64>,
    xi: &DVector<f64>,
    beta: f64,
) -> DVector<f64> {
    check_hopfield_shapes("hopfield_update", x, m, xi);
    let logits = (x * (m * xi) * beta).transpose();
    let p = softmax_rows(&DMatrix::from_row_slice(1, logits.len(), logits.as_slice()));
    x.transpose() * p.transpose().column(0)
}
