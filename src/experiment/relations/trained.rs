//! Chapter 4 on the trained encoder (all-MiniLM-L6-v2) and its random-weight
//! twin: rollout against raw attention against a leave-one-out effect, the
//! composition of measured one-layer relations along depth, and the prompt as
//! boundary condition — one word in two contexts (`models/contexts.txt`).
//! Introduced in chapter 4.

mod context;
pub mod importance;
mod verdict;

pub use context::{Change, WordView, change, cosine_distance, partner, word_view};

pub use verdict::{claims, measures};

use std::sync::OnceLock;

use crate::experiment::cache;

use nalgebra::DMatrix;

use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::intervention::{Parts, layer_parts, run_parts};
use crate::pretrained::jacobian;
use crate::pretrained::minilm::forward::{embed, layer_forward, run_from};
use crate::pretrained::minilm::{HEADS, LAYERS, Minilm, Weights};
use crate::relation::{compose, rollout, total_variation};
use crate::stats::{Summary, mean, spearman};

/// How many sentences each experiment uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Context pairs of `models/contexts.txt` used for the boundary condition.
    pub pairs: usize,
    /// Sentences (the first of the pairs' sentences, A then B) behind the
    /// leave-one-out effects and the composition test.
    pub effect_sentences: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    pairs: 20,
    effect_sentences: 4,
};

/// Sentences (the pairs' A sentences) behind the rollout protocols of
/// [`importance`]: mean ablation and blank-out by `[UNK]` on all of them.
pub const IMPORTANCE_SENTENCES: usize = 20;

/// The first sentences on which the trained model is also measured under zero
/// ablation and blank-out by `[MASK]` (a budget of compute, not a choice of sentences).
pub const CHOICE_SENTENCES: usize = 10;

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

/// Every pair's two sentences, `(A, B)`.
pub fn sentences() -> Vec<(Sentence, Sentence)> {
    pairs()
        .iter()
        .map(|p| (sentence(&p.a, &p.word), sentence(&p.b, &p.word)))
        .collect()
}

/// A clean run: states `h_0 … h_6` and each layer's head-mean attention.
#[derive(Clone, Debug)]
pub struct Clean {
    /// `h_l (n, 384)`, `l = 0 … 6`; `h_0` is the embeddings' output.
    pub states: Vec<DMatrix<f64>>,
    /// Layer `l`'s attention, every head: `heads[l][h] (n, n)`.
    pub heads: Vec<Vec<DMatrix<f64>>>,
}

impl Clean {
    /// Run `w` on `ids`.
    pub fn run(w: &Weights, ids: &[u32]) -> Clean {
        let t = run_from(w, 0, embed(w, ids), &[]);
        let mut states: Vec<DMatrix<f64>> = t.layers.iter().map(|l| l.input.clone()).collect();
        states.push(t.output);
        let heads = t
            .layers
            .into_iter()
            .map(|l| l.heads.into_iter().map(|h| h.weights).collect())
            .collect();
        Clean { states, heads }
    }

    /// Layer `l`'s attention averaged over heads, `(n, n)`.
    pub fn mean_attention(&self, l: usize) -> DMatrix<f64> {
        let sum = self.heads[l]
            .iter()
            .skip(1)
            .fold(self.heads[l][0].clone(), |s, a| s + a);
        sum / HEADS as f64
    }
}

/// `x` with row `j` replaced by the mean row (mean ablation of token `j`).
/// Introduced in chapter 4.
///
/// ```
/// use attention_geometry::experiment::relations::trained::mean_ablate;
/// use nalgebra::dmatrix;
/// let y = mean_ablate(&dmatrix![1.0, 2.0; 3.0, 6.0], 0);
/// assert_eq!(y, dmatrix![2.0, 4.0; 3.0, 6.0]);
/// ```
pub fn mean_ablate(x: &DMatrix<f64>, j: usize) -> DMatrix<f64> {
    let mut y = x.clone();
    y.set_row(j, &x.row_mean());
    y
}

