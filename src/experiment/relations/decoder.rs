//! Chapter 4's trained-model questions asked of a causal decoder
//! (SmolLM2-135M-Instruct) against the same architecture at Llama's
//! initialisation: rollout against raw attention against the effect of
//! removing a token, with the last token as the target; and the prompt as
//! boundary condition, the same word after two different prefixes.
//!
//! ```text
//! target t = n − 1, the last token; keys j = 0 … n − 2
//! removal of j               its embedding replaced by the sentence's mean embedding
//! importance, state          ‖h_30(t) − h_30(t | j removed)‖      (the stream after block 30)
//! importance, next token     TV(p(·| x), p(·| x, j removed)) = ½ Σ_v |p_v − p'_v|
//! raw                        A_30[t, j], mean over the 9 heads
//! rollout                    R[t, j],  R = (½I + ½A_30) ⋯ (½I + ½A_1)
//! boundary                   1 − cos(h_l(word after prefix A), h_l(word after prefix B)), l = 0 … 30
//!                            against the same for two different words (the next pair's)
//! ```
//!
//! Removing token j leaves positions before j unchanged (the mask), so each
//! removal reruns only positions `j..n` against a cache of the clean prefix.
//!
//! Introduced in chapter 4.

use std::sync::OnceLock;

use nalgebra::DMatrix;

use super::trained::{Change, cosine_distance, pairs};
use crate::experiment::cache;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::smollm2::forward::{self, Cache, Options};
use crate::pretrained::transformer::Transformer;
use crate::relation::rollout;
use crate::stats::{Summary, spearman};

/// Which sentences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The first pairs' A sentences behind rollout against raw attention.
    pub sentences: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup { sentences: 8 };

/// Whose change measures a token's importance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Target {
    /// The last token's state after the last block.
    State,
    /// The next-token distribution read from it.
    Next,
}

impl Target {
    pub const ALL: [Target; 2] = [Target::State, Target::Next];

    pub fn name(self) -> &'static str {
        match self {
            Target::State => "the last token's final state",
            Target::Next => "the next-token distribution (total variation)",
        }
    }
}

/// Which keys the correlation runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Keys {
    /// Every earlier token.
    All,
    /// Every earlier token but the first (the sink).
    WithoutFirst,
}

impl Keys {
    pub const ALL: [Keys; 2] = [Keys::All, Keys::WithoutFirst];

    pub fn name(self) -> &'static str {
        match self {
            Keys::All => "every earlier token",
            Keys::WithoutFirst => "every earlier token but the first (the sink)",
        }
    }
}

/// One sentence: `[target][keys]` → `[ρ(raw, importance), ρ(rollout, importance)]`.
pub type Rollout = [[[f64; 2]; 2]; 2];

/// The importance of every earlier token to the last one, `[target][j]`.
pub fn importance(m: &SmolLm2, ids: &[u32]) -> [Vec<f64>; 2] {
    let (w, n) = (&m.weights, ids.len());
    let x0 = forward::embed(w, ids);
    // the sentence's mean embedding, (1, 576)
    let mean = x0.row_mean();
    let read = |h: &DMatrix<f32>| {
        let last = h.rows(h.nrows() - 1, 1).into_owned();
        let p: Vec<f64> = forward::log_softmax(forward::logits(w, &last).as_slice())
            .into_iter()
            .map(f64::exp)
            .collect();
        (last.map(f64::from), p)
    };
    let run = |x: DMatrix<f32>, cache: &mut Cache| {
        forward::run_from(w, 0, x, cache, Options::default()).0
    };
    let mut clean = Cache::new(&w.config);
    let (clean_state, clean_p) = read(&run(x0.clone(), &mut clean));
    let mut out = [Vec::new(), Vec::new()];
    for j in 0..n - 1 {
        // positions j..n with row j mean-ablated, after the clean prefix 0..j
        let mut x = x0.rows(j, n - j).into_owned();
        x.row_mut(0).copy_from(&mean);
        let (state, p) = read(&run(x, &mut clean.truncated(j)));
        out[0].push((clean_state.clone() - state).norm());
        out[1].push(
            0.5 * clean_p
                .iter()
                .zip(&p)
                .map(|(a, b)| (a - b).abs())
                .sum::<f64>(),
        );
    }
    out
}

/// Rollout against raw attention on one sentence.
pub fn attribution(model: Model, ids: &[u32]) -> Rollout {
    let m = model.smollm2();
    let n = ids.len();
    let trace = Transformer::run(m, ids);
    // head-mean attention of every layer, (n, n)
    let means: Vec<DMatrix<f64>> = trace
        .layers
        .iter()
        .map(|l| {
            l.heads
                .iter()
                .fold(DMatrix::zeros(n, n), |s, h| s + &h.weights)
                / l.heads.len() as f64
        })
        .collect();
    let (raw, roll) = (&means[means.len() - 1], rollout(&means));
    let imp = importance(m, ids);
    let mut out = [[[f64::NAN; 2]; 2]; 2];
    for (t, e) in imp.iter().enumerate() {
        for (k, keys) in Keys::ALL.iter().enumerate() {
            let from = usize::from(*keys == Keys::WithoutFirst);
            let pick = |r: &DMatrix<f64>| (from..n - 1).map(|j| r[(n - 1, j)]).collect::<Vec<_>>();
            out[t][k] = [
                spearman(&pick(raw), &e[from..]),
                spearman(&pick(&roll), &e[from..]),
            ];
        }
    }
    out
}

