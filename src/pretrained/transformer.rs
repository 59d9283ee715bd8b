//! What an experiment needs of a transformer, whichever it is: its tokens,
//! layers and heads, a recorded forward pass, and the interventions (ablate
//! heads, restart from a layer). The encoder MiniLM and the decoder SmolLM2
//! both implement it, so that a real-model experiment is written once and
//! asked of both; where they differ in kind the interface says so.
//!
//! ```text
//!                 MiniLM (BERT)              SmolLM2 (Llama)
//! mask            bidirectional              causal
//! norm            post-LayerNorm             pre-RMSNorm
//! position        added at the embedding     RoPE on q and k
//! sink            [CLS], position 0          the first token, position 0
//! heads           12 of width 32, own K, V   9 of width 64, 3 K/V heads shared
//! ```
//!
//! ```
//! use attention_geometry::pretrained::corpus::Model;
//! use attention_geometry::pretrained::transformer::{Architecture, Mask};
//! for arch in Architecture::ALL {
//!     let m = arch.with(Model::Trained);
//!     let ids = m.encode("The cat sat.").unwrap().ids;
//!     let t = m.run(&ids);
//!     assert_eq!(t.layers.len(), m.layers());
//!     let w = &t.layers[0].heads[m.heads() - 1].weights;
//!     let above = w[(0, 1)]; // the first query on the second key
//!     assert_eq!(above == 0.0, m.mask() == Mask::Causal);
//! }
//! ```
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use super::bpe::Encoding;
use super::corpus::Model;
use super::minilm::Minilm;
use super::smollm2::SmolLm2;
use super::trace::Trace;

/// Which positions a query may attend to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mask {
    /// Every position (an encoder).
    Bidirectional,
    /// Its own and earlier positions (a decoder).
    Causal,
}

/// Where each block normalises the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    /// After each residual addition: the stream itself is normalised (BERT).
    Post,
    /// Before each sublayer, on its input only: the stream is a running sum (Llama).
    Pre,
}

/// A transformer an experiment can run, record and intervene on.
pub trait Transformer: Sync {
    /// The checkpoint's name, as claims' settings cite it.
    fn name(&self) -> &'static str;
    /// Number of blocks.
    fn layers(&self) -> usize;
    /// Query heads per block.
    fn heads(&self) -> usize;
    /// The key/value head query head `h` reads (`h` without grouping).
    fn kv_head(&self, h: usize) -> usize;
    /// Which positions a query sees.
    fn mask(&self) -> Mask;
    /// Where the norm sits.
    fn norm(&self) -> Norm;
    /// The position where idle attention collects: `[CLS]` in the encoder,
    /// the first token in the decoder; position 0 in both.
    fn sink(&self) -> usize {
        0
    }
    /// Tokenise as the model does (`[CLS]`/`[SEP]` added by the encoder, no
    /// BOS by the decoder).
    ///
    /// # Errors
    /// One line naming the problem and the limit.
    fn encode(&self, text: &str) -> Result<Encoding, String>;
    /// The stream entering the first block, `(n, d)`.
    fn embed(&self, ids: &[u32]) -> DMatrix<f64>;
    /// Blocks `from..` on `x`, the stream entering block `from`, with the
    /// context of every `(layer, head)` in `ablate` zeroed before W_O.
    fn run_from(&self, from: usize, x: DMatrix<f64>, ablate: &[(usize, usize)]) -> Trace;
    /// The whole pass with heads ablated.
    fn run_ablated(&self, ids: &[u32], ablate: &[(usize, usize)]) -> Trace {
        self.run_from(0, self.embed(ids), ablate)
    }
    /// The whole pass, every layer and head recorded.
    fn run(&self, ids: &[u32]) -> Trace {
        self.run_ablated(ids, &[])
    }
}

