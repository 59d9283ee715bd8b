//! One answer for chapters 3 and 5, asked of both models: does later computation
//! cancel part of a change to one head, or to a whole attention layer, more
//! than the same architecture at its reference initialisation does? Each
//! change's total effect against its direct effect
//! ([`Transformer::effects`], [`crate::pretrained::repair`]), one code path for
//! the encoder and the decoder; what differs is data ([`Setup`]) and the
//! model's own direct path (its [`Norm`](crate::pretrained::transformer::Norm)).
//!
//! ```text
//! sentence s, layer ℓ ≡ s (mod stride), ℓ < L − 1, head h = (s + 7ℓ) mod H
//! head zeroed       δ = −w_h                      head mean   δ = w̄_h − w_h   (w̄_h: mean write)
//! head symmetrised  δ = (α'_h − α_h) f            (α' from the symmetric part of W_QK;
//!                                                  defined without a causal mask only)
//! head resample     δ = w_h(s')[..n] − w_h(s)     (the head's write on a donor s')
//! layer mean        δ = attn̄ − attn               layer resample  δ = attn(s')[..n] − attn
//!                   (the whole attention sublayer: McGrath et al.'s protocol)
//! kept              κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖², averaged over the donors of a resample;
//!                   repair r = 1 − κ; also read without the first token's row
//! ```
//!
//! Donors (McGrath et al. resample from other inputs of the dataset): the
//! sentences of the same token length `n`, nearest after `s` in corpus order,
//! then the shortest longer ones, of which the first `n` positions stand in;
//! never `s` or its pair partner. In a causal model the first `n` positions of
//! a longer donor are exactly its run on that prefix.
//!
//! ```text
//!                   MiniLM (encoder)              SmolLM2 (decoder)
//! sentences         20 corpus sentences           6 context sentences
//! layers            0–4, every one                0–28, every other per sentence
//! changes           all six                       head zeroed, head mean, layer resample
//! donors            3                             1
//! mean write over   the 60 corpus sentences       the 6 measured sentences
//! ```
//! The decoder's changes and donors are fewer to keep its reruns (29 blocks of
//! 576 at most, per change) within the chapter's compute budget.
//!
//! Introduced in chapter 3.

pub mod setup;
pub mod verdict;

pub use setup::{MINILM, Means, SMOLLM2, Setup, Texts, setup};

use nalgebra::{DMatrix, DVector};

use crate::parallel;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::repair::{Effects, kept, mean_writes};
use crate::pretrained::trace::Trace;
use crate::pretrained::transformer::{Architecture, Transformer};
use crate::stats::{median, share};

/// How the stream is changed; the index is the change's everywhere.
pub const CHANGES: [&str; 6] = [
    "head zeroed",
    "head mean-ablated",
    "head W_QK symmetrised",
    "head resample-ablated",
    "attention layer mean-ablated",
    "attention layer resample-ablated",
];
/// Indices of [`CHANGES`].
pub const HEAD_ZEROED: usize = 0;
pub const HEAD_SYMMETRISED: usize = 2;
pub const LAYER_MEAN: usize = 4;
pub const LAYER_RESAMPLE: usize = 5;

/// One change's `κ` under each reading.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Kept {
    /// On every read-out state, every norm on the direct path frozen.
    pub states: f64,
    /// The same on every state but the first token's (the decoder's sink,
    /// the encoder's `[CLS]`).
    pub later: f64,
    /// The same with every norm on the direct path recomputed (the encoder only).
    pub recomputed: Option<f64>,
    /// On the model's output: the pooled embedding's turn, or the logit of
    /// each position's clean top-1 token.
    pub output: f64,
    /// `‖Δ_tot‖ / ‖Δ_dir‖` on the read-out states.
    pub ratio: f64,
}

fn measure(e: &Effects) -> Kept {
    let [t, d] = &e.output;
    Kept {
        states: kept(&e.total, &e.direct),
        later: kept(&rest(&e.total), &rest(&e.direct)),
        recomputed: e.recomputed.as_ref().map(|r| kept(&e.total, r)),
        output: t.dot(d) / d.norm_squared(),
        ratio: e.total.norm() / e.direct.norm(),
    }
}

/// Rows `1..` of a read-out, `(n, d)` → `(n − 1, d)`.
fn rest(m: &DMatrix<f64>) -> DMatrix<f64> {
    m.rows(1, m.nrows() - 1).into_owned()
}

