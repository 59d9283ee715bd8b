//! Composites of the layers' relations that do not multiply the sink along
//! every path: rollout with the sink columns removed, and the composite of
//! what each layer carries (Kobayashi et al. 2020–2021).
//!
//! ```text
//! without sinks:  A'[i, j] = A[i, j] / Σ_{k ∉ S} A[i, k]  for j ∉ S, 0 on S
//! carried:        N[i, j] = ‖Σ_h α^h_ij f^h(x_j)‖ + δ_ij ‖x_i‖,  rows normalised
//! composite:      C = N_L ⋯ N_1
//! ```
//!
//! Rollout's `½I + ½A` gives the sink `[CLS]` half of every attention row at
//! every layer, and multiplies it along every path; a sink's value vector is
//! small (chapter 2), so what the layer carries from it is small too.
//! Introduced in chapter 4.

use nalgebra::DMatrix;

use crate::pretrained::trace::LayerTrace;
use crate::pretrained::transformer::Transformer;

/// `a` with the columns `sinks` removed and every row renormalised to sum 1;
/// a row with no weight left (a causal model's first position, which sees
/// only the sink) reads itself, as the residual path does.
///
/// # Shapes
/// `a: (n, n)` → `(n, n)`, zero in the columns `sinks`.
///
/// # Panics
/// If `sinks` holds every column.
pub fn without_sinks(a: &DMatrix<f64>, sinks: &[usize]) -> DMatrix<f64> {
    let n = a.ncols();
    let kept: Vec<usize> = (0..n).filter(|j| !sinks.contains(j)).collect();
    assert!(!kept.is_empty(), "without_sinks: every column is a sink");
    let mut out = DMatrix::zeros(a.nrows(), n);
    for i in 0..a.nrows() {
        let total: f64 = kept.iter().map(|&j| a[(i, j)]).sum();
        if total > 0.0 {
            for &j in &kept {
                out[(i, j)] = a[(i, j)] / total;
            }
        } else {
            out[(i, i)] = 1.0;
        }
    }
    out
}

/// One layer's norm-weighted mixing (Kobayashi et al. 2021's attention plus
/// residual): how much of position `i`'s new stream comes from position `j`.
///
/// ```text
/// N[i, j] = ‖Σ_h α^h_ij f^h(x_j)‖ + δ_ij ‖x_i‖,   f^h(x_j) = v^h_j W_O^h,   rows sum to 1
/// ```
///
/// # Shapes
/// The layer's `n` positions → `(n, n)`.
pub fn carried_mix(m: &dyn Transformer, t: &LayerTrace) -> DMatrix<f64> {
    let n = t.input.nrows();
    let f: Vec<DMatrix<f64>> = t
        .heads
        .iter()
        .enumerate()
        .map(|(h, head)| m.value_out(t.layer, h, &head.v))
        .collect();
    let mut mix = DMatrix::from_fn(n, n, |i, j| {
        // Σ_h α^h_ij f^h(x_j), a row of width d
        let carried = t
            .heads
            .iter()
            .zip(&f)
            .fold(f[0].row(j) * 0.0, |s, (head, fh)| {
                s + fh.row(j) * head.weights[(i, j)]
            });
        carried.norm()
    });
    for i in 0..n {
        mix[(i, i)] += t.input.row(i).norm();
        let total = mix.row(i).sum();
        mix.row_mut(i).unscale_mut(total);
    }
    mix
}