impl Transformer for Minilm {
    fn name(&self) -> &'static str {
        "all-MiniLM-L6-v2"
    }
    fn layers(&self) -> usize {
        self.weights.layers.len()
    }
    fn heads(&self) -> usize {
        super::minilm::HEADS
    }
    fn kv_head(&self, h: usize) -> usize {
        h
    }
    fn mask(&self) -> Mask {
        Mask::Bidirectional
    }
    fn norm(&self) -> Norm {
        Norm::Post
    }
    fn encode(&self, text: &str) -> Result<Encoding, String> {
        Minilm::encode(self, text).map_err(|e| e.to_string())
    }
    fn embed(&self, ids: &[u32]) -> DMatrix<f64> {
        super::minilm::forward::embed(&self.weights, ids)
    }
    fn run_from(&self, from: usize, x: DMatrix<f64>, ablate: &[(usize, usize)]) -> Trace {
        Minilm::run_from(self, from, x, ablate)
    }
}

impl Transformer for SmolLm2 {
    fn name(&self) -> &'static str {
        "SmolLM2-135M-Instruct"
    }
    fn layers(&self) -> usize {
        self.config.n_layer
    }
    fn heads(&self) -> usize {
        self.config.n_head
    }
    fn kv_head(&self, h: usize) -> usize {
        self.config.kv_head(h)
    }
    fn mask(&self) -> Mask {
        Mask::Causal
    }
    fn norm(&self) -> Norm {
        Norm::Pre
    }
    fn encode(&self, text: &str) -> Result<Encoding, String> {
        SmolLm2::encode(self, text)
    }
    fn embed(&self, ids: &[u32]) -> DMatrix<f64> {
        super::smollm2::forward::embed(&self.weights, ids).map(f64::from)
    }
    fn run_from(&self, from: usize, x: DMatrix<f64>, ablate: &[(usize, usize)]) -> Trace {
        SmolLm2::run_from(self, from, x, ablate)
    }
    fn run_ablated(&self, ids: &[u32], ablate: &[(usize, usize)]) -> Trace {
        SmolLm2::run_ablated(self, ids, ablate)
    }
}

/// Which of the two pretrained models under `models/`; with a [`Model`]
/// (trained or random weights) it names one network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Architecture {
    /// all-MiniLM-L6-v2: a BERT encoder, 6 layers × 12 heads of width 32, d = 384.
    Minilm,
    /// SmolLM2-135M-Instruct: a Llama decoder, 30 layers × 9 query heads
    /// (3 key heads) of width 64, d = 576.
    Smollm2,
}

impl Architecture {
    /// Both, encoder first.
    pub const ALL: [Architecture; 2] = [Architecture::Minilm, Architecture::Smollm2];

    /// The name the command line takes.
    pub fn name(self) -> &'static str {
        match self {
            Architecture::Minilm => "minilm",
            Architecture::Smollm2 => "smollm2",
        }
    }

    /// The model called `name`, or an error listing the valid names.
    ///
    /// ```
    /// use attention_geometry::pretrained::transformer::Architecture;
    /// assert_eq!(Architecture::parse("smollm2"), Ok(Architecture::Smollm2));
    /// assert_eq!(
    ///     Architecture::parse("gpt2").unwrap_err(),
    ///     "unknown model 'gpt2'; valid models: minilm, smollm2"
    /// );
    /// ```
    pub fn parse(name: &str) -> Result<Architecture, String> {
        Architecture::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                let valid: Vec<&str> = Architecture::ALL.iter().map(|m| m.name()).collect();
                format!("unknown model '{name}'; valid models: {}", valid.join(", "))
            })
    }

    /// This model's trained weights, loaded from `models/` (not kept).
    ///
    /// # Errors
    /// The loader's one-line message if a file is missing or corrupted.
    pub fn load(self) -> Result<Box<dyn Transformer>, String> {
        Ok(match self {
            Architecture::Minilm => {
                Box::new(Minilm::load(&super::models_dir()).map_err(|e| e.to_string())?)
            }
            Architecture::Smollm2 => Box::new(SmolLm2::load().map_err(|e| e.to_string())?),
        })
    }

    /// This architecture with `weights` (loaded or drawn once per process).
    pub fn with(self, weights: Model) -> &'static dyn Transformer {
        match self {
            Architecture::Minilm => weights.minilm(),
            Architecture::Smollm2 => weights.smollm2(),
        }
    }
}