/// `e` with each row divided by its sum: an arrow of FinStoch for `e ≥ 0`.
///
/// ```
/// use attention_geometry::experiment::relations::trained::row_normalise;
/// use attention_geometry::relation::is_stochastic;
/// use nalgebra::dmatrix;
/// let p = row_normalise(&dmatrix![1.0, 3.0; 2.0, 2.0]);
/// assert!(is_stochastic(&p, 1e-12) && (p[(0, 1)] - 0.75).abs() < 1e-12);
/// ```
pub fn row_normalise(e: &DMatrix<f64>) -> DMatrix<f64> {
    let mut p = e.clone();
    for mut r in p.row_iter_mut() {
        let s = r.sum();
        r /= s;
    }
    p
}

/// `n` copies of `x` stacked, copy `j` with token `j` mean-ablated: `(n·n, 384)`.
pub fn ablations(x: &DMatrix<f64>) -> DMatrix<f64> {
    let n = x.nrows();
    let mut stack = DMatrix::zeros(n * n, x.ncols());
    for j in 0..n {
        stack.rows_mut(j * n, n).copy_from(&mean_ablate(x, j));
    }
    stack
}

/// Column `j` of the effect: `‖clean_i − copy j of stacked_i‖` for every row `i`.
fn effect(clean: &DMatrix<f64>, stacked: &DMatrix<f64>) -> DMatrix<f64> {
    let n = clean.nrows();
    DMatrix::from_fn(n, n, |i, j| (clean.row(i) - stacked.row(j * n + i)).norm())
}

/// Leave-one-out effects of the input tokens: `effect[m − 1][(i, j)] =
/// ‖h_m(i) − h_m(i | h_0(j) ← mean)‖`, `m = 1 … 6`, diagonal included; the `n`
/// ablations run as one stack.
pub fn input_effects(w: &Weights, clean: &Clean) -> Vec<DMatrix<f64>> {
    effects_of(clean, &ablation_parts(w, clean))
}

/// The mean-ablation stack of [`ablations`] run through every layer.
fn ablation_parts(w: &Weights, clean: &Clean) -> Vec<Parts> {
    let n = clean.states[0].nrows();
    run_parts(w, 0, ablations(&clean.states[0]), n, &vec![vec![]; n])
}

/// [`input_effects`] read off the ablation stack's layers.
fn effects_of(clean: &Clean, parts: &[Parts]) -> Vec<DMatrix<f64>> {
    parts
        .iter()
        .enumerate()
        .map(|(m, p)| effect(&clean.states[m + 1], &p.output))
        .collect()
}

/// The input effects of [`input_effects`] carried instead by the composite
/// linearisation at the clean states, `J_m ⋯ J_1 (h̄_0 − h_0(j))`:
/// `(effect[m − 1], relative error[m − 1])`, the error being
/// `‖δ_lin − δ_true‖ / ‖δ_true‖` over every row of every ablation; `parts`:
/// the mean-ablation stack run through every layer.
pub fn linearised_effects(w: &Weights, clean: &Clean, parts: &[Parts]) -> Vec<(DMatrix<f64>, f64)> {
    let x0 = &clean.states[0];
    let n = x0.nrows();
    // v: copy j is zero but for row j, h̄_0 − h_0(j)
    let mut v = ablations(x0);
    for j in 0..n {
        let mut copy = v.rows_mut(j * n, n);
        copy -= x0;
    }
    jacobian::composed(w, &clean.states, &v)
        .into_iter()
        .zip(parts)
        .enumerate()
        .map(|(m, (lin, p))| {
            let h = &clean.states[m + 1];
            let mut truth = p.output.clone();
            for j in 0..n {
                let mut copy = truth.rows_mut(j * n, n);
                copy -= h;
            }
            let e = DMatrix::from_fn(n, n, |i, j| lin.row(j * n + i).norm());
            (e, (&lin - &truth).norm() / truth.norm())
        })
        .collect()
}

/// One-layer effects: `step[l][(i, j)] = ‖h_{l+1}(i) − layer_l(h_l, j ← mean)(i)‖`.
pub fn layer_effects(w: &Weights, clean: &Clean) -> Vec<DMatrix<f64>> {
    (0..LAYERS)
        .map(|l| {
            let n = clean.states[l].nrows();
            let p = layer_parts(
                &w.layers[l],
                &ablations(&clean.states[l]),
                n,
                &vec![vec![]; n],
            );
            effect(&clean.states[l + 1], &p.output)
        })
        .collect()
}

