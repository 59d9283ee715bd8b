//! Chapter 5's stream question asked of a pre-LayerNorm decoder: does
//! SmolLM2's residual stream settle with depth, beyond what the same
//! architecture does at its initialisation?
//!
//! ```text
//! h_0 = embedding, h_{l+1} = h_l + attn_l(rms(h_l)) + ffn_l(rms(·))     l = 0 … 29
//! update_l = ‖h_{l+1} − h_l‖ / ‖h_l‖,   cosine_l = cos(h_l, h_{l+1})    per token
//! ```
//!
//! A pre-LN stream is a running sum, so even random writes make the
//! relative update fall like 1/√l as the sum grows: only the comparison with
//! the random-weight decoder (Llama's initialisation) says whether training
//! makes the stream settle. The first block writes onto the embedding, whose
//! norm is small, so its relative update is large in both models; the first
//! token is where causal models park their attention sink and its massive
//! activation. Both are choices a referee would vary.
//!
//! Introduced in chapter 5.

use std::sync::OnceLock;

use super::trained::stream_of;
use crate::experiment::cache;
use crate::experiment::relations::trained::pairs;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::transformer::Architecture;
use crate::stats::Summary;

/// Which sentences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The first context sentences (every pair's A, then every B), as for the encoder.
    pub sentences: usize,
}

/// The size the book reports: the encoder's stream sentences.
pub const BOOK: Setup = Setup {
    sentences: super::trained::BOOK.stream_sentences,
};

/// One model's per-layer curves, every token pooled over sentences.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Stream {
    /// `update[l]`: block `l`'s relative update of every token.
    pub update: Vec<Vec<f64>>,
    /// `cosine[l]`: cosine of the states around block `l`.
    pub cosine: Vec<Vec<f64>>,
}

/// Which per-layer curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Series {
    Update,
    Cosine,
}

impl Stream {
    /// Mean of `series` over the tokens of block `l`.
    pub fn mean(&self, series: Series, l: usize) -> f64 {
        self.summary(series, l).mean
    }

    /// Summary of `series` over the tokens of block `l`.
    pub fn summary(&self, series: Series, l: usize) -> Summary {
        Summary::of(match series {
            Series::Update => &self.update[l],
            Series::Cosine => &self.cosine[l],
        })
    }

    /// Least-squares slope over blocks `from..` of the mean of `series`.
    pub fn slope(&self, series: Series, from: usize) -> f64 {
        let ys: Vec<f64> = (from..self.update.len())
            .map(|l| self.mean(series, l))
            .collect();
        crate::stats::slope(&ys)
    }
}

/// One model's findings: every token, and every token but the first.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    pub all: Stream,
    pub later: Stream,
}

impl ModelFindings {
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let m = Architecture::Smollm2.with(model);
        let p = pairs();
        let texts = p.iter().map(|p| &p.a).chain(p.iter().map(|p| &p.b));
        let mut found = [(); 2].map(|_| Stream {
            update: vec![Vec::new(); m.layers()],
            cosine: vec![Vec::new(); m.layers()],
        });
        for text in texts.take(setup.sentences) {
            let ids = m.encode(text).unwrap_or_else(|e| panic!("{e}"));
            let states = m.run(&ids.ids).states();
            for (from, s) in found.iter_mut().enumerate() {
                let (u, c) = stream_of(&states, from);
                for l in 0..m.layers() {
                    s.update[l].extend(&u[l]);
                    s.cosine[l].extend(&c[l]);
                }
            }
        }
        let [all, later] = found;
        ModelFindings { all, later }
    }
}

/// The decoder's stream, trained and random.
pub type Findings = ByModel<ModelFindings>;

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| {
        cache::load_or_run(module_path!(), &BOOK, || {
            ByModel::run(|model| ModelFindings::run(model, BOOK))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_blocks_of_every_sentence_token_and_the_first_token_apart() {
        let f = book();
        assert_eq!(f.trained.all.update.len(), 30);
        let n = f.trained.all.update[0].len();
        assert_eq!(n - f.trained.later.update[0].len(), BOOK.sentences);
        assert!(
            f.random
                .all
                .cosine
                .iter()
                .flatten()
                .all(|c| c.abs() <= 1.0 + 1e-12)
        );
    }
}
