//! SmolLM2-135M-Instruct, whole: a Llama decoder (pre-RMSNorm, RoPE, grouped
//! heads, SwiGLU, tied embeddings) read from the vendored extract
//! `models/smollm2/` (raw GGUF blocks in safetensors), with a forward pass
//! that records every head.
//!
//! 30 blocks, d = 576, 9 query heads of width 64 sharing 3 key/value heads,
//! FFN 1536, vocabulary 49,152. [`quant`] dequantises the GGUF blocks,
//! [`weights`] holds the f32 matrices in the book's `(in, out)` layout
//! (`y = x W`), [`forward`] the pass. [`packed`] keeps the blocks as stored
//! and multiplies a row by them directly: decoding, one token at a time,
//! runs on them ([`SmolLm2::greedy`]), the f32 matrices staying the
//! reference ([`SmolLm2::greedy_reference`]). Conventions, all checked
//! against the reference implementations:
//!
//! - **Grouped heads.** Query head `h` is columns `64h..64h + 64` of W_Q and
//!   reads key/value head `h / 3` (integer division, the reference
//!   `repeat_kv`); pairing `h` with `h mod 3` would be a different, wrong model.
//! - **RoPE order.** llama.cpp's converter permutes the rows of Q and K within
//!   each head (half-split → interleaved pairs), and llama.cpp rotates
//!   adjacent pairs; the book follows it. `(P W_Q^h)ᵀ (P W_K^h) = W_Q^hᵀ W_K^h`,
//!   so W_QK at relative offset 0 is unchanged by the permutation.
//! - **RMSNorm gain.** The gain `g` (ε = 1e-5) multiplies x before both
//!   projections. [`SmolLm2::w_q`] and [`SmolLm2::w_k`] return the weights as
//!   stored, gain not folded in; [`SmolLm2::attn_norm`] returns `g`.
//!
//! ```
//! use attention_geometry::pretrained::smollm2::SmolLm2;
//! let m = SmolLm2::shared();
//! let enc = m.encode("The capital of France is").unwrap();
//! assert_eq!(enc.tokens, ["The", "Ġcapital", "Ġof", "ĠFrance", "Ġis"]);
//! let trace = m.run(&enc.ids);
//! let w = &trace.layers[29].heads[0].weights; // (n, n), causal
//! assert_eq!(w.shape(), (5, 5));
//! assert_eq!(w[(0, 1)], 0.0);
//! assert!((w.row(4).sum() - 1.0).abs() < 1e-6);
//! let next = m.greedy(&enc.ids, 1);
//! assert_eq!(m.tokenizer.decode(&next), " Paris");
//! ```
//!
//! Introduced in chapter 1.

pub mod attention;
pub mod forward;
pub mod linear;
pub mod packed;
pub mod quant;
pub mod random_init;
pub mod repair;
mod transformer;
pub mod weights;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};

pub use super::trace::{HeadTrace, LayerTrace, Trace};
pub use forward::{Cache, Options};
pub use weights::{Block, Config, Weights};

use linear::Linear;
use packed::Packed;

use super::bpe::{Bpe, Encoding};
use super::checksum::{LoadError, read_verified};

/// Blocks (`llama.block_count`; the loader's test checks the extract agrees).
pub const LAYERS: usize = 30;
/// Query heads per block (`llama.attention.head_count`).
pub const HEADS: usize = 9;

/// The longest input the book runs, in tokens (the model was trained on 8192;
/// the book's experiments and the command line stay far below).
pub const MAX_TOKENS: usize = 1024;

/// The extract's folder, `models/smollm2`.
pub fn default_dir() -> PathBuf {
    super::models_dir().join("smollm2")
}

/// The tokenizer's file inside the extract.
pub const TOKENIZER: &str = "tokenizer.json";

/// SmolLM2-135M-Instruct: configuration, weights and tokenizer.
#[derive(Clone, Debug)]
pub struct SmolLm2 {
    pub config: Config,
    /// Every matrix in f32: the prompt pass and every experiment.
    pub weights: Weights,
    /// The GGUF blocks the f32 matrices were dequantised from, if the model
    /// was loaded from them: the decode steps of [`SmolLm2::greedy`].
    pub packed: Option<Weights<Packed>>,
    /// The byte-level BPE of `tokenizer.json`.
    pub tokenizer: Bpe,
}

impl SmolLm2 {
    /// Load and verify `models/smollm2/`.
    ///
    /// # Errors
    /// A one-line [`LoadError`] naming a missing, corrupted or malformed file
    /// (and, for the first two, its expected SHA-256).
    pub fn load() -> Result<SmolLm2, LoadError> {
        SmolLm2::load_from(&default_dir())
    }

