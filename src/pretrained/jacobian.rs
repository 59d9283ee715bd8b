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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{gaussian, seeded};

    #[test]
    fn on_a_linear_stack_the_composite_is_the_stack_for_any_change() {
        let mut rng = seeded(4);
        let (n, d) = (3, 5);
        // f_l(x) = P_l x W_l: token mixing and a channel map, both linear
        let maps: Vec<(DMatrix<f64>, DMatrix<f64>)> = (0..3)
            .map(|_| (gaussian(&mut rng, n, n, 1.0), gaussian(&mut rng, d, d, 1.0)))
            .collect();
        let stacked = |(p, m): &(DMatrix<f64>, DMatrix<f64>), x: &DMatrix<f64>| {
            let mut y = DMatrix::zeros(x.nrows(), d);
            for c in 0..x.nrows() / n {
                y.rows_mut(c * n, n).copy_from(&(p * x.rows(c * n, n) * m));
            }
            y
        };
        let x = gaussian(&mut rng, n, d, 1.0);
        let v = gaussian(&mut rng, 2 * n, d, 3.0);
        let (mut h, mut u, mut moved) = (x.clone(), v.clone(), DMatrix::zeros(2 * n, d));
        for c in 0..2 {
            moved.rows_mut(c * n, n).copy_from(&(&x + v.rows(c * n, n)));
        }
        for map in &maps {
            let f = |y: &DMatrix<f64>| stacked(map, y);
            let next = f(&h);
            u = jvp(&f, &h, &next, &u);
            (h, moved) = (next, f(&moved));
        }
        // the finite change through the stack, minus the clean output
        for c in 0..2 {
            let exact = moved.rows(c * n, n) - &h;
            let rel = (u.rows(c * n, n) - &exact).norm() / exact.norm();
            assert!(rel < 1e-7, "copy {c}: relative error {rel}");
        }
    }
}
