//! Attention matrices as relations: row-stochastic matrices are the arrows
//! of the category of finite sets and stochastic maps, composed by matrix
//! product; attention rollout composes the layers of a stack; and the delta
//! rule's effective token weights fall outside that category.
//!
//! An arrow `f: X → Y` between finite sets of positions is an `(|X|, |Y|)`
//! matrix whose row `x` is a probability distribution over `Y`. A layer's
//! attention `A (n, n)` is an arrow from the positions after the layer to
//! the positions before it: row `i` says where token `i` reads from.
//! Introduced in chapter 4.

use nalgebra::{DMatrix, Dim, Matrix, RawStorage};

use crate::attention::{Head, Mask, softmax_rows};
use crate::random::{Rng, gaussian, projection};
use crate::stats::argmax;

/// Whether every entry of `m` is `≥ −tol` and every row sums to `1 ± tol`.
///
/// ```
/// use attention_geometry::relation::is_stochastic;
/// use nalgebra::dmatrix;
/// assert!(is_stochastic(&dmatrix![0.25, 0.75; 1.0, 0.0], 1e-12));
/// assert!(!is_stochastic(&dmatrix![1.5, -0.5; 0.0, 1.0], 1e-12));
/// ```
pub fn is_stochastic(m: &DMatrix<f64>, tol: f64) -> bool {
    m.iter().all(|&x| x >= -tol) && m.row_iter().all(|r| (r.sum() - 1.0).abs() <= tol)
}

/// The identity arrow on `n` positions: every token reads only itself.
pub fn identity(n: usize) -> DMatrix<f64> {
    DMatrix::identity(n, n)
}

/// The composite `g ∘ f` of `f: X → Y` and `g: Y → Z`, an arrow `X → Z`.
///
/// ```text
/// (g ∘ f)[x, z] = Σ_y f[x, y] g[y, z],   i.e. the matrix product f g
/// ```
///
/// # Shapes
/// `f: (|X|, |Y|)`, `g: (|Y|, |Z|)` → `(|X|, |Z|)`.
///
/// # Panics
/// If `f`'s codomain is not `g`'s domain.
///
/// ```
/// use attention_geometry::relation::{compose, identity};
/// use nalgebra::dmatrix;
/// let f = dmatrix![0.5, 0.5; 0.0, 1.0];
/// assert_eq!(compose(&f, &identity(2)), f);
/// assert_eq!(compose(&f, &f), dmatrix![0.25, 0.75; 0.0, 1.0]);
/// ```
pub fn compose(f: &DMatrix<f64>, g: &DMatrix<f64>) -> DMatrix<f64> {
    assert_eq!(
        f.ncols(),
        g.nrows(),
        "compose: f is {:?} and g is {:?}; f's codomain must be g's domain",
        f.shape(),
        g.shape()
    );
    f * g
}

/// A random arrow `(n, m)`: `softmax_rows` of N(0, spread²) logits.
/// Larger `spread` gives sharper rows.
///
/// ```
/// use attention_geometry::random::seeded;
/// use attention_geometry::relation::{is_stochastic, random_stochastic};
/// let f = random_stochastic(&mut seeded(0), 3, 4, 2.0);
/// assert_eq!(f.shape(), (3, 4));
/// assert!(is_stochastic(&f, 1e-12));
/// ```
pub fn random_stochastic(rng: &mut Rng, n: usize, m: usize, spread: f64) -> DMatrix<f64> {
    softmax_rows(&gaussian(rng, n, m, spread))
}

/// The residual mixture `½ I + ½ A` that attention rollout uses for one layer.
///
/// # Panics
/// If `a` is not square.
pub fn residual_mix(a: &DMatrix<f64>) -> DMatrix<f64> {
    assert!(
        a.is_square(),
        "residual_mix: attention {:?} is not square",
        a.shape()
    );
    (identity(a.nrows()) + a) * 0.5
}