    /// The model of the vendored `models/` folder, loaded once per process.
    ///
    /// # Panics
    /// With the [`LoadError`]'s message if the extract is missing or corrupted.
    pub fn shared() -> &'static SmolLm2 {
        static MODEL: OnceLock<SmolLm2> = OnceLock::new();
        MODEL.get_or_init(|| SmolLm2::load().unwrap_or_else(|e| panic!("{e}")))
    }

    /// Load and verify the extract in `dir`.
    pub fn load_from(dir: &Path) -> Result<SmolLm2, LoadError> {
        let packed = Weights::load_packed(dir)?;
        let weights = packed.dequantise();
        let path = dir.join(TOKENIZER);
        let text = String::from_utf8(read_verified(dir, TOKENIZER)?)
            .map_err(|_| LoadError::new(&path, "not UTF-8"))?;
        let tokenizer = Bpe::from_tokenizer_json(&text).map_err(|e| LoadError::new(&path, e))?;
        Ok(SmolLm2 {
            config: weights.config,
            weights,
            packed: Some(packed),
            tokenizer,
        })
    }

    /// Tokenise `text` (no BOS), refusing an empty text and one longer than
    /// [`MAX_TOKENS`].
    ///
    /// # Errors
    /// One line naming the problem and the valid range.
    pub fn encode(&self, text: &str) -> Result<Encoding, String> {
        if text.is_empty() {
            return Err("the text is empty; give a sentence".into());
        }
        let e = self.tokenizer.encode(text);
        self.check_room(e.ids.len())?;
        Ok(e)
    }

    /// Whether `n` tokens fit in what the book runs.
    ///
    /// # Errors
    /// One line with the count and the limit.
    pub fn check_room(&self, n: usize) -> Result<(), String> {
        match n <= MAX_TOKENS {
            true => Ok(()),
            false => Err(format!(
                "{n} tokens; the book runs SmolLM2 on at most {MAX_TOKENS} (prompt and continuation)"
            )),
        }
    }

    /// The full forward pass on token ids, every layer and head recorded.
    ///
    /// # Shapes
    /// `ids: n` (n ≤ [`MAX_TOKENS`]) → a [`Trace`] of 30 layers.
    ///
    /// # Panics
    /// If `n` is 0 or exceeds [`MAX_TOKENS`], or an id is outside the vocabulary.
    pub fn run(&self, ids: &[u32]) -> Trace {
        self.run_ablated(ids, &[])
    }

    /// The forward pass with the context of each `(layer, head)` in `ablate`
    /// zeroed before W_O (head ablation).
    ///
    /// # Panics
    /// As [`SmolLm2::run`], and if an ablated layer or head is out of range.
    pub fn run_ablated(&self, ids: &[u32], ablate: &[(usize, usize)]) -> Trace {
        self.check_length(ids.len());
        self.run_from(0, forward::embed(&self.weights, ids).map(f64::from), ablate)
    }

    /// Run blocks `from..30` on `x`, the stream entering block `from` at
    /// positions `0..n` (e.g. a previous trace's `layers[from].input`, edited).
    ///
    /// # Shapes
    /// `x: (n, 576)` → a [`Trace`] of `30 − from` layers.
    ///
    /// # Panics
    /// If `from > 30` or an ablated layer or head is out of range.
    pub fn run_from(&self, from: usize, x: DMatrix<f64>, ablate: &[(usize, usize)]) -> Trace {
        let mut cache = Cache::new(&self.config);
        let opts = Options {
            ablate,
            record: true,
        };
        let (output, layers) =
            forward::run_from(&self.weights, from, x.map(|v| v as f32), &mut cache, opts);
        Trace {
            layers,
            output: output.map(f64::from),
        }
    }

    /// The stream after the last block for `ids` appended to `cache`, nothing
    /// recorded: the fast path.
    ///
    /// # Shapes
    /// `ids: n` → `(n, 576)`.
    ///
    /// # Panics
    /// If the cache would exceed [`MAX_TOKENS`], or an id is outside the vocabulary.
    pub fn extend(&self, cache: &mut Cache, ids: &[u32]) -> DMatrix<f32> {
        self.check_length(cache.len() + ids.len());
        let x = forward::embed(&self.weights, ids);
        forward::run_from(&self.weights, 0, x, cache, Options::default()).0
    }

    /// Next-token logits at every position of `ids`, `(n, vocab)`.
    pub fn logits(&self, ids: &[u32]) -> DMatrix<f32> {
        let x = self.extend(&mut Cache::new(&self.config), ids);
        forward::logits(&self.weights, &x)
    }

    /// Next-token logits at every position of each of `prompts`, run side by
    /// side in one packed pass ([`forward::run_packed`]): the same rows as
    /// [`SmolLm2::logits`] of each, with the matrix products shared.
    ///
    /// # Panics
    /// If a prompt is empty or longer than [`MAX_TOKENS`].
    pub fn logits_each(&self, prompts: &[&[u32]]) -> Vec<DMatrix<f32>> {
        prompts.iter().for_each(|p| self.check_length(p.len()));
        let lengths: Vec<usize> = prompts.iter().map(|p| p.len()).collect();
        let x = forward::embed(&self.weights, &prompts.concat());
        let all = forward::logits(
            &self.weights,
            &forward::run_packed(&self.weights, x, &lengths),
        );
        let mut start = 0;
        lengths
            .iter()
            .map(|&n| {
                start += n;
                all.rows(start - n, n).into_owned()
            })
            .collect()
    }

    /// Natural-log probabilities of the token after `ids`, `(vocab)`.
    pub fn next_log_probs(&self, ids: &[u32]) -> Vec<f64> {
        let x = self.extend(&mut Cache::new(&self.config), ids);
        let last = x.rows(x.nrows() - 1, 1).into_owned();
        let logits = forward::logits(&self.weights, &last);
        forward::log_softmax(logits.as_slice())
    }

    /// `count` tokens after `ids`, each the argmax of the logits (greedy),
    /// run one position at a time against the cache: the prompt on the f32
    /// matrices, every step after it on the packed blocks if the model has
    /// them ([`SmolLm2::greedy_reference`] otherwise).
    ///
    /// # Panics
    /// If `ids` is empty or the whole would exceed [`MAX_TOKENS`].
    pub fn greedy(&self, ids: &[u32], count: usize) -> Vec<u32> {
        self.greedy_logits(ids, count).0
    }

    /// [`SmolLm2::greedy`]'s tokens and the logits each was chosen from,
    /// `count` rows of `vocab`.
    ///
    /// # Panics
    /// As [`SmolLm2::greedy`].
    pub fn greedy_logits(&self, ids: &[u32], count: usize) -> (Vec<u32>, Vec<Vec<f32>>) {
        match &self.packed {
            Some(packed) => self.continue_on(packed, ids, count),
            None => self.greedy_reference(ids, count),
        }
    }

    /// The readable path of [`SmolLm2::greedy_logits`]: every step on the f32
    /// matrices, reading 4 bytes a weight where the packed steps read 0.6.
    ///
    /// # Panics
    /// As [`SmolLm2::greedy`].
    pub fn greedy_reference(&self, ids: &[u32], count: usize) -> (Vec<u32>, Vec<Vec<f32>>) {
        self.continue_on(&self.weights, ids, count)
    }

    /// Greedy steps on `w` after the prompt's f32 pass.
    fn continue_on<M: Linear>(
        &self,
        w: &Weights<M>,
        ids: &[u32],
        count: usize,
    ) -> (Vec<u32>, Vec<Vec<f32>>) {
        self.check_length(ids.len() + count);
        let mut cache = Cache::new(&self.config);
        let x = self.extend(&mut cache, ids);
        let mut last = x.rows(x.nrows() - 1, 1).into_owned();
        let (mut tokens, mut rows) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for step in 0..count {
            let logits = forward::logits(w, &last).as_slice().to_vec();
            let next = argmax(&logits);
            tokens.push(next);
            rows.push(logits);
            if step + 1 < count {
                let x = forward::embed(w, &[next]);
                last = forward::run_from(w, 0, x, &mut cache, Options::default()).0;
            }
        }
        (tokens, rows)
    }

    fn check_length(&self, n: usize) {
        assert!(
            (1..=MAX_TOKENS).contains(&n),
            "SmolLM2: {n} tokens; the book runs 1..={MAX_TOKENS}"
        );
    }

    /// Query head `h` of layer `l` in the book's notation, `(d_model, head_dim)`:
    /// `q = x w_q` (gain not folded in, GGUF's interleaved RoPE order).
    ///
    /// # Panics
    /// If `l` or `h` is out of range.
    pub fn w_q(&self, l: usize, h: usize) -> DMatrix<f64> {
        assert!(
            h < self.config.n_head,
            "w_q: head {h} not in 0..{}",
            self.config.n_head
        );
        self.head_columns(&self.weights.blocks[l].w_q, h)
    }

    /// The key projection query head `h` of layer `l` reads (key head
    /// [`Config::kv_head`]`(h)`), `(d_model, head_dim)`: `k = x w_k`.
    ///
    /// # Panics
    /// If `l` or `h` is out of range.
    pub fn w_k(&self, l: usize, h: usize) -> DMatrix<f64> {
        assert!(
            h < self.config.n_head,
            "w_k: head {h} not in 0..{}",
            self.config.n_head
        );
        self.head_columns(&self.weights.blocks[l].w_k, self.config.kv_head(h))
    }

    /// Layer `l`'s attention RMSNorm gain, `(d_model)`.
    pub fn attn_norm(&self, l: usize) -> DVector<f64> {
        self.weights.blocks[l].attn_norm.map(f64::from)
    }

    /// Columns `h·head_dim..` of an `(in, out)` weight, `(in, head_dim)`.
    fn head_columns(&self, w: &DMatrix<f32>, h: usize) -> DMatrix<f64> {
        let r = self.config.head_dim;
        w.columns(h * r, r).map(f64::from)
    }
}

/// The index of the largest value (the first of equals).
fn argmax(xs: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &x) in xs.iter().enumerate() {
        if x > xs[best] {
            best = i;
        }
    }
    best as u32
}