/// Mean over query rows `i` (words, not `[CLS]`/`[SEP]`) of Spearman ρ
/// between row `i` of `a` and of `b` over keys `j ≠ i` (`sinks`: with the
/// specials among the keys).
pub fn row_agreement(a: &DMatrix<f64>, b: &DMatrix<f64>, sinks: bool) -> f64 {
    let n = a.nrows();
    let word = |j: usize| j != 0 && j != n - 1;
    let rhos: Vec<f64> = (0..n)
        .filter(|&i| word(i))
        .map(|i| {
            let keys: Vec<usize> = (0..n).filter(|&j| j != i && (sinks || word(j))).collect();
            let pick = |m: &DMatrix<f64>| keys.iter().map(|&j| m[(i, j)]).collect::<Vec<_>>();
            spearman(&pick(a), &pick(b))
        })
        .collect();
    mean(&rhos)
}

/// What one sentence measures; vectors run over depth `m = 1 … 6`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Attribution {
    /// ρ(layer m's raw head-mean attention, effect on h_m), keys with sinks.
    pub rho_raw: Vec<f64>,
    /// ρ(rollout through layer m, effect on h_m), keys with sinks.
    pub rho_rollout: Vec<f64>,
    /// The same two without `[CLS]`/`[SEP]` among the keys.
    pub rho_raw_words: Vec<f64>,
    pub rho_rollout_words: Vec<f64>,
    /// TV between the measured arrow `P^{0→m}` and the composite of measured one-layer arrows.
    pub tv_composite: Vec<f64>,
    /// TV between `P^{0→m}` and the effects carried by the composite linearisation.
    pub tv_linearised: Vec<f64>,
    /// `‖δ_lin − δ_true‖ / ‖δ_true‖`, the composite linearisation against the stack.
    pub linear_error: Vec<f64>,
    /// TV between `P^{0→m}` and the rollout through layer m.
    pub tv_rollout: Vec<f64>,
    /// TV between `P^{0→m}` and the uniform arrow.
    pub tv_uniform: Vec<f64>,
    /// Per layer: mean over heads of TV(A_l on its own input, A_l on `h_0`).
    pub path_tv: Vec<f64>,
    /// Largest `|row sum − 1|` or negative entry over every head and rollout.
    pub stochastic_gap: f64,
}

/// Measure one sentence.
pub fn attribution(w: &Weights, ids: &[u32]) -> Attribution {
    let clean = Clean::run(w, ids);
    let n = ids.len();
    let parts = ablation_parts(w, &clean);
    let effects = effects_of(&clean, &parts);
    let steps: Vec<DMatrix<f64>> = layer_effects(w, &clean).iter().map(row_normalise).collect();
    let raw: Vec<DMatrix<f64>> = (0..LAYERS).map(|l| clean.mean_attention(l)).collect();
    let uniform = DMatrix::from_element(n, n, 1.0 / n as f64);
    let mut a = Attribution {
        rho_raw: vec![],
        rho_rollout: vec![],
        rho_raw_words: vec![],
        rho_rollout_words: vec![],
        tv_composite: vec![],
        tv_linearised: vec![],
        linear_error: vec![],
        tv_rollout: vec![],
        tv_uniform: vec![],
        path_tv: vec![],
        stochastic_gap: 0.0,
    };
    let linearised = linearised_effects(w, &clean, &parts);
    let mut composite = DMatrix::identity(n, n);
    for m in 1..=LAYERS {
        let (e, r) = (&effects[m - 1], rollout(&raw[..m]));
        a.rho_raw.push(row_agreement(&raw[m - 1], e, true));
        a.rho_rollout.push(row_agreement(&r, e, true));
        a.rho_raw_words.push(row_agreement(&raw[m - 1], e, false));
        a.rho_rollout_words.push(row_agreement(&r, e, false));
        // C_m = Q_m ∘ C_{m−1}: rows at depth m, columns input tokens
        composite = compose(&steps[m - 1], &composite);
        let p = row_normalise(e);
        a.tv_composite.push(total_variation(&p, &composite));
        let (lin, error) = &linearised[m - 1];
        a.tv_linearised
            .push(total_variation(&p, &row_normalise(lin)));
        a.linear_error.push(*error);
        a.tv_rollout.push(total_variation(&p, &r));
        a.tv_uniform.push(total_variation(&p, &uniform));
        a.stochastic_gap = a.stochastic_gap.max(gap(&r));
    }
    for l in 0..LAYERS {
        let (_, on_prompt) = layer_forward(&w.layers[l], l, &clean.states[0], &[]);
        let tvs: Vec<f64> = (0..HEADS)
            .map(|h| total_variation(&clean.heads[l][h], &on_prompt.heads[h].weights))
            .collect();
        a.path_tv.push(mean(&tvs));
        for h in &clean.heads[l] {
            a.stochastic_gap = a.stochastic_gap.max(gap(h));
        }
    }
    a
}

