//! One answer for chapters 3 and 5: does later computation in MiniLM cancel part of
//! a change to one head, more than the same architecture with random weights does?
//! Each change's total effect against its direct effect ([`crate::pretrained::repair`]),
//! under every choice a referee would vary: how the head is changed (zeroed,
//! mean-ablated, its `W_QK` symmetrised), the direct path's LayerNorms (frozen or
//! recomputed), and the target (all last hidden states, or the pooled embedding's turn).
//!
//! ```text
//! sentence s, layer ℓ = 0…4, head h = (s + 7ℓ) mod 12
//! zero       δ = −w_h                       mean   δ = w̄_h − w_h   (w̄_h: mean write over the corpus)
//! symmetric  δ = (α'_h − α_h) v_h W_O,hᵀ     (α' from the symmetric part of W_QK)
//! layer      δ = attn̄ − attn                (the whole attention sublayer mean-ablated:
//!                                            McGrath et al.'s protocol, for the replication)
//! kept       κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖²    repair r = 1 − κ
//! ```

use std::sync::OnceLock;

use nalgebra::DMatrix;

use super::turn;
use crate::experiment::cache;
use crate::experiment::fixed_points::trained::symmetric_weights;
use crate::parallel;
use crate::pretrained::corpus::{ByModel, Model, Run, runs};
use crate::pretrained::intervention::value_out;
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::pretrained::repair::{Effects, effects, kept, mean_writes, write};
use crate::stats::{median, share};

/// How many corpus sentences, per model.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub sentences: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup { sentences: 20 };

/// How a head is changed.
pub const CHANGES: [&str; 3] = ["zeroed", "mean-ablated", "W_QK symmetrised"];
/// The direct path's LayerNorms.
pub const NORMS: [&str; 2] = ["frozen", "recomputed"];

/// One change's `κ` under each choice.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Kept {
    /// `[norm]`, on all last hidden states.
    pub states: [f64; 2],
    /// `[norm]`, on `g(Δ)`, the pooled embedding's turn.
    pub pooled: [f64; 2],
    /// `[norm]`, `‖Δ_tot‖ / ‖Δ_dir‖` on all last hidden states.
    pub ratio: [f64; 2],
}

fn measure(e: &Effects, run: &Run) -> Kept {
    let emb = run.embedding();
    let g = |d: &DMatrix<f64>| turn(d, &emb);
    let (gt, dirs) = (g(&e.total), [&e.frozen, &e.recomputed]);
    Kept {
        states: dirs.map(|d| kept(&e.total, d)),
        pooled: dirs.map(|d| {
            let gd = g(d);
            gt.dot(&gd) / gd.norm_squared()
        }),
        ratio: dirs.map(|d| e.total.norm() / d.norm()),
    }
}

/// One sentence's measurements.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sentence {
    /// `[layer][change]` for the sentence's head of that layer.
    pub heads: Vec<[Kept; 3]>,
    /// `[layer]`: the whole attention sublayer mean-ablated.
    pub layers: Vec<Kept>,
}

/// The head of layer `l` measured on sentence `s`.
pub fn head(s: usize, l: usize) -> usize {
    (s + 7 * l) % HEADS
}

fn sentence(
    model: Model,
    s: usize,
    means: &(Vec<nalgebra::DVector<f64>>, Vec<nalgebra::DVector<f64>>),
) -> Sentence {
    let w = model.weights();
    let run = &runs(model)[s];
    let c = &run.clean;
    let n = run.n();
    let row = |v: &nalgebra::DVector<f64>| DMatrix::from_fn(n, v.len(), |_, j| v[j]);
    let (mut heads, mut layers) = (vec![], vec![]);
    for l in 0..LAYERS - 1 {
        let h = head(s, l);
        let wh = write(w, c, l, h);
        let sym = (symmetric_weights(&w.layers[l], &c[l].input, h) - &c[l].weights[0][h])
            * value_out(&w.layers[l], &c[l].values[0][h], h);
        let deltas = [
            -&wh,
            row(&means.0[l * HEADS + h]) - &wh,
            sym,
            row(&means.1[l]) - &c[l].attn,
        ];
        let e = effects(w, c, l, &deltas);
        heads.push([0, 1, 2].map(|k| measure(&e[k], run)));
        layers.push(measure(&e[3], run));
    }
    Sentence { heads, layers }
}

/// Both models' sentences.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub sides: ByModel<Vec<Sentence>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let sides = ByModel::run(|model| {
            let all: Vec<&[_]> = runs(model).iter().map(|r| &r.clean[..]).collect();
            let means = mean_writes(model.weights(), &all);
            parallel::map(0..setup.sentences as u64, |s| {
                sentence(model, s as usize, &means)
            })
        });
        Findings { setup, sides }
    }

    /// `κ` of every head change `change` of `model`, read by `f`.
    pub fn heads(&self, model: Model, change: usize, f: impl Fn(&Kept) -> f64) -> Vec<f64> {
        self.sides
            .model(model)
            .iter()
            .flat_map(|s| s.heads.iter().map(|k| f(&k[change])))
            .collect()
    }

    /// `κ` of every whole-layer mean ablation of `model`, read by `f`.
    pub fn layers(&self, model: Model, f: impl Fn(&Kept) -> f64) -> Vec<f64> {
        self.sides
            .model(model)
            .iter()
            .flat_map(|s| s.layers.iter().map(&f))
            .collect()
    }

    /// Repair against its null: `(median r trained − median r random, share of
    /// trained changes with r above the random median)` for one choice.
    pub fn against_null(&self, change: usize, f: impl Fn(&Kept) -> f64 + Copy) -> (f64, f64) {
        let t = self.heads(Model::Trained, change, f);
        let r = median(&self.heads(Model::Random, change, f));
        (r - median(&t), share(t.iter().map(|&k| k < r)))
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| cache::load_or_run(module_path!(), &BOOK, || Findings::run(BOOK)))
}
