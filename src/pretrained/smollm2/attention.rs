//! One sequence's causal attention in a decoder block: rotary positions on
//! queries and keys, the keys and values of earlier positions kept in a
//! [`Cache`], grouped heads reading shared keys and values.
//!
//! ```text
//! q̃, k̃ = RoPE(q), RoPE(k): pair (2i, 2i+1) of each head at position p
//!        rotated by p · θ^(−2i/r)
//! scores_h = q̃_h K̃_gᵀ / √r, −∞ where key j > query i;  weights_h = softmax_rows
//! context  = [weights_1 V_1 | … | weights_H V_H]          g = kv_head(h)
//! ```
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use super::weights::Config;
use crate::pretrained::trace::HeadTrace;

/// Keys (after RoPE) and values of every position run so far, per layer.
#[derive(Clone, Debug)]
pub struct Cache {
    /// `(T, 192)` per layer.
    k: Vec<DMatrix<f32>>,
    /// `(T, 192)` per layer.
    v: Vec<DMatrix<f32>>,
    /// Positions run so far, `T`.
    pub len: usize,
}

impl Cache {
    /// An empty cache for `c`'s layers.
    pub fn new(c: &Config) -> Cache {
        let empty = DMatrix::zeros(0, c.n_head_kv * c.head_dim);
        Cache {
            k: vec![empty.clone(); c.n_layer],
            v: vec![empty; c.n_layer],
            len: 0,
        }
    }

    /// Positions run so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no position has been run.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cache of the first `len` positions only: what a pass over them
    /// alone would have left (a causal model's earlier positions do not see
    /// later ones).
    ///
    /// # Panics
    /// If `len` exceeds the positions run.
    pub fn truncated(&self, len: usize) -> Cache {
        assert!(
            len <= self.len,
            "truncated: {len} > {} positions run",
            self.len
        );
        let first = |m: &Vec<DMatrix<f32>>| m.iter().map(|x| x.rows(0, len).into_owned()).collect();
        Cache {
            k: first(&self.k),
            v: first(&self.v),
            len,
        }
    }
}

/// RoPE on GGUF's layout: in each head of width `r`, the pair `(2i, 2i+1)` of
/// the row at position `p0 + row` turns by the angle `p · θ^(−2i/r)`.
///
/// # Shapes
/// `x: (n, heads · r)`, rotated in place.
pub fn rope(x: &mut DMatrix<f32>, p0: usize, r: usize, theta: f64) {
    for i in 0..r / 2 {
        let freq = theta.powf(-2.0 * i as f64 / r as f64);
        for row in 0..x.nrows() {
            let (sin, cos) = (((p0 + row) as f64) * freq).sin_cos();
            let (sin, cos) = (sin as f32, cos as f32);
            for head in 0..x.ncols() / r {
                let (a, b) = (head * r + 2 * i, head * r + 2 * i + 1);
                let (x0, x1) = (x[(row, a)], x[(row, b)]);
                x[(row, a)] = x0 * cos - x1 * sin;
                x[(row, b)] = x0 * sin + x1 * cos;
            }
        }
    }
}

/// Softmax of each row in place; `−∞` entries get weight 0.
fn softmax_rows(s: &mut DMatrix<f32>) {
    for mut row in s.row_iter_mut() {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        row.apply(|v| *v = (*v - max).exp());
        let z: f32 = row.iter().sum();
        row /= z;
    }
}

/// Which block a pass is in, which of its heads are ablated, and whether
/// to record them.
#[derive(Clone, Copy)]
pub struct Step<'a> {
    pub l: usize,
    pub ablated: &'a [usize],
    pub record: bool,
}