/// The mean of `ks`, field by field (κ averaged over resamples).
fn average(ks: &[Kept]) -> Kept {
    let m = ks.len() as f64;
    let mean = |f: fn(&Kept) -> f64| ks.iter().map(f).sum::<f64>() / m;
    Kept {
        states: mean(|k| k.states),
        later: mean(|k| k.later),
        recomputed: ks[0]
            .recomputed
            .map(|_| mean(|k| k.recomputed.unwrap_or(f64::NAN))),
        output: mean(|k| k.output),
        ratio: mean(|k| k.ratio),
    }
}

/// The `k` donors of sentence `s` among sentences of token lengths `lengths`:
/// the same length first, nearest after `s` in corpus order (cyclically), then
/// the shortest longer ones; never `s` or `partner`.
///
/// # Panics
/// If fewer than `k` other sentences are at least as long as `s`.
pub fn donors(lengths: &[usize], s: usize, partner: usize, k: usize) -> Vec<usize> {
    let (n, total) = (lengths[s], lengths.len());
    let mut c: Vec<usize> = (0..total)
        .filter(|&j| j != s && j != partner && lengths[j] >= n)
        .collect();
    // order: length excess, then distance forward in corpus order (cyclic)
    c.sort_by_key(|&j| (lengths[j] - n, (j + total - s) % total));
    assert!(
        c.len() >= k,
        "donors: sentence {s} ({n} tokens) has only {} longer or equal donors",
        c.len()
    );
    c.truncate(k);
    c
}

/// The head of layer `l` measured on sentence `s`, of `heads` per layer.
pub fn head(s: usize, l: usize, heads: usize) -> usize {
    (s + 7 * l) % heads
}

/// One sentence's measurements.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sentence {
    /// The layers measured.
    pub layers: Vec<usize>,
    /// `[i][change]` for layer `layers[i]` (order of [`CHANGES`]; `None`: not made).
    pub kept: Vec<[Option<Kept>; 6]>,
    /// The donor sentences of the resample ablations.
    pub donors: Vec<usize>,
    /// Whether every donor has the sentence's own length.
    pub same_length: bool,
}

/// Everything one sentence's changes are made from.
struct Context<'a> {
    m: &'a dyn Transformer,
    setup: &'a Setup,
    /// Clean runs, `Some` for every sentence measured, donated or averaged.
    runs: &'a [Option<Trace>],
    lengths: &'a [usize],
    /// `(heads [l·H + h], layers [l])`.
    means: &'a (Vec<DVector<f64>>, Vec<DVector<f64>>),
}

impl Context<'_> {
    fn run(&self, s: usize) -> &Trace {
        self.runs[s]
            .as_ref()
            .expect("every needed sentence was run")
    }

    fn donors(&self, s: usize) -> Vec<usize> {
        let p = self.setup.texts.partner(s, self.lengths.len());
        donors(self.lengths, s, p, self.setup.resamples)
    }

    fn sentence(&self, s: usize) -> Sentence {
        let (m, on) = (self.m, &self.setup.changes);
        let (clean, n) = (self.run(s), self.lengths[s]);
        let donors = self.donors(s);
        let same_length = donors.iter().all(|&d| self.lengths[d] == n);
        let row = |v: &DVector<f64>| DMatrix::from_fn(n, v.len(), |_, j| v[j]);
        let stride = self.setup.stride;
        let layers: Vec<usize> = (s % stride..m.layers() - 1).step_by(stride).collect();
        let kept = layers
            .iter()
            .map(|&l| {
                let (t, h) = (&clean.layers[l], head(s, l, m.heads()));
                let (wh, attn) = (m.write(t, h), m.attention(t));
                let head_v = &t.heads[h];
                // [change] → its deltas (one, or one per donor)
                let mut deltas: [Vec<DMatrix<f64>>; 6] = Default::default();
                if on[0] {
                    deltas[0].push(-&wh);
                }
                if on[1] {
                    deltas[1].push(row(&self.means.0[l * m.heads() + h]) - &wh);
                }
                if on[2] {
                    let sym = m
                        .symmetric_weights(t, h)
                        .expect("the symmetrised change is made only where it is defined");
                    deltas[2].push((sym - &head_v.weights) * m.value_out(l, h, &head_v.v));
                }
                for &d in &donors {
                    let dl = &self.run(d).layers[l];
                    if on[3] {
                        deltas[3].push(m.write(dl, h).rows(0, n) - &wh);
                    }
                    if on[5] {
                        deltas[5].push(m.attention(dl).rows(0, n) - &attn);
                    }
                }
                if on[4] {
                    deltas[4].push(row(&self.means.1[l]) - &attn);
                }
                let counts = deltas.each_ref().map(Vec::len);
                let flat: Vec<DMatrix<f64>> = deltas.into_iter().flatten().collect();
                per_change(counts, m.effects(clean, l, &flat).iter().map(measure))
            })
            .collect();
        Sentence {
            layers,
            kept,
            donors,
            same_length,
        }
    }
}