/// Largest deviation of `m` from a stochastic matrix.
fn gap(m: &DMatrix<f64>) -> f64 {
    let rows = m
        .row_iter()
        .map(|r| (r.sum() - 1.0).abs())
        .fold(0.0, f64::max);
    rows.max(-m.min())
}

/// One model's findings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    pub attribution: Vec<Attribution>,
    /// The rollout protocols on the first [`IMPORTANCE_SENTENCES`] pairs' A sentences.
    pub importance: Vec<importance::Importance>,
    /// Pair `p`: the word in A against the word in B (only the context changed).
    pub context: Vec<Change>,
    /// Pair `p`: the word in A against pair `p + 1`'s word in its A (unrelated sentences).
    pub unrelated: Vec<Change>,
}

impl ModelFindings {
    /// Run one model.
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let w = model.weights();
        let s = &sentences()[..setup.pairs];
        let views: Vec<(WordView, WordView)> = s
            .iter()
            .map(|(a, b)| (word_view(w, a), word_view(w, b)))
            .collect();
        let texts = s.iter().map(|p| &p.0).chain(s.iter().map(|p| &p.1));
        let attribution = crate::parallel::map(0..setup.effect_sentences as u64, |i| {
            attribution(
                w,
                &texts.clone().nth(i as usize).expect("enough sentences").ids,
            )
        });
        let all = sentences();
        let importance = crate::parallel::map(0..IMPORTANCE_SENTENCES as u64, |i| {
            use importance::Counterfactual::{Mask, Mean, Unk, Zero};
            let every = model == Model::Trained && (i as usize) < CHOICE_SENTENCES;
            let run: &[_] = if every {
                &[Mean, Zero, Unk, Mask]
            } else {
                &[Mean, Unk]
            };
            importance::importance(w, &all[i as usize].0, run)
        });
        let p = views.len();
        ModelFindings {
            attribution,
            importance,
            context: views.iter().map(|(a, b)| change(a, b)).collect(),
            unrelated: (0..p)
                .map(|i| change(&views[i].0, &views[(i + 1) % p].0))
                .collect(),
        }
    }

    /// Summary over sentences of one per-sentence number.
    pub fn over_sentences(&self, f: impl Fn(&Attribution) -> f64) -> Summary {
        Summary::of(&self.attribution.iter().map(f).collect::<Vec<_>>())
    }

    /// Summary over pairs of one number of a change.
    pub fn over_pairs(changes: &[Change], f: impl Fn(&Change) -> f64) -> Summary {
        Summary::of(&changes.iter().map(f).collect::<Vec<_>>())
    }
}

/// Chapter 4's trained-model findings, trained and random.
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
    fn contexts_parse_and_each_word_is_one_token() {
        let s = sentences();
        assert_eq!(s.len(), BOOK.pairs);
        assert!(s.iter().all(|(a, b)| a.tokens[a.word] == b.tokens[b.word]));
    }

    #[test]
    fn stacked_ablation_matches_one_run() {
        let w = Model::Trained.weights();
        let ids = &sentences()[0].0.ids;
        let clean = Clean::run(w, ids);
        let e = input_effects(w, &clean);
        let j = 2;
        let alone = run_from(w, 0, mean_ablate(&clean.states[0], j), &[]).output;
        let col: Vec<f64> = (0..ids.len())
            .map(|i| (clean.states[LAYERS].row(i) - alone.row(i)).norm())
            .collect();
        assert!((0..ids.len()).all(|i| (e[LAYERS - 1][(i, j)] - col[i]).abs() < 1e-9));
    }
}
