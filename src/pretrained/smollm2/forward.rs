//! The decoder's forward pass, as llama.cpp computes it, in f32 activations
//! (no 8-bit rounding of activations), recording on request every layer's
//! input and every head's Q, K (before and after RoPE), V, scores and weights.
//!
//! ```text
//! x⁰ = embedding[:, ids]ᵀ                                          (n, 576)
//! per block ℓ, query head h (columns 64h..64h+64), key/value head g = h / 3:
//!   a = rms(x) ⊙ g_attn,    rms(x) = x / √(mean(x²) + 1e-5)   per row
//!   q = a W_q,  k = a W_k,  v = a W_v                   (n, 576), (n, 192), (n, 192)
//!   q̃, k̃ = RoPE(q), RoPE(k): pair (2i, 2i+1) of each head at position p
//!          rotated by p · 100000^(−2i/64)
//!   scores_h = q̃_h k̃_gᵀ / 8, −∞ where key j > query i;  weights_h = softmax_rows
//!   x ← x + [weights_1 v_1 | … | weights_9 v_9] W_o
//!   b = rms(x) ⊙ g_ffn
//!   x ← x + (silu(b W_gate) ⊙ b W_up) W_down,   silu(z) = z / (1 + e^{−z})
//! logits = (rms(x) ⊙ g_out) · embedding                              (n, 49152)
//! ```
//!
//! GGUF's rows of W_q and W_k are in llama.cpp's interleaved order, so RoPE
//! rotates adjacent pairs; Hugging Face's order with `rotate_half` is the same
//! model (tested below), and mixing the two conventions is a different one.
//! Keys and values of positions already run are kept in a [`Cache`], so a
//! continuation runs one token at a time.
//!
//! Introduced in chapter 1.

use nalgebra::{DMatrix, DVector};

use super::linear::project;
use super::weights::{Block, Config, Weights};
use crate::pretrained::trace::{HeadTrace, LayerTrace};

/// Keys (after RoPE) and values of every position run so far, per layer.
#[derive(Clone, Debug)]
pub struct Cache {
    /// `(T, 192)` per layer.
    k: Vec<DMatrix<f32>>,
    /// `(T, 192)` per layer.
    v: Vec<DMatrix<f32>>,
    /// Positions run so far, `T`.
    len: usize,
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

/// What a pass changes and records.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// `(layer, head)` pairs whose context is zeroed before W_o.
    pub ablate: &'a [(usize, usize)],
    /// Whether to record a [`LayerTrace`] per layer.
    pub record: bool,
}

