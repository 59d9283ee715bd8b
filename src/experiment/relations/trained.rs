//! Chapter 4 on trained models and their random-weight twins: rollout against
//! raw attention against a leave-one-out effect ([`importance`]), and the
//! prompt as boundary condition — one word in two contexts
//! (`models/contexts.txt`, [`word_view`]) — written once over
//! [`Transformer`] and asked of the encoder (all-MiniLM-L6-v2, [`BOOK`]) and
//! the decoder (SmolLM2-135M-Instruct, [`DECODER`]) alike.
//!
//! The composition of measured one-layer relations along depth
//! ([`Attribution`]) stays encoder-only; its module says why.
//! Introduced in chapter 4.

mod attribution;
pub mod composite;
pub mod context;
mod effects;
pub mod flow;
pub mod importance;
pub mod rollout_verdict;
pub mod verdict;

pub use attribution::{Attribution, attribution};

pub use context::{Change, WordView, change, cosine_distance, partner, word_view};
pub use effects::{
    Clean, ablations, input_effects, layer_effects, linearised_effects, mean_ablate, row_agreement,
    row_normalise,
};
pub use importance::{Counterfactual, Importance, Keys, Target};
pub use rollout_verdict::{Composite, gain_test};

pub use verdict::{claims, measures};

use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::minilm::Minilm;
use crate::pretrained::transformer::{Architecture, Transformer};
use crate::stats::Summary;

/// How many sentences each experiment uses, for one architecture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The model measured (with trained and with random weights).
    pub architecture: Architecture,
    /// Context pairs of `models/contexts.txt` used for the boundary condition.
    pub pairs: usize,
    /// Sentences (the first of the pairs' sentences, A then B) behind the
    /// leave-one-out effects and the composition test (encoder only: 0 for the decoder).
    pub effect_sentences: usize,
    /// Sentences (the pairs' A sentences) behind the rollout protocols of [`importance`].
    pub importance_sentences: usize,
    /// How each of them removes a token.
    pub counterfactuals: &'static [Counterfactual],
    /// The first sentences on which the trained model is also measured under
    /// [`Setup::choices`] (a budget of compute, not a choice of sentences).
    pub choice_sentences: usize,
    pub choices: &'static [Counterfactual],
}

/// The size the book reports for the encoder.
pub const BOOK: Setup = Setup {
    architecture: Architecture::Minilm,
    pairs: 20,
    effect_sentences: 4,
    importance_sentences: 20,
    counterfactuals: &[
        Counterfactual::Mean,
        Counterfactual::Unk,
        Counterfactual::Gradient,
    ],
    choice_sentences: 10,
    choices: &Counterfactual::ALL,
};

/// The size the book reports for the decoder: mean ablation and input ×
/// gradient (its vocabulary has no `[UNK]` or `[MASK]`).
pub const DECODER: Setup = Setup {
    architecture: Architecture::Smollm2,
    pairs: 20,
    effect_sentences: 0,
    importance_sentences: 8,
    counterfactuals: &[Counterfactual::Mean, Counterfactual::Gradient],
    choice_sentences: 0,
    choices: &[],
};

/// Sentences (the pairs' A sentences) behind the encoder's rollout protocols of
/// [`importance`]: mean ablation and blank-out by `[UNK]` on all of them.
pub const IMPORTANCE_SENTENCES: usize = BOOK.importance_sentences;

/// The first sentences on which the trained encoder is also measured under zero
/// ablation and blank-out by `[MASK]` (a budget of compute, not a choice of sentences).
pub const CHOICE_SENTENCES: usize = BOOK.choice_sentences;

/// One word in two contexts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub word: String,
    pub a: String,
    pub b: String,
}

/// The shipped pairs, `word<TAB>sentence A<TAB>sentence B`, `#` starts a comment.
pub const CONTEXTS: &str = include_str!("../../../models/contexts.txt");

/// The pairs of [`CONTEXTS`].
///
/// # Panics
/// If a line does not have three tab-separated fields.
pub fn pairs() -> Vec<Pair> {
    CONTEXTS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "contexts.txt: '{l}' needs word, A, B");
            Pair {
                word: f[0].into(),
                a: f[1].into(),
                b: f[2].into(),
            }
        })
        .collect()
}

/// The context sentences in order: every pair's A, then every B.
pub fn contexts() -> Vec<String> {
    let p = pairs();
    p.iter()
        .map(|p| p.a.clone())
        .chain(p.iter().map(|p| p.b.clone()))
        .collect()
}

/// A tokenised sentence and the position of its pair's word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sentence {
    pub ids: Vec<u32>,
    pub tokens: Vec<String>,
    pub word: usize,
}

/// Tokenise `text` and find `word`, which must be one token occurring once.
///
/// # Panics
/// If `word` is not exactly one token of `text`.
pub fn sentence(text: &str, word: &str) -> Sentence {
    let e = Minilm::shared().tokenizer.encode(text);
    let at: Vec<usize> = (0..e.len()).filter(|&i| e.tokens[i] == word).collect();
    assert_eq!(at.len(), 1, "'{word}' must be one token once in '{text}'");
    Sentence {
        ids: e.ids,
        tokens: e.tokens,
        word: at[0],
    }
}

