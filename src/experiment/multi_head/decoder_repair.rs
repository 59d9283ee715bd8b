//! Chapter 3's self-repair asked of the decoder: does later computation in
//! SmolLM2 cancel part of a change to one head, or to a whole attention layer,
//! more than the same architecture at Llama's initialisation does?
//! Each change's total effect against its direct effect
//! ([`crate::pretrained::smollm2::repair`]).
//!
//! ```text
//! sentence s, layer ℓ ∈ 0…28 with ℓ ≡ s (mod 2), head h = (s + 7ℓ) mod 9
//! head zeroed     δ = −w_h                 head mean   δ = w̄_h − w_h   (w̄_h: mean write over the sentences)
//! layer resample  δ = attn(s')[..n] − attn   (the whole attention sublayer replaced by its
//!                 output on a donor sentence s': McGrath et al.'s protocol)
//! kept            κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖² on the normed last stream, or on the
//!                 logit of each position's clean top-1 token;  repair r = 1 − κ
//! ```
//!
//! Every other layer per sentence (alternating with the sentence) keeps the
//! reruns within the chapter's compute budget while every layer is measured.
//! The donor (McGrath et al. resample from other inputs of the dataset): the
//! context sentence of the shortest length at least `n`, nearest after `s` in
//! corpus order, never `s` or its pair partner; a causal model's first `n`
//! positions of a longer donor are exactly its run on that prefix.
//!
//! Introduced in chapter 3.

pub mod verdict;

use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};

use crate::experiment::cache;
use crate::experiment::relations::trained::pairs;
use crate::parallel;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::repair::kept;
use crate::pretrained::smollm2::repair::{Effects, effects};
use crate::pretrained::smollm2::{SmolLm2, Trace};
use crate::pretrained::transformer::Transformer;
use crate::stats::{median, share};

/// How many context sentences, per model.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub sentences: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup { sentences: 6 };

/// The layers measured: every one with a later block, `0..29`.
pub const LAYERS: usize = 29;

/// How the stream is changed (order of [`Sentence::kept`]).
pub const CHANGES: [&str; 3] = [
    "head zeroed",
    "head mean-ablated",
    "attention layer resample-ablated",
];

/// One change's `κ` under each reading.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Kept {
    /// On the normed last stream, every position.
    pub states: f64,
    /// On the logit of each position's clean top-1 token.
    pub logit: f64,
    /// `‖Δ_tot‖ / ‖Δ_dir‖` on the normed last stream.
    pub ratio: f64,
}

fn measure(e: &Effects) -> Kept {
    Kept {
        states: kept(&e.total, &e.direct),
        logit: e.total_logit.dot(&e.direct_logit) / e.direct_logit.norm_squared(),
        ratio: e.total.norm() / e.direct.norm(),
    }
}

/// One sentence's measurements.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sentence {
    /// The layers measured.
    pub layers: Vec<usize>,
    /// `[i][change]` for layer `layers[i]` (order of [`CHANGES`]).
    pub kept: Vec<[Kept; 3]>,
    /// The resample donor, an index of [`texts`].
    pub donor: usize,
}

/// The context sentences in order: every pair's A, then every B.
pub fn texts() -> Vec<String> {
    let p = pairs();
    p.iter()
        .map(|p| p.a.clone())
        .chain(p.iter().map(|p| p.b.clone()))
        .collect()
}

/// The head of layer `l` measured on sentence `s`.
pub fn head(s: usize, l: usize) -> usize {
    (s + 7 * l) % crate::pretrained::smollm2::HEADS
}

/// The donor of sentence `s` among sentences of token lengths `lengths`: the
/// shortest at least as long, nearest after `s` (cyclically); never `s` or its
/// pair partner `(s + half) mod 2·half`.
///
/// # Panics
/// If no other sentence is long enough.
pub fn donor(lengths: &[usize], s: usize) -> usize {
    let (n, total) = (lengths[s], lengths.len());
    let partner = (s + total / 2) % total;
    (0..total)
        .filter(|&j| j != s && j != partner && lengths[j] >= n)
        .min_by_key(|&j| (lengths[j] - n, (j + total - s) % total))
        .unwrap_or_else(|| panic!("donor: no sentence as long as sentence {s} ({n} tokens)"))
}

/// Mean over every token of `runs` of each head's write, `[layer·9 + head]`:
/// what mean ablation puts in its place.
fn mean_writes(m: &SmolLm2, runs: &[Trace]) -> Vec<DVector<f64>> {
    let heads = m.config.n_head;
    let mut out = vec![DVector::zeros(m.config.d_model); LAYERS * heads];
    let tokens: usize = runs.iter().map(|t| t.output.nrows()).sum();
    for t in runs {
        for l in 0..LAYERS {
            for h in 0..heads {
                out[l * heads + h] += m.write(&t.layers[l], h).row_sum().transpose();
            }
        }
    }
    for v in out.iter_mut() {
        *v /= tokens as f64;
    }
    out
}

