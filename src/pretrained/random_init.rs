//! The random-weight baseline: MiniLM's architecture with BERT's initialisation, so that
//! every real-model statistic can be set against what the same network computes untrained.
//!
//! ```text
//! every weight matrix and embedding table   N(0, 0.02²)   (initializer_range = 0.02)
//! every bias                                 0
//! every LayerNorm                            γ = 1, β = 0 (identity after normalising)
//! ```
//!
//! The same [`Weights`] struct the loader fills, drawn from one seed, in the checkpoint's
//! key order (embeddings, then each layer's query, key, value, attention output, FFN).
//! Introduced in chapter 2.

use std::sync::OnceLock;

use nalgebra::DVector;

use super::minilm::weights::{Embeddings, LayerNorm, Linear, Output};
use super::minilm::{D, D_FF, LAYERS, Layer, MAX_POSITIONS, Minilm, Weights};
use crate::random::{Rng, gaussian, seeded};

/// BERT's `initializer_range`: the standard deviation of every initial weight.
pub const INIT_STD: f64 = 0.02;

/// The seed of the book's random-weight baseline.
pub const BASELINE_SEED: u64 = 2;

fn linear(rng: &mut Rng, out: usize, inp: usize) -> Linear {
    Linear {
        weight: gaussian(rng, out, inp, INIT_STD),
        bias: DVector::zeros(out),
    }
}

fn identity_norm() -> LayerNorm {
    LayerNorm {
        weight: DVector::from_element(D, 1.0),
        bias: DVector::zeros(D),
    }
}

fn output(rng: &mut Rng, inp: usize) -> Output {
    Output {
        dense: linear(rng, D, inp),
        layer_norm: identity_norm(),
    }
}

/// MiniLM-shaped weights drawn as BERT initialises them, for a vocabulary of `vocab` ids.
///
/// # Shapes
/// As [`Weights`]: `word_embeddings: (vocab, 384)`, 6 layers of `(384, 384)` attention
/// maps and a `(1536, 384)`, `(384, 1536)` FFN.
///
/// ```
/// use attention_geometry::pretrained::random_init::{INIT_STD, random_weights};
/// let w = random_weights(0, 100);
/// let q = &w.layers[0].query.weight;
/// let sd = (q.iter().map(|x| x * x).sum::<f64>() / q.len() as f64).sqrt();
/// assert!((sd - INIT_STD).abs() < 1e-3);
/// assert_eq!(w.layers[5].output.layer_norm.weight.sum(), 384.0);
/// assert_eq!(random_weights(0, 100).layers[3].key.weight, w.layers[3].key.weight);
/// ```
pub fn random_weights(seed: u64, vocab: usize) -> Weights {
    let mut rng = seeded(seed);
    let embeddings = Embeddings {
        word_embeddings: gaussian(&mut rng, vocab, D, INIT_STD),
        position_embeddings: gaussian(&mut rng, MAX_POSITIONS, D, INIT_STD),
        token_type_embeddings: gaussian(&mut rng, 2, D, INIT_STD),
        layer_norm: identity_norm(),
    };
    let layers = (0..LAYERS)
        .map(|_| Layer {
            query: linear(&mut rng, D, D),
            key: linear(&mut rng, D, D),
            value: linear(&mut rng, D, D),
            attention_output: output(&mut rng, D),
            intermediate: linear(&mut rng, D_FF, D),
            output: output(&mut rng, D_FF),
        })
        .collect();
    Weights { embeddings, layers }
}

/// The random-weight MiniLM of [`BASELINE_SEED`] with the trained model's tokenizer,
/// built once per process.
pub fn baseline() -> &'static Minilm {
    static MODEL: OnceLock<Minilm> = OnceLock::new();
    MODEL.get_or_init(|| {
        let tokenizer = Minilm::shared().tokenizer.clone();
        let weights = random_weights(BASELINE_SEED, tokenizer.vocab_size());
        Minilm { weights, tokenizer }
    })
}