/// Row-wise RMSNorm with gain: `x / √(mean(x²) + ε) ⊙ g`, the mean summed in f64.
///
/// # Shapes
/// `x: (n, d)`, `g: (d)` → `(n, d)`.
pub fn rms_norm(x: &DMatrix<f32>, g: &DVector<f32>, eps: f64) -> DMatrix<f32> {
    let mut y = x.clone();
    for mut row in y.row_iter_mut() {
        let mean = row.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / row.len() as f64;
        let scale = (1.0 / (mean + eps).sqrt()) as f32;
        for (v, g) in row.iter_mut().zip(g.iter()) {
            *v = *v * scale * g;
        }
    }
    y
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

/// `z / (1 + e^{−z})`.
pub fn silu(z: f32) -> f32 {
    z / (1.0 + (-z).exp())
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

/// The stream entering block 0: each token's embedding as a row.
///
/// # Shapes
/// `ids: n` → `(n, 576)`.
///
/// # Panics
/// If an id is outside the vocabulary.
pub fn embed(w: &Weights, ids: &[u32]) -> DMatrix<f32> {
    let vocab = w.embedding.ncols();
    let columns: Vec<_> = ids
        .iter()
        .map(|&t| {
            assert!((t as usize) < vocab, "embed: token {t} not in 0..{vocab}");
            w.embedding.column(t as usize)
        })
        .collect();
    DMatrix::from_columns(&columns).transpose()
}

/// Run blocks `from..` on the stream `x` of the `n` positions after those in
/// `cache` (which the pass extends), returning the stream after the last
/// block and, if `opts.record`, a trace per block.
///
/// # Shapes
/// `x: (n, 576)` → `(n, 576)`.
///
/// # Panics
/// If `from` exceeds the layer count or an ablated pair is out of range.
pub fn run_from(
    w: &Weights,
    from: usize,
    mut x: DMatrix<f32>,
    cache: &mut Cache,
    opts: Options,
) -> (DMatrix<f32>, Vec<LayerTrace>) {
    let c = &w.config;
    assert!(
        from <= c.n_layer,
        "run_from: layer {from} out of range 0..={}",
        c.n_layer
    );
    for &(l, h) in opts.ablate {
        assert!(
            l < c.n_layer && h < c.n_head,
            "ablate: (layer {l}, head {h}) out of range (layers 0..{}, heads 0..{})",
            c.n_layer,
            c.n_head
        );
    }
    let mut traces = Vec::new();
    for (l, block) in w.blocks.iter().enumerate().skip(from) {
        let input = opts.record.then(|| x.map(f64::from));
        let ablated: Vec<usize> = opts
            .ablate
            .iter()
            .filter(|(al, _)| *al == l)
            .map(|(_, h)| *h)
            .collect();
        let heads = block_forward(block, c, &mut x, cache, l, &ablated, opts.record);
        if let Some(input) = input {
            traces.push(LayerTrace {
                layer: l,
                input,
                heads,
            });
        }
    }
    cache.len += x.nrows();
    (x, traces)
}

/// Block `l` alone on the stream `x` of positions `0..n`, nothing recorded:
/// `x + attn(rms(x))`, then `+ ffn(rms(·))`.
///
/// # Shapes
/// `x: (n, 576)` → `(n, 576)`.
///
/// # Panics
/// If `l` is out of range.
pub fn block(w: &Weights, l: usize, x: &DMatrix<f32>) -> DMatrix<f32> {
    let c = &w.config;
    assert!(
        l < c.n_layer,
        "block: layer {l} out of range 0..{}",
        c.n_layer
    );
    let mut y = x.clone();
    block_forward(&w.blocks[l], c, &mut y, &mut Cache::new(c), l, &[], false);
    y
}

/// One block on `x` in place, at positions `cache.len..`; the heads' traces
/// if `record`.
fn block_forward(
    b: &Block,
    c: &Config,
    x: &mut DMatrix<f32>,
    cache: &mut Cache,
    l: usize,
    ablated: &[usize],
    record: bool,
) -> Vec<HeadTrace> {
    let (r, p0, n) = (c.head_dim, cache.len, x.nrows());
    let a = rms_norm(x, &b.attn_norm, c.rms_eps);
    let (q, k, v) = (
        project(&a, &b.w_q),
        project(&a, &b.w_k),
        project(&a, &b.w_v),
    );
    let (mut q_rot, mut k_rot) = (q.clone(), k.clone());
    rope(&mut q_rot, p0, r, c.rope_theta);
    rope(&mut k_rot, p0, r, c.rope_theta);
    append(&mut cache.k[l], &k_rot);
    append(&mut cache.v[l], &v);
    let (keys, values) = (&cache.k[l], &cache.v[l]);
    let scale = 1.0 / (r as f32).sqrt();
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
        if !ablated.contains(&h) {
            context
                .columns_mut(h * r, r)
                .copy_from(&(&weights * values.columns(g * r, r)));
        }
        if record {
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
    *x += project(&context, &b.w_o);
    let f = rms_norm(x, &b.ffn_norm, c.rms_eps);
    let mut gate = project(&f, &b.w_gate);
    gate.zip_apply(&project(&f, &b.w_up), |g, u| *g = silu(*g) * u);
    *x += project(&gate, &b.w_down);
    heads
}

/// Append `rows` below `m`.
fn append(m: &mut DMatrix<f32>, rows: &DMatrix<f32>) {
    let t = m.nrows();
    let mut grown =
        std::mem::replace(m, DMatrix::zeros(0, 0)).resize_vertically(t + rows.nrows(), 0.0);
    grown.rows_mut(t, rows.nrows()).copy_from(rows);
    *m = grown;
}

/// Logits of each row of the stream: `(rms(x) ⊙ g_out) · embedding`.
///
/// # Shapes
/// `x: (n, 576)` → `(n, vocab)`.
pub fn logits(w: &Weights, x: &DMatrix<f32>) -> DMatrix<f32> {
    project(&rms_norm(x, &w.output_norm, w.config.rms_eps), &w.embedding)
}

/// Natural-log softmax of one row of logits, computed in f64.
///
/// ```
/// use attention_geometry::pretrained::smollm2::forward::log_softmax;
/// let lp = log_softmax(&[0.0, 0.0]);
/// assert!((lp[0] - 0.5f64.ln()).abs() < 1e-15);
/// ```
pub fn log_softmax(logits: &[f32]) -> Vec<f64> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let z = logits
        .iter()
        .map(|&l| (l as f64 - max).exp())
        .sum::<f64>()
        .ln()
        + max;
    logits.iter().map(|&l| l as f64 - z).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hugging Face's order: head row i ↦ GGUF row 2i, row i + r/2 ↦ 2i + 1.
    fn to_half_split(x: &DMatrix<f32>, r: usize) -> DMatrix<f32> {
        DMatrix::from_fn(x.nrows(), x.ncols(), |p, col| {
            let (head, i) = (col / r, col % r);
            let src = if i < r / 2 {
                2 * i
            } else {
                2 * (i - r / 2) + 1
            };
            x[(p, head * r + src)]
        })
    }

    /// `rotate_half` RoPE on the half-split order.
    fn rope_half(x: &DMatrix<f32>, r: usize, theta: f64) -> DMatrix<f32> {
        DMatrix::from_fn(x.nrows(), x.ncols(), |p, col| {
            let (head, i) = (col / r, col % r);
            let pair = i % (r / 2);
            let angle = p as f64 * theta.powf(-2.0 * pair as f64 / r as f64);
            let (sin, cos) = (angle.sin() as f32, angle.cos() as f32);
            let lo = x[(p, head * r + pair)];
            let hi = x[(p, head * r + pair + r / 2)];
            if i < r / 2 {
                lo * cos - hi * sin
            } else {
                hi * cos + lo * sin
            }
        })
    }

    #[test]
    fn adjacent_pairs_on_gguf_rows_equal_rotate_half_on_hugging_face_rows() {
        let x = DMatrix::from_fn(7, 128, |i, j| ((i * 31 + j * 17) % 13) as f32 - 6.0);
        let mut gguf = x.clone();
        rope(&mut gguf, 0, 64, 100000.0);
        let hf = rope_half(&to_half_split(&x, 64), 64, 100000.0);
        assert!((to_half_split(&gguf, 64) - &hf).amax() < 1e-4);
        // mixing the conventions is another model
        let mut mixed = to_half_split(&x, 64);
        rope(&mut mixed, 0, 64, 100000.0);
        assert!((mixed - hf).amax() > 1.0);
    }

    #[test]
    fn rope_keeps_norms_and_makes_scores_depend_on_offset_only() {
        let q = DMatrix::from_fn(1, 64, |_, j| (j as f32 * 0.37).sin());
        let k = DMatrix::from_fn(1, 64, |_, j| (j as f32 * 0.11).cos());
        let score = |pq: usize, pk: usize| {
            let (mut a, mut b) = (q.clone(), k.clone());
            rope(&mut a, pq, 64, 100000.0);
            rope(&mut b, pk, 64, 100000.0);
            assert!((a.norm() - q.norm()).abs() < 1e-4);
            a.dot(&b)
        };
        assert!((score(9, 4) - score(105, 100)).abs() < 1e-3);
        assert!((score(9, 4) - score(4, 4)).abs() > 1e-2);
    }

    #[test]
    fn rms_norm_gives_unit_root_mean_square() {
        let x = DMatrix::from_row_slice(2, 2, &[3.0f32, 4.0, 1e-20, 0.0]);
        let y = rms_norm(&x, &DVector::from_element(2, 1.0), 1e-5);
        let rms = (y.row(0).norm_squared() / 2.0).sqrt();
        assert!((rms - 1.0).abs() < 1e-5 && y.iter().all(|v| v.is_finite()));
    }
}