/// Attention rollout (Abnar & Zuidema 2020): the composite of the layers'
/// residual mixtures, from the last layer's positions back to the inputs.
///
/// ```text
/// R = M_L ⋯ M_2 M_1,   M_l = ½ I + ½ A_l      (A_1 is the first layer)
/// ```
///
/// # Shapes
/// `layers`: `L` matrices `(n, n)`, first layer first → `(n, n)`.
///
/// # Panics
/// If `layers` is empty or the shapes differ.
///
/// ```
/// use attention_geometry::relation::{is_stochastic, rollout};
/// use nalgebra::dmatrix;
/// let shift = dmatrix![0.0, 1.0; 1.0, 0.0];
/// let r = rollout(&[shift.clone(), shift]);
/// assert!(is_stochastic(&r, 1e-12));
/// assert_eq!(r, dmatrix![0.5, 0.5; 0.5, 0.5]);
/// ```
pub fn rollout(layers: &[DMatrix<f64>]) -> DMatrix<f64> {
    let mixes: Vec<DMatrix<f64>> = layers.iter().map(residual_mix).collect();
    chain(&mixes)
}

/// The composite of one arrow per layer, from the last layer's positions
/// back to the inputs; [`rollout`] is the chain of residual mixtures.
///
/// ```text
/// chain(M_1, …, M_L) = M_L ⋯ M_2 M_1
/// ```
///
/// # Shapes
/// `layers`: `L` matrices `(n, n)`, first layer first → `(n, n)`.
///
/// # Panics
/// If `layers` is empty or the shapes differ.
pub fn chain(layers: &[DMatrix<f64>]) -> DMatrix<f64> {
    assert!(!layers.is_empty(), "chain: no layers");
    let n = layers[0].nrows();
    layers.iter().fold(identity(n), |r, m| {
        assert_eq!(
            m.shape(),
            (n, n),
            "chain: layer {:?} differs from ({n}, {n})",
            m.shape()
        );
        // R_l = M_l R_{l−1}
        compose(m, &r)
    })
}

/// Mean total-variation distance between corresponding rows of two
/// arrows (or attention patterns): `(1/n) Σ_i ½ Σ_j |a_ij − b_ij|`, in
/// `[0, 1]` for stochastic rows. One distribution is one row: compare two
/// vectors as `total_variation(&p.transpose(), &q.transpose())`.
///
/// # Shapes
/// `a`, `b`: `(n, m)`, any storage.
///
/// # Panics
/// If the shapes differ.
///
/// ```
/// use attention_geometry::relation::{identity, total_variation};
/// use nalgebra::{dmatrix, dvector};
/// assert_eq!(total_variation(&identity(2), &dmatrix![0.0, 1.0; 1.0, 0.0]), 1.0);
/// assert_eq!(total_variation(&identity(2), &identity(2)), 0.0);
/// let (p, q) = (dvector![0.5, 0.5, 0.0], dvector![0.25, 0.25, 0.5]);
/// assert_eq!(total_variation(&p.transpose(), &q.transpose()), 0.5);
/// ```
pub fn total_variation<R: Dim, C: Dim, S1, S2>(
    a: &Matrix<f64, R, C, S1>,
    b: &Matrix<f64, R, C, S2>,
) -> f64
where
    S1: RawStorage<f64, R, C>,
    S2: RawStorage<f64, R, C>,
{
    assert_eq!(
        a.shape(),
        b.shape(),
        "total_variation: shapes {:?} and {:?} differ",
        a.shape(),
        b.shape()
    );
    // Σ_ij |a_ij − b_ij| in column-major order
    let l1 = a
        .iter()
        .zip(b.iter())
        .fold(0.0, |sum, (x, y)| sum + (x - y).abs());
    l1 / (2.0 * a.nrows() as f64)
}

