//! The paraphrase corpus run once per process through the trained encoder and through
//! its random-weight baseline, every layer's [`Parts`] kept, so that every chapter's
//! real-model statistics read the same clean runs.
//!
//! ```text
//! sentence k  →  ids (with [CLS], [SEP])  →  x⁰ = embed(ids)  →  Parts of layers 0..6
//! embedding   e_k = normalise(mean_i x⁶_i)                 (sentence-transformers pooling)
//! ```
//! Introduced in chapter 2.

use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};

use super::intervention::{Parts, run_parts};
use super::minilm::forward::embed;
use super::minilm::{Minilm, Weights};
use super::paraphrase::{corpus, sentences};
use super::random_init::baseline;

/// Which weights: the vendored checkpoint or the BERT-initialised baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    Trained,
    Random,
}

impl Model {
    pub const BOTH: [Model; 2] = [Model::Trained, Model::Random];

    /// The encoder with these weights (loaded or drawn once per process).
    pub fn minilm(self) -> &'static Minilm {
        match self {
            Model::Trained => Minilm::shared(),
            Model::Random => baseline(),
        }
    }

    /// The decoder SmolLM2 with these weights (loaded or drawn once per process).
    pub fn smollm2(self) -> &'static super::smollm2::SmolLm2 {
        match self {
            Model::Trained => super::smollm2::SmolLm2::shared(),
            Model::Random => super::smollm2::random_init::baseline(),
        }
    }

    /// The encoder's weights with these weights.
    pub fn weights(self) -> &'static Weights {
        &self.minilm().weights
    }

    pub fn name(self) -> &'static str {
        match self {
            Model::Trained => "trained",
            Model::Random => "random",
        }
    }
}

/// One result per [`Model`]: the trained model's and its baseline's.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ByModel<T> {
    pub trained: T,
    pub random: T,
}

impl<T: Send> ByModel<T> {
    /// `f` of both models, the two computed at once.
    pub fn run(f: impl Fn(Model) -> T + Sync) -> ByModel<T> {
        let [trained, random]: [T; 2] = crate::parallel::map(0..2, |i| f(Model::BOTH[i as usize]))
            .try_into()
            .unwrap_or_else(|_| unreachable!("two models, two results"));
        ByModel { trained, random }
    }

    /// The result of `model`.
    pub fn model(&self, model: Model) -> &T {
        match model {
            Model::Trained => &self.trained,
            Model::Random => &self.random,
        }
    }
}

/// One sentence's clean run.
#[derive(Clone, Debug)]
pub struct Run {
    pub text: String,
    /// WordPiece tokens, `[CLS]` first and `[SEP]` last, `n` of them.
    pub tokens: Vec<String>,
    /// Layers `0..6`, one variant each.
    pub clean: Vec<Parts>,
}

impl Run {
    /// Number of tokens.
    pub fn n(&self) -> usize {
        self.tokens.len()
    }

    /// The sentence embedding `e = normalise(mean_i x⁶_i)`, `(384)`.
    pub fn embedding(&self) -> DVector<f64> {
        pooled(&self.clean[self.clean.len() - 1].output)
    }
}

/// Mean over tokens (rows), L2-normalised: sentence-transformers' pooling.
///
/// # Shapes
/// `(n, d)` → `(d)`.
///
/// ```
/// use attention_geometry::pretrained::corpus::pooled;
/// use nalgebra::DMatrix;
/// let e = pooled(&DMatrix::from_row_slice(2, 2, &[3.0, 0.0, 3.0, 8.0]));
/// assert!((e[0] - 0.6).abs() < 1e-12 && (e[1] - 0.8).abs() < 1e-12);
/// ```
pub fn pooled(h: &DMatrix<f64>) -> DVector<f64> {
    (h.row_sum().transpose() / h.nrows() as f64).normalize()
}

/// Whether a token is `[CLS]`, `[SEP]` or a punctuation mark.
pub fn is_special(token: &str) -> bool {
    token == "[CLS]" || token == "[SEP]" || token.chars().all(|c| c.is_ascii_punctuation())
}

/// Run `text` through `model`, keeping every layer.
pub fn run(model: Model, text: &str) -> Run {
    let m = model.minilm();
    let e = m.encode(text).unwrap_or_else(|e| panic!("{e}"));
    let n = e.len();
    let clean = run_parts(&m.weights, 0, embed(&m.weights, &e.ids), n, &[Vec::new()]);
    Run {
        text: text.to_string(),
        tokens: e.tokens,
        clean,
    }
}

/// The shipped corpus's sentences (pairs `2p`, `2p + 1`) run through `model`, once per
/// process.
pub fn runs(model: Model) -> &'static [Run] {
    static TRAINED: OnceLock<Vec<Run>> = OnceLock::new();
    static RANDOM: OnceLock<Vec<Run>> = OnceLock::new();
    let cell = match model {
        Model::Trained => &TRAINED,
        Model::Random => &RANDOM,
    };
    cell.get_or_init(|| {
        let texts = sentences(&corpus());
        crate::parallel::map(0..texts.len() as u64, |k| run(model, &texts[k as usize]))
    })
}
