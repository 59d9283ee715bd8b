//! Linearisations of a layer stack at a clean input: Jacobian-vector products
//! by finite differences, composed along depth by the chain rule.
//!
//! ```text
//! J_l v      ≈ (f_l(h_l + ε v̂) − f_l(h_l)) · ‖v‖ / ε,   v̂ = v / ‖v‖   (one copy, forward difference)
//! composite  u_0 = v,  u_{l+1} = J_l u_l        = J_L ⋯ J_1 v   (every J_l at the clean h_l)
//! ```
//!
//! Linear maps compose, so the composite is the stack's own linearisation
//! (the chain rule); how far it is from the stack's response to a finite
//! change `v` measures how non-linear the stack is at that scale. Each
//! direction is a copy of the `n`-token input, stacked as in
//! [`intervention`](super::intervention). Introduced in chapter 4.

use nalgebra::DMatrix;

use super::intervention::layer_parts;
use super::minilm::Weights;

/// Step of the forward difference, relative to the direction's norm.
pub const EPS: f64 = 1e-6;

/// `J_f(x) v` for each of the `b` stacked directions, by a forward difference
/// of the stacked map `f` (which must treat every `n`-row copy on its own).
///
/// ```text
/// (f(x + ε v̂) − f(x)) · ‖v‖ / ε   per copy
/// ```
///
/// # Shapes
/// `fx`: `f(x)`, `(n, d_out)`; `x: (n, d)`; `v: (b·n, d)` → `(b·n, d_out)`.
///
/// # Panics
/// If `v`'s rows are not a multiple of `x`'s.
///
/// ```
/// use attention_geometry::pretrained::jacobian::jvp;
/// use nalgebra::dmatrix;
/// let a = dmatrix![2.0, 1.0; 0.0, 3.0];
/// let f = |x: &nalgebra::DMatrix<f64>| x * &a;
/// let x = dmatrix![1.0, 1.0];
/// let v = dmatrix![1.0, 0.0; 0.0, 2.0];
/// let jv = jvp(&f, &x, &f(&x), &v);
/// assert!((jv - &v * &a).norm() < 1e-8);
/// ```
pub fn jvp(
    f: &impl Fn(&DMatrix<f64>) -> DMatrix<f64>,
    x: &DMatrix<f64>,
    fx: &DMatrix<f64>,
    v: &DMatrix<f64>,
) -> DMatrix<f64> {
    let n = x.nrows();
    assert!(
        n > 0 && v.nrows().is_multiple_of(n),
        "jvp: {} direction rows are not copies of {n} tokens",
        v.nrows()
    );
    let b = v.nrows() / n;
    let norms: Vec<f64> = (0..b).map(|c| v.rows(c * n, n).norm()).collect();
    // x + ε v̂, copy by copy
    let mut moved = DMatrix::zeros(b * n, x.ncols());
    for (c, &s) in norms.iter().enumerate() {
        let step = if s > 0.0 { EPS / s } else { 0.0 };
        moved
            .rows_mut(c * n, n)
            .copy_from(&(x + v.rows(c * n, n) * step));
    }
    let mut out = f(&moved);
    for (c, &s) in norms.iter().enumerate() {
        let mut block = out.rows_mut(c * n, n);
        block -= fx;
        block *= s / EPS;
    }
    out
}

/// The composite linearisation `J_m ⋯ J_1 v` of layers `0..m` at the clean
/// states, for every depth `m = 1 … L`.
///
/// # Shapes
/// `states`: `h_0 … h_L`, each `(n, 384)`; `v: (b·n, 384)` → `L` matrices `(b·n, 384)`.
///
/// # Panics
/// If `states` does not hold one more state than `w` has layers.
pub fn composed(w: &Weights, states: &[DMatrix<f64>], v: &DMatrix<f64>) -> Vec<DMatrix<f64>> {
    assert_eq!(
        states.len(),
        w.layers.len() + 1,
        "composed: {} states for {} layers",
        states.len(),
        w.layers.len()
    );
    let n = states[0].nrows();
    let mut u = v.clone();
    w.layers
        .iter()
        .enumerate()
        .map(|(l, layer)| {
            let f =
                |x: &DMatrix<f64>| layer_parts(layer, x, n, &vec![vec![]; x.nrows() / n]).output;
            // u_{l+1} = J_l u_l
            u = jvp(&f, &states[l], &states[l + 1], &u);
            u.clone()
        })
        .collect()
}
