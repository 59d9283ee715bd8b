//! The labels a claim carries: what kind of claim it is, what its
//! measurement rests on, whose sentence it tests, and its verdict. Each
//! displays as the English edition's word (`crate::edition::words`).

use std::fmt;

use serde::Serialize;

/// Whether a claim could have come out otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Could have come out otherwise: an experiment decides it.
    Empirical,
    /// Proved; the book checks it numerically.
    Theorem,
    /// True because the experiment was built so; the book checks the build.
    Construction,
}

/// What a claim's measurement rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Evidence {
    /// Random initialisations, no training.
    Random,
    /// Small models trained here, or hand-built inputs.
    Toy,
    /// The pretrained models under `models/`.
    Pretrained,
}

/// Whose sentence a claim tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The essay's own sentence, or the book's restatement of it.
    Essay,
    /// The book's: a lemma, a control or a side finding the essay does not state.
    Book,
}

/// The verdict computed from a claim's tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Supported,
    Qualified,
    Contradicted,
    Checked,
    Failed,
    /// Most runs of a trained arm hit the step cap or never left chance.
    Undecided,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::edition::words::EN.kind(*self))
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::edition::words::EN.evidence_word(*self))
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Essay => "the essay",
            Source::Book => "the book",
        })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::edition::words::EN.verdict(*self))
    }
}
