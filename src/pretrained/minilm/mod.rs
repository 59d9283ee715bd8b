//! all-MiniLM-L6-v2: the sentence-transformers BERT encoder, loaded from
//! `models/minilm/`, with its tokenizer and a forward pass that records every head.
//!
//! Post-LayerNorm BERT: 6 layers, 12 heads of width 32, d = 384, FFN 1536, 512
//! positions, an uncased WordPiece vocabulary of 30,522. [`weights`] holds the
//! matrices (fields named for the checkpoint's keys, (out, in) layout), [`forward`]
//! the pass. It matches Hugging Face `BertModel` run on the original float32 weights
//! to within the float16 rounding of the extract (`tests/models/minilm.rs`).
//!
//! ```
//! use attention_geometry::pretrained::minilm::Minilm;
//! let m = Minilm::shared();
//! let ids = m.tokenizer.encode("Attention is all you need.").ids;
//! let trace = m.run(&ids);
//! let w = &trace.layers[5].heads[0].weights; // (n, n), layer 5, head 0
//! assert_eq!(w.shape(), (ids.len(), ids.len()));
//! assert!((w.row(0).sum() - 1.0).abs() < 1e-12);
//! let e = m.sentence_embedding("Attention is all you need.").unwrap();
//! assert!((e.norm() - 1.0).abs() < 1e-12);
//! ```
//!
//! Introduced in chapter 1.

pub mod forward;
pub mod repair;
mod transformer;
pub mod weights;

use std::path::Path;
use std::sync::OnceLock;

pub use super::trace::{HeadTrace, LayerTrace, Trace};
pub use forward::gelu;
pub use weights::{Layer, Weights};

use super::checksum::{LoadError, read_verified};
use super::wordpiece::{Encoding, WordPiece};

/// Width of the hidden states, `hidden_size`.
pub const D: usize = 384;
/// Heads per layer, `num_attention_heads`.
pub const HEADS: usize = 12;
/// Width of one head, `D / HEADS`.
pub const D_K: usize = 32;
/// Transformer blocks, `num_hidden_layers`.
pub const LAYERS: usize = 6;
/// Width of the FFN, `intermediate_size`.
pub const D_FF: usize = 1536;
/// Longest input, `[CLS]` and `[SEP]` included, `max_position_embeddings`.
pub const MAX_POSITIONS: usize = 512;

/// The files of `models/minilm/` the loader reads, each checked against `SHA256SUMS`.
pub const FILES: [&str; 2] = ["model.safetensors", "tokenizer.json"];

/// The encoder and its tokenizer.
#[derive(Clone, Debug)]
pub struct Minilm {
    /// The weights, float16 in the file, `f64` here.
    pub weights: Weights,
    /// The WordPiece tokenizer of `tokenizer.json` (no padding).
    pub tokenizer: WordPiece,
}

/// A text that does not fit in the model's 512 positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLong {
    /// Its number of tokens, `[CLS]` and `[SEP]` included.
    pub tokens: usize,
}

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the text has {} tokens with [CLS] and [SEP]; MiniLM takes at most {MAX_POSITIONS}",
            self.tokens
        )
    }
}

impl Minilm {
    /// Load `models_dir/minilm/`, checking every file's SHA-256 first.
    ///
    /// # Errors
    /// A one-line [`LoadError`] naming the missing, corrupted or malformed file and,
    /// for the first two, its expected checksum.
    pub fn load(models_dir: &Path) -> Result<Self, LoadError> {
        let dir = models_dir.join("minilm");
        let [model, tokenizer] = FILES.map(|name| read_verified(&dir, name));
        let weights = Weights::from_safetensors(&model?, &dir.join(FILES[0]))?;
        let path = dir.join(FILES[1]);
        let text = String::from_utf8(tokenizer?).map_err(|_| LoadError::new(&path, "not UTF-8"))?;
        let tokenizer =
            WordPiece::from_tokenizer_json(&text).map_err(|e| LoadError::new(&path, e))?;
        Ok(Minilm { weights, tokenizer })
    }

    /// The model of the vendored `models/` folder, loaded once per process.
    ///
    /// # Panics
    /// With the [`LoadError`]'s message if the folder is missing or corrupted.
    pub fn shared() -> &'static Minilm {
        static MODEL: OnceLock<Minilm> = OnceLock::new();
        MODEL.get_or_init(|| Minilm::load(&super::models_dir()).unwrap_or_else(|e| panic!("{e}")))
    }

    /// Tokenise `text`, refusing what does not fit in 512 positions.
    ///
    /// # Errors
    /// [`TooLong`] with the token count.
    pub fn encode(&self, text: &str) -> Result<Encoding, TooLong> {
        let e = self.tokenizer.encode(text);
        match e.len() <= MAX_POSITIONS {
            true => Ok(e),
            false => Err(TooLong { tokens: e.len() }),
        }
    }

    /// The full forward pass on token ids.
    ///
    /// # Shapes
    /// `ids: n` (with `[CLS]` and `[SEP]`, n ≤ 512) → a [`Trace`] of 6 layers.
    ///
    /// # Panics
    /// If `n > 512` or an id is outside the vocabulary.
    pub fn run(&self, ids: &[u32]) -> Trace {
        self.run_ablated(ids, &[])
    }

    /// The forward pass with the context of each `(layer, head)` in `ablate` zeroed
    /// before W_O (head ablation).
    ///
    /// # Panics
    /// As [`Minilm::run`], and if an ablated layer or head is out of range.
    pub fn run_ablated(&self, ids: &[u32], ablate: &[(usize, usize)]) -> Trace {
        forward::run_from(&self.weights, 0, forward::embed(&self.weights, ids), ablate)
    }

    /// Run layers `from..6` on `x`, the hidden states entering layer `from` (e.g. a
    /// previous trace's `layers[from].input`, edited).
    ///
    /// # Shapes
    /// `x: (n, 384)` → a [`Trace`] of `6 − from` layers.
    ///
    /// # Panics
    /// If `from > 6` or an ablated layer or head is out of range.
    pub fn run_from(
        &self,
        from: usize,
        x: nalgebra::DMatrix<f64>,
        ablate: &[(usize, usize)],
    ) -> Trace {
        forward::run_from(&self.weights, from, x, ablate)
    }

    /// The sentence-transformers embedding of `text` (mean-pooled, unit length).
    ///
    /// # Errors
    /// [`TooLong`] beyond 512 positions.
    pub fn sentence_embedding(&self, text: &str) -> Result<nalgebra::DVector<f64>, TooLong> {
        Ok(super::corpus::pooled(
            &self.run(&self.encode(text)?.ids).output,
        ))
    }
}
