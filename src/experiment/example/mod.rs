//! The running example of chapters 1–5: one word in two sentences
//! (`models/contexts.txt`: `bank` by a river and `bank` downtown), read by
//! both pretrained models, with each chapter's quantity for the word's row.
//! Written once over [`Transformer`]; in the decoder the word sees only the
//! tokens before it.
//!
//! ```text
//! ℓ = L/2, its head h: the median of ℓ's heads by ρ_h (mean over the two sentences)
//! ρ_h    = Spearman over the word's visible non-special keys j of
//!          cos(x_w, x_j) (x = ℓ's input stream) and s_h[w, j] = q_w·k_j/√d_k
//! ch. 1  raw_j = cos(x_w, x_j)          score_j = s_h[w, j]
//! ch. 2  weight_j = α_h[w, j]           carried_j = ‖α_h[w, j] f(x_j)‖,  f(x_j) = v_j W_O,h
//! ch. 3  heads[g][j] = α_g[w, j]        every head g of layer ℓ
//! ch. 4  last_j = Ā_L[w, j]             rollout_j = R[w, j],  R = (½I + ½Ā_L) ⋯ (½I + ½Ā_1)
//! ch. 5  update[l][i] = ‖h_{l+1}(i) − h_l(i)‖ / ‖h_l(i)‖
//!        drift[l] = 1 − cos(h_l^A(w), h_l^B(w)),   l = 0 … L
//! ```
//! (`Ā_l`: layer `l`'s weights averaged over its heads.)
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use crate::experiment::fixed_points::trained::stream_of;
use crate::experiment::relations::trained::importance::head_mean;
use crate::experiment::relations::trained::{Sentence, cosine_distance, find, pairs};
use crate::pretrained::corpus::Model;
use crate::pretrained::trace::Trace;
use crate::pretrained::transformer::{Architecture, ByArch, Mask, Transformer};
use crate::relation::rollout;
use crate::stats::{mean, spearman};

mod report;

pub use report::measures;

/// Which word of `models/contexts.txt` the example follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub word: &'static str,
}

/// The example the book follows.
pub const BOOK: Setup = Setup { word: "bank" };

/// One sentence as one model reads it, the word's row of every quantity.
///
/// # Shapes
/// `raw, score, weight, carried, last, rollout`: one entry per key the word
/// sees, `seen` of them; `heads`: one such row per head of the layer;
/// `update`: one row of `tokens.len()` per layer.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reading {
    pub text: String,
    /// The tokens as the model spells them (`[CLS]`, `Ġbank`).
    pub tokens: Vec<String>,
    /// The word's position.
    pub word: usize,
    /// Keys the word's query sees: every token, or under a causal mask `word + 1`.
    pub seen: usize,
    /// Which tokens the model names as sinks ([`Transformer::special`]).
    pub special: Vec<bool>,
    pub raw: Vec<f64>,
    pub score: Vec<f64>,
    pub weight: Vec<f64>,
    pub carried: Vec<f64>,
    pub heads: Vec<Vec<f64>>,
    pub last: Vec<f64>,
    pub rollout: Vec<f64>,
    pub update: Vec<Vec<f64>>,
}

impl Reading {
    /// The share of `row` on the model's sinks.
    pub fn on_special(&self, row: &[f64]) -> f64 {
        let total: f64 = row.iter().sum();
        let sunk: f64 = row
            .iter()
            .zip(&self.special)
            .filter(|(_, s)| **s)
            .map(|(x, _)| x)
            .sum();
        sunk / total
    }

    /// How many different keys are some head's strongest key for the word:
    /// among every key it sees, or with the model's sinks left out.
    pub fn partners(&self, sinks: bool) -> usize {
        let keys = |row: &Vec<f64>| (0..row.len()).filter(|&j| sinks || !self.special[j]);
        let mut best: Vec<usize> = self
            .heads
            .iter()
            .filter_map(|row| crate::stats::argmax(keys(row), |j| row[j]))
            .collect();
        best.sort_unstable();
        best.dedup();
        best.len()
    }
}

/// One model's reading of the pair.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Example {
    /// The layer of chapters 1–3, `L/2`.
    pub layer: usize,
    /// The head of chapters 1 and 2: the median of `rho`.
    pub head: usize,
    /// `rho[g]`: head `g`'s ρ between raw cosine and score, mean over the sentences.
    pub rho: Vec<f64>,
    /// Sentence A, then B.
    pub sentences: Vec<Reading>,
    /// `1 − cos` between the word's states in A and in B, depth `0 … L`.
    pub drift: Vec<f64>,
}