/// For each row `i`, the column of its largest entry among `cols`.
///
/// # Panics
/// If `cols` is empty.
///
/// ```
/// use attention_geometry::relation::strongest;
/// use nalgebra::dmatrix;
/// let m = dmatrix![0.1, 0.5, 0.4; 0.9, 0.04, 0.06];
/// assert_eq!(strongest(&m, 0..3), vec![1, 0]);
/// assert_eq!(strongest(&m, 1..3), vec![1, 2]);
/// ```
pub fn strongest(m: &DMatrix<f64>, cols: std::ops::Range<usize>) -> Vec<usize> {
    m.row_iter()
        .map(|r| argmax(cols.clone(), |j| r[j]).expect("strongest: empty column range"))
        .collect()
}

/// A stack of single-head attention layers with residual paths and no
/// normalisation: `x_{l+1} = x_l + A_l(x_l) x_l W_V^l`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// One head per layer, each `(d, d)` in all three projections.
    pub heads: Vec<Head>,
}

/// What a stack computes on one input.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Each layer's attention `(n, n)`, first layer first.
    pub weights: Vec<DMatrix<f64>>,
    /// Each layer's input `(n, d)`: `states[0]` is the prompt.
    pub states: Vec<DMatrix<f64>>,
    /// The last layer's output `(n, d)`.
    pub output: DMatrix<f64>,
}

impl Stack {
    /// `layers` heads on width `d` with N(0, 1/d) projections; the query
    /// projection is multiplied by `sharpness` (larger: more peaked attention).
    pub fn random(rng: &mut Rng, layers: usize, d: usize, sharpness: f64) -> Stack {
        let heads = (0..layers)
            .map(|_| Head {
                w_q: projection(rng, d, d) * sharpness,
                w_k: projection(rng, d, d),
                w_v: projection(rng, d, d),
            })
            .collect();
        Stack { heads }
    }

    /// Run the stack (no mask) on `x: (n, d)`.
    ///
    /// ```
    /// use attention_geometry::relation::Stack;
    /// use attention_geometry::random::{gaussian, seeded};
    /// let mut rng = seeded(0);
    /// let stack = Stack::random(&mut rng, 2, 4, 1.0);
    /// let t = stack.forward(&gaussian(&mut rng, 5, 4, 1.0));
    /// assert_eq!((t.weights.len(), t.output.shape()), (2, (5, 4)));
    /// ```
    pub fn forward(&self, x: &DMatrix<f64>) -> Trace {
        let mut states = vec![x.clone()];
        let mut weights = Vec::with_capacity(self.heads.len());
        let mut h = x.clone();
        for head in &self.heads {
            let pass = head.forward(&h, Mask::Full);
            // x_{l+1} = x_l + A_l x_l W_V
            h = &h + &pass.output;
            weights.push(pass.weights);
            states.push(h.clone());
        }
        states.pop();
        Trace {
            weights,
            states,
            output: h,
        }
    }
}

/// Leave-one-out effect of each earlier token on the last token's output:
/// `e_j = ‖y_{n−1}(X) − y_{n−2}(X without row j)‖` for `j < n − 1`.
/// The token is deleted from the prompt, so every layer of the stack runs
/// without it (for one head, see `attribution::leave_one_out`).
///
/// # Shapes
/// `x: (n, d)` → `n − 1` effects.
///
/// # Panics
/// If `x` has fewer than two rows.
///
/// ```
/// use attention_geometry::random::{gaussian, seeded};
/// use attention_geometry::relation::{leave_one_out, Stack};
/// let mut rng = seeded(1);
/// let stack = Stack::random(&mut rng, 2, 4, 1.0);
/// let e = leave_one_out(&stack, &gaussian(&mut rng, 5, 4, 1.0));
/// assert_eq!(e.len(), 4);
/// assert!(e.iter().all(|&v| v > 0.0));
/// ```
pub fn leave_one_out(stack: &Stack, x: &DMatrix<f64>) -> Vec<f64> {
    let n = x.nrows();
    assert!(
        n >= 2,
        "leave_one_out: x is {:?}; need at least two tokens",
        x.shape()
    );
    let full = stack.forward(x).output.row(n - 1).into_owned();
    (0..n - 1)
        .map(|j| {
            let without = x.clone().remove_row(j);
            (&full - stack.forward(&without).output.row(n - 2)).norm()
        })
        .collect()
}