/// Tokenise `text` as `m` does and find `word` (as the token [`Transformer::word_token`]
/// spells it), if it is one token occurring once.
pub fn find(m: &dyn Transformer, text: &str, word: &str) -> Option<Sentence> {
    let e = m.encode(text).ok()?;
    let want = m.word_token(word);
    let at: Vec<usize> = (0..e.tokens.len())
        .filter(|&i| e.tokens[i] == want)
        .collect();
    (at.len() == 1).then(|| Sentence {
        ids: e.ids,
        tokens: e.tokens,
        word: at[0],
    })
}

/// Every pair's two sentences, `(A, B)`.
pub fn sentences() -> Vec<(Sentence, Sentence)> {
    pairs()
        .iter()
        .map(|p| (sentence(&p.a, &p.word), sentence(&p.b, &p.word)))
        .collect()
}

/// One model's findings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    /// The composition test's sentences (encoder only; empty for the decoder).
    pub attribution: Vec<Attribution>,
    /// The rollout protocols on the first [`Setup::importance_sentences`] pairs' A sentences.
    pub importance: Vec<Importance>,
    /// Kept pair `p`: the word in A against the word in B (only the context changed).
    pub context: Vec<Change>,
    /// Kept pair `p`: the word in A against kept pair `p + 1`'s word in its A (unrelated sentences).
    pub unrelated: Vec<Change>,
    /// The pairs' words, kept (one token, once, in both sentences) or not.
    pub words: Vec<(String, bool)>,
}

impl ModelFindings {
    /// Run one model.
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let m = setup.architecture.with(model);
        let p = &pairs()[..setup.pairs];
        let views = crate::parallel::map(0..p.len() as u64, |i| {
            let q = &p[i as usize];
            let (a, b) = find(m, &q.a, &q.word).zip(find(m, &q.b, &q.word))?;
            Some((word_view(m, &a), word_view(m, &b)))
        });
        let words = p
            .iter()
            .zip(&views)
            .map(|(q, v)| (q.word.clone(), v.is_some()))
            .collect();
        let views: Vec<(WordView, WordView)> = views.into_iter().flatten().collect();
        let attribution = match setup.architecture {
            Architecture::Minilm => {
                let (w, s) = (model.weights(), &sentences()[..setup.pairs]);
                let texts = s.iter().map(|p| &p.0).chain(s.iter().map(|p| &p.1));
                crate::parallel::map(0..setup.effect_sentences as u64, |i| {
                    attribution(
                        w,
                        &texts.clone().nth(i as usize).expect("enough sentences").ids,
                    )
                })
            }
            Architecture::Smollm2 => Vec::new(),
        };
        let importance = crate::parallel::map(0..setup.importance_sentences as u64, |i| {
            let e = m.encode(&p[i as usize].a).unwrap_or_else(|e| panic!("{e}"));
            let every = model == Model::Trained && (i as usize) < setup.choice_sentences;
            let run = if every {
                setup.choices
            } else {
                setup.counterfactuals
            };
            importance::importance(m, &e, run)
        });
        let k = views.len();
        ModelFindings {
            attribution,
            importance,
            context: views.iter().map(|(a, b)| change(a, b)).collect(),
            unrelated: (0..k)
                .map(|i| change(&views[i].0, &views[(i + 1) % k].0))
                .collect(),
            words,
        }
    }

    /// Summary over sentences of one per-sentence number.
    pub fn over_sentences(&self, f: impl Fn(&Attribution) -> f64) -> Summary {
        Summary::over(self.attribution.iter().map(f))
    }

    /// Summary over pairs of one number of a change.
    pub fn over_pairs(changes: &[Change], f: impl Fn(&Change) -> f64) -> Summary {
        Summary::over(changes.iter().map(f))
    }

    /// Summary over kept pairs of `1 − cos` at depth `l`, context or unrelated.
    pub fn divergence(&self, unrelated: bool, l: usize) -> Summary {
        let c = if unrelated {
            &self.unrelated
        } else {
            &self.context
        };
        ModelFindings::over_pairs(c, |c| c.state[l])
    }

    /// Per sentence measured, one number of a rollout setting.
    pub fn over_setting(
        &self,
        c: Counterfactual,
        t: Target,
        k: Keys,
        g: fn(&importance::Cell) -> f64,
    ) -> Summary {
        Summary::of(
            &self
                .importance
                .iter()
                .filter_map(|i| i.cell(c, t, k))
                .map(g)
                .collect::<Vec<_>>(),
        )
    }
}

/// Chapter 4's trained-model findings for one architecture, trained and random.
pub type Findings = ByModel<ModelFindings>;

findings! {
    /// The encoder's book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => {
        ByModel::run(|model| ModelFindings::run(model, BOOK))
    })
}

findings! {
    /// The decoder's book-size findings, computed once per process.
    pub fn decoder() -> Findings = cached("decoder", DECODER => {
        ByModel::run(|model| ModelFindings::run(model, DECODER))
    })
}