/// One sequence's attention in block `step.l`: its `n` new positions'
/// `q, k, v` `(n, 576), (n, 192), (n, 192)` against the keys and values in
/// `cache` (extended here); the context `(n, 576)` before W_o and, if
/// recording, the heads' traces.
pub fn attend(
    c: &Config,
    cache: &mut Cache,
    q: &DMatrix<f32>,
    k: &DMatrix<f32>,
    v: &DMatrix<f32>,
    step: Step,
) -> (DMatrix<f32>, Vec<HeadTrace>) {
    let (r, p0, n, l) = (c.head_dim, cache.len, q.nrows(), step.l);
    let (mut q_rot, mut k_rot) = (q.clone(), k.clone());
    rope(&mut q_rot, p0, r, c.rope_theta);
    rope(&mut k_rot, p0, r, c.rope_theta);
    append(&mut cache.k[l], &k_rot);
    append(&mut cache.v[l], v);
    let (keys, values) = (&cache.k[l], &cache.v[l]);
    let scale = 1.0 / (r as f32).sqrt();
    if n == 1 && !step.record {
        return (one_query(c, &q_rot, keys, values, step), Vec::new());
    }
    let mut context = DMatrix::zeros(n, c.n_head * r);
    let mut heads = Vec::new();
    for h in 0..c.n_head {
        let g = c.kv_head(h);
        // (n, T): query i sits at position p0 + i and sees keys 0..=p0 + i
        let mut s = q_rot.columns(h * r, r) * keys.columns(g * r, r).transpose() * scale;
        for i in 0..n {
            for j in p0 + i + 1..s.ncols() {
                s[(i, j)] = f32::NEG_INFINITY;
            }
        }
        let mut weights = s.clone();
        softmax_rows(&mut weights);
        if !step.ablated.contains(&h) {
            context
                .columns_mut(h * r, r)
                .copy_from(&(&weights * values.columns(g * r, r)));
        }
        if step.record {
            let f = |m: nalgebra::DMatrixView<f32>| m.map(f64::from);
            heads.push(HeadTrace {
                q: f(q.columns(h * r, r)),
                k: f(k.columns(g * r, r)),
                q_rot: f(q_rot.columns(h * r, r)),
                k_rot: f(k_rot.columns(g * r, r)),
                v: f(v.columns(g * r, r)),
                scores: s.map(f64::from),
                weights: weights.map(f64::from),
            });
        }
    }
    (context, heads)
}

/// [`attend`]'s context for one new position that sees every cached key,
/// nothing recorded (a decode step), summed in the order nalgebra's product
/// of a single row sums, so bit for bit the same:
///
/// ```text
/// s_j = ((q_0 K_j0 + q_1 K_j1) + …) · scale       K's column k is contiguous in j
/// o_c = (w_0 V_0c + w_1 V_1c) + …                  V's column c is contiguous in t
/// ```
///
/// Each sum runs across many `j` (or `c`) at once instead of one
/// `(1, 64) × (64, T)` product at a time.
fn one_query(
    c: &Config,
    q: &DMatrix<f32>,
    keys: &DMatrix<f32>,
    values: &DMatrix<f32>,
    step: Step,
) -> DMatrix<f32> {
    let (r, t) = (c.head_dim, keys.nrows());
    let scale = 1.0 / (r as f32).sqrt();
    // column-major (T, 192): column i is entries i·T..(i + 1)·T
    let (keys, values) = (keys.as_slice(), values.as_slice());
    let column = |i: usize| i * t..(i + 1) * t;
    let mut context = DMatrix::zeros(1, c.n_head * r);
    for h in (0..c.n_head).filter(|h| !step.ablated.contains(h)) {
        let g = c.kv_head(h);
        // −0 + x = x for every x, so −0 starts a sum exactly where its first term would
        let mut s = vec![-0.0f32; t];
        for k in 0..r {
            let qk = q[(0, h * r + k)];
            for (s, key) in s.iter_mut().zip(&keys[column(g * r + k)]) {
                *s += qk * key;
            }
        }
        let mut weights = DMatrix::from_row_slice(1, t, &s) * scale;
        softmax_rows(&mut weights);
        // eight value columns at a time, each summed over t in order
        for c0 in (0..r).step_by(LANES) {
            let v: [&[f32]; LANES] = std::array::from_fn(|i| &values[column(g * r + c0 + i)]);
            let mut o = [-0.0f32; LANES];
            for (j, w) in weights.iter().enumerate() {
                for i in 0..LANES {
                    o[i] += w * v[i][j];
                }
            }
            for (i, o) in o.into_iter().enumerate() {
                context[(0, h * r + c0 + i)] = o;
            }
        }
    }
    context
}

/// Value columns summed side by side in [`one_query`] (divides the head width).
const LANES: usize = 8;

/// Append `rows` below `m`.
fn append(m: &mut DMatrix<f32>, rows: &DMatrix<f32>) {
    let t = m.nrows();
    let mut grown =
        std::mem::replace(m, DMatrix::zeros(0, 0)).resize_vertically(t + rows.nrows(), 0.0);
    grown.rows_mut(t, rows.nrows()).copy_from(rows);
    *m = grown;
}