/// Spearman ρ over the word's visible non-special keys between the raw
/// cosine and head `h`'s scores in the recorded layer `l`.
fn agreement(m: &dyn Transformer, s: &Sentence, t: &Trace, l: usize, h: usize) -> f64 {
    let special = m.special(&s.tokens);
    let (raw, score) = (cosines(s, t, l), &t.layers[l].heads[h].scores);
    let keys: Vec<usize> = (0..seen(m, s)).filter(|&j| !special[j]).collect();
    let pick = |f: &dyn Fn(usize) -> f64| keys.iter().map(|&j| f(j)).collect::<Vec<_>>();
    spearman(&pick(&|j| raw[j]), &pick(&|j| score[(s.word, j)]))
}

/// How many keys the word's query sees.
fn seen(m: &dyn Transformer, s: &Sentence) -> usize {
    match m.mask() {
        Mask::Bidirectional => s.tokens.len(),
        Mask::Causal => s.word + 1,
    }
}

/// `cos(x_w, x_j)` for every token `j` of layer `l`'s input stream.
fn cosines(s: &Sentence, t: &Trace, l: usize) -> Vec<f64> {
    let x = &t.layers[l].input;
    let at = |i: usize| x.row(i).iter().cloned().collect::<Vec<f64>>();
    let w = at(s.word);
    (0..x.nrows())
        .map(|j| 1.0 - cosine_distance(&w, &at(j)))
        .collect()
}

/// The word's row of `m`, its first `seen` entries.
fn row(m: &DMatrix<f64>, s: &Sentence, seen: usize) -> Vec<f64> {
    (0..seen).map(|j| m[(s.word, j)]).collect()
}

/// Read sentence `s` off its trace `t` with layer `l` and head `h`.
fn read(m: &dyn Transformer, text: &str, s: &Sentence, t: &Trace, l: usize, h: usize) -> Reading {
    let n = seen(m, s);
    let layer = &t.layers[l];
    let head = &layer.heads[h];
    let f = m.value_out(l, h, &head.v);
    let weight = row(&head.weights, s, n);
    let means: Vec<DMatrix<f64>> = t.layers.iter().map(head_mean).collect();
    Reading {
        text: text.into(),
        tokens: s.tokens.clone(),
        word: s.word,
        seen: n,
        special: m.special(&s.tokens),
        raw: cosines(s, t, l)[..n].to_vec(),
        score: row(&head.scores, s, n),
        // ‖α_wj f(x_j)‖ = α_wj ‖f(x_j)‖
        carried: (0..n).map(|j| weight[j] * f.row(j).norm()).collect(),
        weight,
        heads: layer.heads.iter().map(|g| row(&g.weights, s, n)).collect(),
        last: row(&means[means.len() - 1], s, n),
        rollout: row(&rollout(&means), s, n),
        update: stream_of(&t.states(), 0).0,
    }
}

impl Example {
    /// Read the pair of `setup.word` with `arch`'s trained weights.
    ///
    /// # Panics
    /// If the word is not in `models/contexts.txt` or is not one token once in
    /// each of its sentences as `arch` tokenises them.
    pub fn run(arch: Architecture, setup: Setup) -> Example {
        let m = arch.with(Model::Trained);
        let pair = pairs()
            .into_iter()
            .find(|p| p.word == setup.word)
            .unwrap_or_else(|| panic!("'{}' is not in contexts.txt", setup.word));
        let texts = [pair.a, pair.b];
        let sentences = texts.clone().map(|t| {
            find(m, &t, &pair.word)
                .unwrap_or_else(|| panic!("'{}' is not one token of '{t}'", pair.word))
        });
        let traces = sentences.clone().map(|s| m.run(&s.ids));
        let layer = m.layers() / 2;
        let rho: Vec<f64> = (0..m.heads())
            .map(|h| {
                let both = [0, 1].map(|k| agreement(m, &sentences[k], &traces[k], layer, h));
                mean(&both)
            })
            .collect();
        // the lower median: the middle head of the layer by ρ
        let mut order: Vec<usize> = (0..rho.len()).collect();
        order.sort_by(|&a, &b| rho[a].total_cmp(&rho[b]));
        let head = order[(order.len() - 1) / 2];
        let states = traces.clone().map(|t| t.states());
        let drift = (0..states[0].len())
            .map(|l| {
                let at = |k: usize| {
                    let s: &Sentence = &sentences[k];
                    states[k][l]
                        .row(s.word)
                        .iter()
                        .cloned()
                        .collect::<Vec<f64>>()
                };
                cosine_distance(&at(0), &at(1))
            })
            .collect();
        Example {
            layer,
            head,
            rho,
            sentences: (0..2)
                .map(|k| read(m, &texts[k], &sentences[k], &traces[k], layer, head))
                .collect(),
            drift,
        }
    }
}

findings! {
    /// The example in both models, computed once per process (read from `findings/`).
    pub fn book() -> ByArch<Example> = cached(BOOK => ByArch::run(|arch| Example::run(arch, BOOK)))
}
