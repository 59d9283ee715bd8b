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

use nalgebra::{DMatrix, DVector};

use super::bpe::Encoding;
use super::corpus::Model;
use super::minilm::Minilm;

use super::repair::Effects;
use super::smollm2::SmolLm2;

use super::trace::{LayerTrace, Trace};

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

    // ---- one layer's attention sublayer, read from a clean trace ----
    //
    //   f_j  = v_j W_O,h                  head h's value carried through its slice of W_O
    //   w_h  = α_h f                      head h's write into the stream      (n, d)
    //   attn = Σ_h w_h + b_O              the sublayer's output (b_O = 0 in Llama)
    //   u    = x + attn                   the stream after attention
    //   N(u)                              what the block's FFN reads: LN₁(u), the block's
    //                                     new stream, in the post-LN encoder; rms(u) ⊙ g
    //                                     in the pre-LN decoder, whose stream stays u

    /// Head `h`'s values of layer `layer` carried through its slice of W_O:
    /// the vectors `f(x_j)` of Kobayashi et al. 2020 (`v` of the key/value
    /// head it reads, as recorded in the trace).
    ///
    /// # Shapes
    /// `v: (n, d_k)` → `(n, d)`.
    fn value_out(&self, layer: usize, h: usize, v: &DMatrix<f64>) -> DMatrix<f64>;
    /// The attention sublayer's output bias `b_O` of layer `layer` (zero in Llama), `(d)`.
    fn attention_bias(&self, layer: usize) -> DVector<f64>;
    /// The normalised stream the FFN of layer `layer` reads, from the stream
    /// after attention `u` (see above), row by row.
    ///
    /// # Shapes
    /// `u: (n, d)` → `(n, d)`.
    fn block_norm(&self, layer: usize, u: &DMatrix<f64>) -> DMatrix<f64>;
    /// What layer `layer`'s W_Q, W_K and W_V read from the stream `x` entering
    /// it: `x` itself in the post-LN encoder, `rms(x) ⊙ g_attn` in the pre-LN
    /// decoder (chapter 1 scores random heads on it).
    ///
    /// # Shapes
    /// `x: (n, d)` → `(n, d)`.
    fn query_input(&self, layer: usize, x: &DMatrix<f64>) -> DMatrix<f64>;
    /// Block `layer` alone on `x`, the stream entering it, as trained; nothing
    /// recorded (chapter 5 iterates it).
    ///
    /// # Shapes
    /// `x: (n, d)` → `(n, d)`.
    fn block(&self, layer: usize, x: &DMatrix<f64>) -> DMatrix<f64>;
    /// Head `h`'s write into the stream in a recorded layer, `α_h f`, `(n, d)`.
    fn write(&self, t: &LayerTrace, h: usize) -> DMatrix<f64> {
        let head = &t.heads[h];
        &head.weights * self.value_out(t.layer, h, &head.v)
    }
    /// The attention sublayer's output in a recorded layer, `Σ_h w_h + b_O`, `(n, d)`
    /// (from a clean trace: an ablated head's weights are recorded but its write
    /// was zeroed).
    fn attention(&self, t: &LayerTrace) -> DMatrix<f64> {
        let mut a = (0..self.heads())
            .fold(DMatrix::zeros(t.input.nrows(), t.input.ncols()), |a, h| {
                a + self.write(t, h)
            });
        let b = self.attention_bias(t.layer);
        for mut row in a.row_iter_mut() {
            row += b.transpose();
        }
        a
    }

    // ---- chapter 4: one input token removed, a word's token, the next token ----

    /// The stream after the last block for each edit of `x`, the stream
    /// entering block 0: edit `(j, r)` replaces row `j` by `r`. The default
    /// runs every edit whole; the encoder runs them as one stack, and the
    /// decoder, whose causal mask keeps positions before `j` from seeing the
    /// edit, reruns only positions `j..` after a cache of the clean prefix
    /// (`super::edits`).
    ///
    /// # Shapes
    /// `x: (n, d)`, `r: (d)` → one `(n, d)` per edit.
    fn run_edits(&self, x: &DMatrix<f64>, edits: &[(usize, DVector<f64>)]) -> Vec<DMatrix<f64>> {
        super::edits::whole(self, x, edits)
    }
    /// The token a word is after a space: `bank` in WordPiece, `Ġbank` in byte-level BPE.
    fn word_token(&self, word: &str) -> String;
    /// The next-token distribution read from one final state `(d)`: the
    /// decoder's output; `None` for the encoder, whose output is its states.
    fn next_token(&self, _state: &DVector<f64>) -> Option<Vec<f64>> {
        None
    }

    // ---- chapter 3: self-repair (McGrath et al. 2023), see [`super::repair`] ----
    //
    //   change δ enters layer ℓ's attention sum   u = x + attn + δ
    //   total    blocks ℓ.. rerun from u                        on the read-out
    //   direct   δ along the residual path, every norm on it    states and on
    //            frozen at the clean run ([`Norm`] says which:  the model's
    //            Post: twelve LayerNorms, Pre: the final RMSNorm) output

    /// Total and direct effects of each change in `deltas`, all entering layer
    /// `layer`'s attention sum in the clean whole pass `clean`.
    ///
    /// # Shapes
    /// Each delta `(n, d)`.
    fn effects(&self, clean: &Trace, layer: usize, deltas: &[DMatrix<f64>]) -> Vec<Effects>;
    /// Head `h`'s attention weights in a recorded layer with `W_QK` replaced by
    /// its symmetric part, `(n, n)`, where that is defined: `None` under a
    /// causal mask, where a query never scores the later key a symmetric score
    /// would pair it with.
    fn symmetric_weights(&self, t: &LayerTrace, h: usize) -> Option<DMatrix<f64>>;

    // ---- chapter 2: the keys named as sinks ----

    /// Which of `tokens` (as [`Transformer::encode`] gives them, any token
    /// prepended included) are the keys idle attention is known to collect on:
    /// `[CLS]`, `[SEP]` and punctuation in the encoder (Kobayashi et al. 2020,
    /// §4.1), the first token, whatever it holds, in the decoder (Xiao et al. 2023).
    fn special(&self, tokens: &[String]) -> Vec<bool>;
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

/// One result per [`Architecture`], the encoder's and the decoder's.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ByArch<T> {
    pub minilm: T,
    pub smollm2: T,
}

impl<T> ByArch<T> {
    /// `f` of each architecture, encoder first.
    pub fn run(f: impl Fn(Architecture) -> T) -> ByArch<T> {
        ByArch {
            minilm: f(Architecture::Minilm),
            smollm2: f(Architecture::Smollm2),
        }
    }

    /// The result of `arch`.
    pub fn arch(&self, arch: Architecture) -> &T {
        match arch {
            Architecture::Minilm => &self.minilm,
            Architecture::Smollm2 => &self.smollm2,
        }
    }
}
