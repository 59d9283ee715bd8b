//! What the self-repair experiment measures of each architecture: its
//! sentences, layers, changes, donors and means, as data (see
//! [`super`] for the protocol both share).
//!
//! Introduced in chapter 3.

use crate::experiment::relations::trained::contexts;
use crate::pretrained::paraphrase::{corpus, partner, sentences};
use crate::pretrained::transformer::Architecture;

/// Which sentences, and which is whose pair partner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Texts {
    /// The paraphrase corpus, pairs `2p, 2p + 1`.
    Corpus,
    /// The context sentences of chapter 4: every pair's A, then every B.
    Contexts,
}

impl Texts {
    /// The sentences in order.
    pub fn all(self) -> Vec<String> {
        match self {
            Texts::Corpus => sentences(&corpus()),
            Texts::Contexts => contexts(),
        }
    }

    /// The pair partner of sentence `s` of `total`.
    pub fn partner(self, s: usize, total: usize) -> usize {
        match self {
            Texts::Corpus => partner(s),
            Texts::Contexts => (s + total / 2) % total,
        }
    }
}

/// Which sentences the mean write averages over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Means {
    /// Every sentence of the texts.
    All,
    /// The measured sentences.
    Measured,
}

/// What is measured of one architecture.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub arch: Architecture,
    pub texts: Texts,
    /// The first `sentences` of the texts are measured.
    pub sentences: usize,
    /// Sentence `s` measures the layers `ℓ ≡ s (mod stride)` that have a later block.
    pub stride: usize,
    /// How many donors a resample ablation averages over.
    pub resamples: usize,
    pub means: Means,
    /// Which of [`CHANGES`](super::CHANGES) are made.
    pub changes: [bool; 6],
}

/// The encoder the book reports.
pub const MINILM: Setup = Setup {
    arch: Architecture::Minilm,
    texts: Texts::Corpus,
    sentences: 20,
    stride: 1,
    resamples: 3,
    means: Means::All,
    changes: [true; 6],
};

/// The decoder the book reports.
pub const SMOLLM2: Setup = Setup {
    arch: Architecture::Smollm2,
    texts: Texts::Contexts,
    sentences: 6,
    stride: 2,
    resamples: 1,
    means: Means::Measured,
    changes: [true, true, false, false, false, true],
};

/// The book's setup of `arch`.
pub fn setup(arch: Architecture) -> Setup {
    match arch {
        Architecture::Minilm => MINILM,
        Architecture::Smollm2 => SMOLLM2,
    }
}
