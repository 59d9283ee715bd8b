//! Attention flow (Abnar & Zuidema 2020): the layers' relations as a graph of
//! capacities, and the most that can flow from an input token to an output token.
//!
//! ```text
//! nodes      (l, i): token i after layer l, l = 0 … L      ((L+1)·n nodes)
//! edges      (l−1, k) → (l, i) with capacity M_l[i, k],  M_l = ½I + ½A_l  (as rollout)
//! flow F[t, j] = max flow from (0, j) to (L, t)           (Edmonds–Karp, shortest paths)
//! ```
//!
//! Rollout multiplies the mixtures along every path; flow lets the path's
//! narrowest edge bound it, so a token that reaches the output along one wide
//! path counts fully. Introduced in chapter 4.

use std::collections::VecDeque;

use nalgebra::DMatrix;

use crate::relation::residual_mix;

/// Residual capacity below which an edge counts as saturated.
const SATURATED: f64 = 1e-12;

/// The flow matrix `F[t, j]`, every output token `t` from every input token `j`.
///
/// # Shapes
/// `layers`: `L` attention matrices `(n, n)`, first layer first → `(n, n)`.
///
/// # Panics
/// If `layers` is empty or a layer is not `(n, n)`.
///
/// ```
/// use attention_geometry::experiment::relations::trained::flow::flow;
/// use nalgebra::dmatrix;
/// // one layer: the flow is the edge's own capacity ½I + ½A
/// let a = dmatrix![0.25, 0.75; 1.0, 0.0];
/// let f = flow(&[a]);
/// assert!((f[(0, 1)] - 0.375).abs() < 1e-12 && (f[(1, 1)] - 0.5).abs() < 1e-12);
/// ```
pub fn flow(layers: &[DMatrix<f64>]) -> DMatrix<f64> {
    assert!(!layers.is_empty(), "flow: no layers");
    let n = layers[0].nrows();
    let caps: Vec<DMatrix<f64>> = layers
        .iter()
        .map(|a| {
            assert_eq!(
                a.shape(),
                (n, n),
                "flow: layer {:?} is not ({n}, {n})",
                a.shape()
            );
            residual_mix(a)
        })
        .collect();
    DMatrix::from_fn(n, n, |t, j| max_flow(&caps, j, t))
}

/// The rows `rows` of [`flow`], `NaN` in every other row (the decoder reads
/// only its last token's row).
///
/// # Shapes
/// As [`flow`].
pub fn flow_rows(layers: &[DMatrix<f64>], rows: &[usize]) -> DMatrix<f64> {
    assert!(!layers.is_empty(), "flow: no layers");
    let n = layers[0].nrows();
    let caps: Vec<DMatrix<f64>> = layers.iter().map(residual_mix).collect();
    DMatrix::from_fn(n, n, |t, j| match rows.contains(&t) {
        true => max_flow(&caps, j, t),
        false => f64::NAN,
    })
}

/// Edmonds–Karp from `(0, source)` to `(L, sink)`; `caps[l − 1][i, k]` is the
/// capacity of `(l−1, k) → (l, i)`.
fn max_flow(caps: &[DMatrix<f64>], source: usize, sink: usize) -> f64 {
    let (layers, n) = (caps.len(), caps[0].nrows());
    // flows[l − 1][i, k] on (l−1, k) → (l, i)
    let mut flows: Vec<DMatrix<f64>> = vec![DMatrix::zeros(n, n); layers];
    let node = |l: usize, i: usize| l * n + i;
    let mut total = 0.0;
    loop {
        // breadth-first search over residual edges: up along spare capacity,
        // down along flow that can be cancelled
        let mut from: Vec<Option<usize>> = vec![None; (layers + 1) * n];
        let start = node(0, source);
        from[start] = Some(start);
        let mut queue = VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            let (l, k) = (v / n, v % n);
            if l < layers {
                for i in 0..n {
                    let u = node(l + 1, i);
                    if from[u].is_none() && caps[l][(i, k)] - flows[l][(i, k)] > SATURATED {
                        from[u] = Some(v);
                        queue.push_back(u);
                    }
                }
            }
            if l > 0 {
                for i in 0..n {
                    let u = node(l - 1, i);
                    if from[u].is_none() && flows[l - 1][(k, i)] > SATURATED {
                        from[u] = Some(v);
                        queue.push_back(u);
                    }
                }
            }
        }
        let end = node(layers, sink);
        if from[end].is_none() {
            return total;
        }
        // the path's edges (lower node, upper node), and its narrowest residual
        let mut path = Vec::new();
        let mut v = end;
        while v != start {
            let p = from[v].unwrap_or(start);
            path.push((p, v));
            v = p;
        }
        let residual = |&(p, v): &(usize, usize)| {
            let (lp, kp, lv, kv) = (p / n, p % n, v / n, v % n);
            if lv > lp {
                caps[lp][(kv, kp)] - flows[lp][(kv, kp)]
            } else {
                flows[lv][(kp, kv)]
            }
        };
        let push = path.iter().map(residual).fold(f64::INFINITY, f64::min);
        for &(p, v) in &path {
            let (lp, kp, lv, kv) = (p / n, p % n, v / n, v % n);
            if lv > lp {
                flows[lp][(kv, kp)] += push;
            } else {
                flows[lv][(kp, kv)] -= push;
            }
        }
        total += push;
    }
}