/// Sentence `s` of `model`, given every sentence's token ids and the means.
fn sentence(
    m: &SmolLm2,
    s: usize,
    ids: &[Vec<u32>],
    clean: &Trace,
    means: &[DVector<f64>],
) -> Sentence {
    let n = ids[s].len();
    let lengths: Vec<usize> = ids.iter().map(Vec::len).collect();
    let donor = donor(&lengths, s);
    let donated = m.run(&ids[donor]);
    let row = |v: &DVector<f64>| DMatrix::from_fn(n, v.len(), |_, j| v[j]);
    let layers: Vec<usize> = (s % 2..LAYERS).step_by(2).collect();
    let kept = layers
        .iter()
        .map(|&l| {
            let h = head(s, l);
            let (wh, attn) = (m.write(&clean.layers[l], h), m.attention(&clean.layers[l]));
            let deltas = [
                -&wh,
                row(&means[l * m.config.n_head + h]) - &wh,
                m.attention(&donated.layers[l]).rows(0, n) - &attn,
            ];
            let e = effects(m, clean, l, &deltas);
            [0, 1, 2].map(|c| measure(&e[c]))
        })
        .collect();
    Sentence {
        layers,
        kept,
        donor,
    }
}

/// Both models' sentences.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub sides: ByModel<Vec<Sentence>>,
}

/// How `κ` is read from one change.
pub type Read = fn(&Kept) -> f64;

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let all = texts();
        let sides = ByModel::run(|model| {
            let m = model.smollm2();
            let ids: Vec<Vec<u32>> = all
                .iter()
                .map(|t| m.encode(t).unwrap_or_else(|e| panic!("{e}")).ids)
                .collect();
            let clean: Vec<Trace> = (0..setup.sentences).map(|s| m.run(&ids[s])).collect();
            let means = mean_writes(m, &clean);
            parallel::map(0..setup.sentences as u64, |s| {
                let s = s as usize;
                sentence(m, s, &ids, &clean[s], &means)
            })
        });
        Findings { setup, sides }
    }

    /// `κ` of every change `change` of `model`, read by `f`.
    pub fn all(&self, model: Model, change: usize, f: Read) -> Vec<f64> {
        self.sides
            .model(model)
            .iter()
            .flat_map(|s| s.kept.iter().map(move |k| f(&k[change])))
            .collect()
    }

    /// Median `κ` of change `change` at each layer `0..29`, read by `f`.
    pub fn by_layer(&self, model: Model, change: usize, f: Read) -> Vec<f64> {
        (0..LAYERS)
            .map(|l| {
                let ks: Vec<f64> = self
                    .sides
                    .model(model)
                    .iter()
                    .flat_map(|s| s.layers.iter().zip(&s.kept))
                    .filter(|(sl, _)| **sl == l)
                    .map(|(_, k)| f(&k[change]))
                    .collect();
                median(&ks)
            })
            .collect()
    }

    /// Repair against its null: `(median r trained − median r random, share of
    /// trained changes with r above the random median)` for one choice.
    pub fn against_null(&self, change: usize, f: Read) -> (f64, f64) {
        let t = self.all(Model::Trained, change, f);
        let r = median(&self.all(Model::Random, change, f));
        (r - median(&t), share(t.iter().map(|&k| k < r)))
    }

    /// Share of the trained changes `change` whose total effect along the
    /// direct one is below it (κ < 1), read by `f`.
    pub fn below_one(&self, change: usize, f: Read) -> f64 {
        share(self.all(Model::Trained, change, f).iter().map(|&k| k < 1.0))
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| cache::load_or_run(module_path!(), &BOOK, || Findings::run(BOOK)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn donors_are_long_enough_and_never_the_partner() {
        let lengths = [5, 7, 5, 6, 9, 5];
        assert_eq!(donor(&lengths, 0), 2);
        assert_eq!(donor(&lengths, 2), 0);
        assert_eq!(donor(&lengths, 3), 1);
    }

    #[test]
    fn every_layer_is_measured_and_every_change_is_finite() {
        let f = book();
        for model in Model::BOTH {
            let side = f.sides.model(model);
            let layers: Vec<usize> = side.iter().flat_map(|s| s.layers.clone()).collect();
            for l in 0..LAYERS {
                assert!(layers.contains(&l), "layer {l} not measured");
            }
            for c in 0..CHANGES.len() {
                assert!(f.all(model, c, |k| k.states).iter().all(|k| k.is_finite()));
            }
        }
    }
}
