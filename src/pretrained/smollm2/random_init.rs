//! The decoder's random-weight baseline: SmolLM2's architecture initialised as
//! Hugging Face's `LlamaPreTrainedModel._init_weights` does, so that every
//! decoder statistic can be set against the same network untrained.
//!
//! ```text
//! every Linear and the embedding   N(0, σ²),  σ = initializer_range = 1/24 (SmolLM2's config)
//! every RMSNorm gain               1
//! output matrix                    the embedding (tied)
//! ```
//!
//! The same [`Weights`] the loader fills, drawn from one seed: the embedding,
//! then each block's W_q, W_k, W_v, W_o, W_gate, W_up, W_down.
//!
//! Introduced in chapter 1.

use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};

use super::SmolLm2;
use super::weights::{Block, Config, Weights};
use crate::random::{Rng, gaussian, seeded};

/// SmolLM2-135M's `initializer_range` (its `config.json`: 0.041666…).
pub const INIT_STD: f64 = 1.0 / 24.0;

/// The seed of the book's random-weight decoder.
pub const BASELINE_SEED: u64 = 2;

/// An `(in, out)` matrix of N(0, σ²) entries, drawn in Hugging Face's
/// `(out, in)` order and stored transposed.
fn linear(rng: &mut Rng, inputs: usize, outputs: usize) -> DMatrix<f32> {
    gaussian(rng, outputs, inputs, INIT_STD)
        .transpose()
        .map(|v| v as f32)
}

/// Weights of `c`'s shape drawn as Llama initialises them.
///
/// ```
/// use attention_geometry::pretrained::smollm2::random_init::{INIT_STD, random_weights, tiny};
/// let w = random_weights(&tiny(), 0);
/// let q = &w.blocks[0].w_q;
/// let sd = (q.iter().map(|x| f64::from(x * x)).sum::<f64>() / q.len() as f64).sqrt();
/// assert!((sd - INIT_STD).abs() < 2e-3);
/// assert_eq!(w.blocks[1].ffn_norm.sum(), 64.0);
/// ```
pub fn random_weights(c: &Config, seed: u64) -> Weights {
    let mut rng = seeded(seed);
    let (d, q, kv, ff) = (
        c.d_model,
        c.n_head * c.head_dim,
        c.n_head_kv * c.head_dim,
        c.d_ff,
    );
    // the embedding table is (vocab, d) as Hugging Face draws it; the book keeps columns
    let embedding = linear(&mut rng, c.vocab, d).transpose();
    let ones = || DVector::from_element(d, 1.0f32);
    let blocks = (0..c.n_layer)
        .map(|_| Block {
            w_q: linear(&mut rng, d, q),
            w_k: linear(&mut rng, d, kv),
            w_v: linear(&mut rng, d, kv),
            w_o: linear(&mut rng, q, d),
            w_gate: linear(&mut rng, d, ff),
            w_up: linear(&mut rng, d, ff),
            w_down: linear(&mut rng, ff, d),
            attn_norm: ones(),
            ffn_norm: ones(),
        })
        .collect();
    Weights {
        config: *c,
        embedding,
        output_norm: ones(),
        blocks,
    }
}

/// A two-block decoder of SmolLM2's design at a small size (d = 64, 4 query
/// heads of width 16 sharing 2 key/value heads, FFN 128, vocabulary 100), for
/// examples and tests that need the architecture, not the model.
pub fn tiny() -> Config {
    Config {
        n_layer: 2,
        n_head: 4,
        n_head_kv: 2,
        head_dim: 16,
        d_model: 64,
        d_ff: 128,
        vocab: 100,
        context: 256,
        rope_theta: 100000.0,
        rms_eps: 1e-5,
        bos: 1,
        eos: 2,
    }
}

/// The random-weight decoder of [`BASELINE_SEED`] with the trained model's
/// tokenizer, built once per process.
pub fn baseline() -> &'static SmolLm2 {
    static MODEL: OnceLock<SmolLm2> = OnceLock::new();
    MODEL.get_or_init(|| {
        let trained = SmolLm2::shared();
        SmolLm2 {
            config: trained.config,
            weights: random_weights(&trained.config, BASELINE_SEED),
            packed: None,
            tokenizer: trained.tokenizer.clone(),
        }
    })
}
