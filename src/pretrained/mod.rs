//! Pretrained transformers, loaded from the extract vendored in `models/`.
//!
//! [`minilm`] is the sentence-transformers encoder all-MiniLM-L6-v2 (BERT, 6 layers,
//! 12 heads of width 32, d = 384), with its [`wordpiece`] tokenizer and a forward pass
//! that records every head's Q, K, V, scores and attention weights. [`smollm2`] is
//! the decoder SmolLM2-135M-Instruct (Llama: 30 blocks, RoPE, 9 query heads sharing 3
//! key/value heads, d = 576), whole, with its byte-level [`bpe`] tokenizer; its pass
//! records the same per head, before and after the rotation. Weights are read
//! with the `safetensors` crate (MiniLM's float16 converted to `f64` with `half`, in
//! Hugging Face's (out, in) layout; SmolLM2's GGUF blocks dequantised to `f32`, (in, out)); [`checksum`] verifies each file
//! against the folder's `SHA256SUMS` before anything is parsed. `models/README.md`
//! gives provenance, licences and the command that rebuilds the extract.
//!
//! Introduced in chapter 1.

pub mod attention_map;
pub mod bpe;
pub mod checksum;
pub mod corpus;
pub mod counterfactual;
pub mod edits;
pub mod explorer;
pub mod folded;
pub mod geometry;
pub mod heads;
pub mod intervention;
pub mod jacobian;
pub mod minilm;
pub mod next_token;
pub mod paraphrase;
pub mod random_init;
pub mod repair;
pub mod rotary;
pub mod smollm2;
pub mod trace;
pub mod transformer;
pub mod value_zeroing;
pub mod wordpiece;

use std::path::PathBuf;

/// Environment variable that points the loaders at another copy of `models/`.
pub const MODELS_ENV: &str = "ATTENTION_GEOMETRY_MODELS";

/// The `models/` folder: `$ATTENTION_GEOMETRY_MODELS` if set, else the one vendored
/// in this crate.
pub fn models_dir() -> PathBuf {
    match std::env::var_os(MODELS_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models"),
    }
}