/// Each change's `κ` averaged over its `counts[change]` deltas, from the
/// measured deltas in order (`None` for a change not made).
fn per_change(counts: [usize; 6], mut ks: impl Iterator<Item = Kept>) -> [Option<Kept>; 6] {
    counts.map(|c| {
        let own: Vec<Kept> = ks.by_ref().take(c).collect();
        (!own.is_empty()).then(|| average(&own))
    })
}

/// Both models' sentences for one architecture.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub sides: ByModel<Vec<Sentence>>,
}

/// How `κ` is read from one change.
pub type Read = fn(&Kept) -> f64;

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let texts = setup.texts.all();
        let sides = ByModel::run(|model| {
            let m = setup.arch.with(model);
            let ids: Vec<Vec<u32>> = texts
                .iter()
                .map(|t| m.encode(t).unwrap_or_else(|e| panic!("{e}")).ids)
                .collect();
            let lengths: Vec<usize> = ids.iter().map(Vec::len).collect();
            // the sentences measured, their donors and those the means average over
            let mut needed = vec![false; texts.len()];
            for s in 0..setup.sentences {
                needed[s] = true;
                let p = setup.texts.partner(s, texts.len());
                for d in donors(&lengths, s, p, setup.resamples) {
                    needed[d] = true;
                }
            }
            if setup.means == Means::All {
                needed.fill(true);
            }
            let runs: Vec<Option<Trace>> = parallel::map(0..texts.len() as u64, |s| {
                needed[s as usize].then(|| m.run(&ids[s as usize]))
            });
            let averaged: Vec<&Trace> = match setup.means {
                Means::All => runs.iter().flatten().collect(),
                Means::Measured => runs[..setup.sentences].iter().flatten().collect(),
            };
            let means = mean_writes(m, &averaged);
            let cx = Context {
                m,
                setup: &setup,
                runs: &runs,
                lengths: &lengths,
                means: &means,
            };
            parallel::map(0..setup.sentences as u64, |s| cx.sentence(s as usize))
        });
        Findings { setup, sides }
    }

    /// `κ` of every change `change` of `model`, read by `f`.
    ///
    /// # Panics
    /// If the change was not made.
    pub fn all(&self, model: Model, change: usize, f: Read) -> Vec<f64> {
        self.sides
            .model(model)
            .iter()
            .flat_map(|s| s.kept.iter())
            .map(|k| f(k[change].as_ref().expect("a change this setup makes")))
            .collect()
    }

    /// Median `κ` of change `change` at each layer measured, `0..`, read by `f`.
    pub fn by_layer(&self, model: Model, change: usize, f: Read) -> Vec<f64> {
        let side = self.sides.model(model);
        let top = side
            .iter()
            .flat_map(|s| s.layers.iter())
            .max()
            .map_or(0, |l| l + 1);
        (0..top)
            .map(|l| {
                let ks: Vec<f64> = side
                    .iter()
                    .flat_map(|s| s.layers.iter().zip(&s.kept))
                    .filter(|(sl, _)| **sl == l)
                    .filter_map(|(_, k)| k[change].as_ref().map(f))
                    .collect();
                median(&ks)
            })
            .collect()
    }

    /// How many heads (and layer ablations) were measured per model.
    pub fn heads(&self) -> usize {
        self.sides.trained.iter().map(|s| s.layers.len()).sum()
    }

    /// The highest layer measured.
    pub fn last_layer(&self) -> usize {
        self.sides
            .trained
            .iter()
            .flat_map(|s| s.layers.iter())
            .copied()
            .max()
            .unwrap_or(0)
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

    /// Share of the measured sentences whose donors all have their length `n`
    /// (the rest use the first `n` positions of a longer donor for some).
    pub fn same_length_share(&self) -> f64 {
        share(self.sides.trained.iter().map(|s| s.same_length))
    }
}

findings! {
    fn minilm() -> Findings = cached("minilm", setup(Architecture::Minilm) => {
        Findings::run(setup(Architecture::Minilm))
    })
}

findings! {
    fn smollm2() -> Findings = cached("smollm2", setup(Architecture::Smollm2) => {
        Findings::run(setup(Architecture::Smollm2))
    })
}

/// The book's findings of `arch`, computed once per process.
pub fn book(arch: Architecture) -> &'static Findings {
    match arch {
        Architecture::Minilm => minilm(),
        Architecture::Smollm2 => smollm2(),
    }
}