/// The pair's word in one sentence: its state at every depth `l = 0 … 30`.
pub fn word_states(model: Model, text: &str, word: &str) -> Option<Vec<Vec<f64>>> {
    let m = model.smollm2();
    let e = Transformer::encode(m, text).ok()?;
    let want = format!("Ġ{word}");
    let at: Vec<usize> = (0..e.tokens.len())
        .filter(|&i| e.tokens[i] == want)
        .collect();
    if at.len() != 1 {
        return None;
    }
    let states = Transformer::run(m, &e.ids).states();
    Some(
        states
            .iter()
            .map(|h| h.row(at[0]).iter().copied().collect())
            .collect(),
    )
}

/// `1 − cos` per depth of two views of a word.
fn divergence(x: &[Vec<f64>], y: &[Vec<f64>]) -> Vec<f64> {
    x.iter()
        .zip(y)
        .map(|(a, b)| cosine_distance(a, b))
        .collect()
}

/// One model's findings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    /// Per sentence.
    pub rollout: Vec<Rollout>,
    /// Per kept pair, `1 − cos` per depth: the word after prefix A against after prefix B.
    pub context: Vec<Change>,
    /// The word in A against the next kept pair's word in its A.
    pub unrelated: Vec<Change>,
    /// The pairs' words, kept (one token `Ġword` once in both sentences) or not.
    pub words: Vec<(String, bool)>,
}

impl ModelFindings {
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let p = pairs();
        let rollout = crate::parallel::map(0..setup.sentences as u64, |i| {
            let m = model.smollm2();
            let ids = Transformer::encode(m, &p[i as usize].a)
                .unwrap_or_else(|e| panic!("{e}"))
                .ids;
            attribution(model, &ids)
        });
        let views = crate::parallel::map(0..p.len() as u64, |i| {
            let q = &p[i as usize];
            word_states(model, &q.a, &q.word).zip(word_states(model, &q.b, &q.word))
        });
        let words = p
            .iter()
            .zip(&views)
            .map(|(q, v)| (q.word.clone(), v.is_some()))
            .collect();
        let kept: Vec<_> = views.into_iter().flatten().collect();
        let change = |x: &[Vec<f64>], y: &[Vec<f64>]| Change {
            state: divergence(x, y),
            partner: vec![],
            partner_no_sinks: vec![],
        };
        let k = kept.len();
        ModelFindings {
            rollout,
            context: kept.iter().map(|(a, b)| change(a, b)).collect(),
            unrelated: (0..k)
                .map(|i| change(&kept[i].0, &kept[(i + 1) % k].0))
                .collect(),
            words,
        }
    }

    /// ρ(rollout) − ρ(raw) per sentence in one setting.
    pub fn gain(&self, t: Target, k: Keys) -> Summary {
        let (t, k) = (t as usize, k as usize);
        Summary::of(
            &self
                .rollout
                .iter()
                .map(|r| r[t][k][1] - r[t][k][0])
                .collect::<Vec<_>>(),
        )
    }

    /// `ρ(raw)` (`which = 0`) or `ρ(rollout)` (`1`) per sentence in one setting.
    pub fn rho(&self, t: Target, k: Keys, which: usize) -> Summary {
        let (t, k) = (t as usize, k as usize);
        Summary::of(
            &self
                .rollout
                .iter()
                .map(|r| r[t][k][which])
                .collect::<Vec<_>>(),
        )
    }

    /// Mean over pairs of the divergence at depth `l`, context or unrelated.
    pub fn divergence(&self, unrelated: bool, l: usize) -> Summary {
        let c = if unrelated {
            &self.unrelated
        } else {
            &self.context
        };
        Summary::of(&c.iter().map(|c| c.state[l]).collect::<Vec<_>>())
    }
}

/// The decoder's chapter-4 findings, trained and random.
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
    fn the_cached_prefix_removal_equals_a_whole_rerun() {
        let m = Model::Trained.smollm2();
        let ids = Transformer::encode(m, "The cat sat on the mat.")
            .unwrap()
            .ids;
        let imp = importance(m, &ids);
        let (w, j) = (&m.weights, 2);
        let mut x = forward::embed(w, &ids);
        let mean = x.row_mean();
        let clean = forward::run_from(
            w,
            0,
            x.clone(),
            &mut Cache::new(&w.config),
            Options::default(),
        )
        .0;
        x.row_mut(j).copy_from(&mean);
        let moved = forward::run_from(w, 0, x, &mut Cache::new(&w.config), Options::default()).0;
        let n = ids.len();
        let d = (clean.row(n - 1) - moved.row(n - 1)).map(f64::from).norm();
        assert!(
            (imp[0][j] - d).abs() < 1e-3 * d.max(1.0),
            "{} vs {d}",
            imp[0][j]
        );
    }

    #[test]
    fn most_words_are_one_token_and_the_word_is_unchanged_at_the_embedding() {
        let f = book();
        assert!(f.trained.words.iter().filter(|w| w.1).count() >= 10);
        assert!(f.trained.context.iter().all(|c| c.state[0].abs() < 1e-9));
        assert_eq!(f.trained.rollout.len(), BOOK.sentences);
    }
}
