//! The decoder's predictions across depth read by a fitted lens
//! ([`AffineLens`], fitted on held-out text) and set against a null that
//! keeps the trained write norms ([`lens_null`](super::lens_null)), beside the random twin.
//!
//! ```text
//! held-out text   models/corpus.txt and models/paraphrases.txt (no sentence of the evaluation)
//! evaluation      the first 12 context sentences, as the plain lens
//! arms            trained, random twin: fitted lens (each fitted on its own held-out runs)
//!                 null seed s: plain lens and fitted lens (fitted on the null's held-out runs)
//! ```
//!
//! Every arm is kept per sentence, so that intervals resample sentences.
//!
//! Introduced in chapter 5.

use nalgebra::DMatrix;

use super::affine_lens::AffineLens;
use super::lens_null::{rotated, rotations, write_share};
use super::logit_lens::{ModelFindings, sentence_ids, tokens};
use crate::experiment::coordinate_mismatch::trained_text;
use crate::experiment::relations::trained::contexts;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::paraphrase;
use crate::pretrained::smollm2::SmolLm2;

/// Which sentences, how much ridge, how many rotations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The first context sentences evaluated, as in the plain lens.
    pub sentences: usize,
    /// Ridge relative to the mean eigenvalue of the held-out Gram matrix.
    pub ridge: f64,
    /// Seeded rotation sets of the norm-matched null, `0 … seeds − 1`.
    pub seeds: u64,
}

/// The size the book reports (ridge and seeds fixed before the result).
pub const BOOK: Setup = Setup {
    sentences: super::logit_lens::BOOK.sentences,
    ridge: 0.1,
    seeds: 3,
};

/// One model's lens, fitted, per evaluated sentence.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Arm {
    /// `sentences[s]`: sentence `s`'s positions.
    pub sentences: Vec<ModelFindings>,
    /// Per boundary, the share of the final stream's variance the fitted map
    /// explains on the evaluated sentences.
    pub explained: Vec<f64>,
}

impl Arm {
    /// Every sentence's positions together.
    pub fn pooled(&self) -> ModelFindings {
        super::lens_shuffled::pooled(&self.sentences)
    }
}

/// The norm-matched null of one rotation seed, read both ways.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NullSeed {
    /// The plain logit lens on the rotated stream.
    pub plain: Vec<ModelFindings>,
    /// The lens fitted on the null's own held-out runs.
    pub fitted: Arm,
}

/// The fitted lens on both models, the null's seeds, and the write norms.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub fitted: ByModel<Arm>,
    pub null: Vec<NullSeed>,
    /// Held-out tokens the lenses were fitted on.
    pub held_out_tokens: usize,
    /// Per block, mean `‖Δ_l‖ / ‖h_{l+1}‖` on the evaluated sentences.
    pub write_share: ByModel<Vec<f64>>,
}

/// The held-out sentences: models/corpus.txt, then models/paraphrases.txt.
///
/// # Panics
/// If one of them is also a context sentence (the evaluation's).
pub fn held_out() -> Vec<String> {
    let mut all: Vec<String> = trained_text::sentences()
        .into_iter()
        .map(String::from)
        .collect();
    all.extend(paraphrase::sentences(&paraphrase::corpus()));
    let evaluated = contexts();
    for s in &all {
        assert!(
            !evaluated.contains(s),
            "held-out sentence '{s}' is a context sentence"
        );
    }
    all
}

/// Every sentence's stream at every boundary.
fn runs(m: &SmolLm2, ids: &[Vec<u32>]) -> Vec<Vec<DMatrix<f64>>> {
    crate::parallel::map(0..ids.len() as u64, |s| m.run(&ids[s as usize]).states())
}

/// The fitted lens's readings of every evaluated sentence.
fn read(m: &SmolLm2, lens: &AffineLens, eval: &[Vec<DMatrix<f64>>]) -> Arm {
    Arm {
        sentences: crate::parallel::map(0..eval.len() as u64, |s| ModelFindings {
            tokens: tokens(m, &lens.apply(&eval[s as usize])),
        }),
        explained: lens.explained(eval),
    }
}

pub fn run(setup: Setup) -> Findings {
    let trained = Model::Trained.smollm2();
    let held_ids: Vec<Vec<u32>> = held_out()
        .iter()
        .map(|t| trained.encode(t).unwrap_or_else(|e| panic!("{e}")).ids)
        .collect();
    let eval_ids = sentence_ids(trained, setup.sentences);
    let (held, eval) = (
        ByModel::run(|model| runs(model.smollm2(), &held_ids)),
        ByModel::run(|model| runs(model.smollm2(), &eval_ids)),
    );
    let fitted = ByModel::run(|model| {
        let lens = AffineLens::fit(held.model(model), setup.ridge);
        read(model.smollm2(), &lens, eval.model(model))
    });
    let c = trained.config;
    let null = (0..setup.seeds)
        .map(|seed| {
            let r = rotations(c.n_layer, c.d_model, seed);
            let turn = |runs: &[Vec<DMatrix<f64>>]| -> Vec<Vec<DMatrix<f64>>> {
                runs.iter().map(|s| rotated(s, &r)).collect()
            };
            let (held, eval) = (turn(&held.trained), turn(&eval.trained));
            let lens = AffineLens::fit(&held, setup.ridge);
            NullSeed {
                plain: crate::parallel::map(0..eval.len() as u64, |s| ModelFindings {
                    tokens: tokens(trained, &eval[s as usize]),
                }),
                fitted: read(trained, &lens, &eval),
            }
        })
        .collect();
    Findings {
        fitted,
        null,
        held_out_tokens: held_ids.iter().map(Vec::len).sum(),
        write_share: ByModel {
            trained: write_share(&eval.trained),
            random: write_share(&eval.random),
        },
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => run(BOOK))
}

impl Findings {
    /// The null's seeds pooled, read by the plain lens.
    pub fn null_plain(&self) -> ModelFindings {
        let all: Vec<ModelFindings> = self.null.iter().flat_map(|n| n.plain.clone()).collect();
        super::lens_shuffled::pooled(&all)
    }

    /// The null's seeds pooled, read by the fitted lens.
    pub fn null_fitted(&self) -> ModelFindings {
        let all: Vec<ModelFindings> = self
            .null
            .iter()
            .flat_map(|n| n.fitted.sentences.clone())
            .collect();
        super::lens_shuffled::pooled(&all)
    }
}
