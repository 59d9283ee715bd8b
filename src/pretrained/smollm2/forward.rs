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
//! model (tested with [`rope`]), and mixing the two conventions is a different one.
//! Keys and values of positions already run are kept in a [`Cache`], so a
//! continuation runs one token at a time. The pass is written once over the
//! storage of the weights ([`Linear`]): f32 matrices, or the GGUF blocks of
//! [`super::packed`] for a decode step.
//!
//! Introduced in chapter 1.

use nalgebra::{DMatrix, DVector};

pub use super::attention::{Cache, rope};

use super::attention::{Step, attend};
use super::linear::Linear;
use super::weights::{Block, Config, Weights};
use crate::pretrained::trace::{HeadTrace, LayerTrace};

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

/// [`rms_norm`] in f64, for a stream an experiment changed: `x / √(mean(x²) + ε) ⊙ g`.
///
/// # Shapes
/// `x: (n, d)`, `g: (d)` → `(n, d)`.
pub fn rms_norm_f64(x: &DMatrix<f64>, g: &DVector<f32>, eps: f64) -> DMatrix<f64> {
    let (g, d) = (g.map(f64::from), x.ncols() as f64);
    let mut y = x.clone();
    for mut row in y.row_iter_mut() {
        let s = 1.0 / (row.norm_squared() / d + eps).sqrt();
        row.component_mul_assign(&(g.transpose() * s));
    }
    y
}

/// `z / (1 + e^{−z})`.
pub fn silu(z: f32) -> f32 {
    z / (1.0 + (-z).exp())
}

/// The stream entering block 0: each token's embedding as a row.
///
/// # Shapes
/// `ids: n` → `(n, 576)`.
///
/// # Panics
/// If an id is outside the vocabulary.
pub fn embed<M: Linear>(w: &Weights<M>, ids: &[u32]) -> DMatrix<f32> {
    let vocab = w.embedding.shape().1;
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
pub fn run_from<M: Linear>(
    w: &Weights<M>,
    from: usize,
    x: DMatrix<f32>,
    cache: &mut Cache,
    opts: Options,
) -> (DMatrix<f32>, Vec<LayerTrace>) {
    let n = x.nrows();
    run_segments(w, from, x, std::slice::from_mut(cache), &[n], opts)
}

/// Every block on several sequences side by side (packed): `x` stacks their
/// embeddings, `lengths` says how many rows each has; each attends only to its
/// own positions, numbered from 0, so every row equals its sequence's own pass.
/// The stream after the last block, packed the same way.
///
/// ```text
/// x = [x¹; x²; …]   (Σ nₛ, 576)     projections and FFN: one product over all rows
/// attention         per sequence s: RoPE at positions 0..nₛ, causal within s
/// ```
///
/// # Panics
/// If the lengths do not sum to the rows of `x`.
pub fn run_packed(w: &Weights, x: DMatrix<f32>, lengths: &[usize]) -> DMatrix<f32> {
    assert_eq!(
        lengths.iter().sum::<usize>(),
        x.nrows(),
        "run_packed: lengths {lengths:?} do not sum to {} rows",
        x.nrows()
    );
    let mut caches = vec![Cache::new(&w.config); lengths.len()];
    run_segments(w, 0, x, &mut caches, lengths, Options::default()).0
}

/// Blocks `from..` on sequences packed in `x`, sequence `s` with `lengths[s]`
/// new rows after the positions in `caches[s]`.
fn run_segments<M: Linear>(
    w: &Weights<M>,
    from: usize,
    mut x: DMatrix<f32>,
    caches: &mut [Cache],
    lengths: &[usize],
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
        let step = Step {
            l,
            ablated: &ablated,
            record: opts.record,
        };
        let heads = block_forward(block, c, &mut x, caches, lengths, step);
        if let Some(input) = input {
            traces.push(LayerTrace {
                layer: l,
                input,
                heads,
            });
        }
    }
    for (cache, n) in caches.iter_mut().zip(lengths) {
        cache.len += n;
    }
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
    let step = Step {
        l,
        ablated: &[],
        record: false,
    };
    block_forward(
        &w.blocks[l],
        c,
        &mut y,
        &mut [Cache::new(c)],
        &[x.nrows()],
        step,
    );
    y
}

/// One block on `x` in place, sequence `s` at positions `caches[s].len..` in
/// its `lengths[s]` rows; the heads' traces if recording (one sequence).
fn block_forward<M: Linear>(
    b: &Block<M>,
    c: &Config,
    x: &mut DMatrix<f32>,
    caches: &mut [Cache],
    lengths: &[usize],
    step: Step,
) -> Vec<HeadTrace> {
    assert!(
        !step.record || lengths.len() == 1,
        "block_forward: traces are recorded for one sequence, not {}",
        lengths.len()
    );
    let a = rms_norm(x, &b.attn_norm, c.rms_eps);
    let qkv = [b.w_q.project(&a), b.w_k.project(&a), b.w_v.project(&a)];
    let mut context = DMatrix::zeros(x.nrows(), c.n_head * c.head_dim);
    let (mut heads, mut start) = (Vec::new(), 0);
    for (cache, &n) in caches.iter_mut().zip(lengths) {
        let [q, k, v] = qkv.each_ref().map(|m| m.rows(start, n).into_owned());
        let (out, h) = attend(c, cache, &q, &k, &v, step);
        context.rows_mut(start, n).copy_from(&out);
        heads = h;
        start += n;
    }
    *x += b.w_o.project(&context);
    let f = rms_norm(x, &b.ffn_norm, c.rms_eps);
    let mut gate = b.w_gate.project(&f);
    gate.zip_apply(&b.w_up.project(&f), |g, u| *g = silu(*g) * u);
    *x += b.w_down.project(&gate);
    heads
}

/// Logits of each row of the stream: `(rms(x) ⊙ g_out) · embedding`.
///
/// # Shapes
/// `x: (n, 576)` → `(n, vocab)`.
pub fn logits<M: Linear>(w: &Weights<M>, x: &DMatrix<f32>) -> DMatrix<f32> {
    w.embedding
        .project(&rms_norm(x, &w.output_norm, w.config.rms_eps))
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
