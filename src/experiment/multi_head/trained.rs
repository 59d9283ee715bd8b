//! Chapter 3 on the trained encoder (all-MiniLM-L6-v2) against its random-weight
//! baseline: each of the 72 heads ablated alone, pruning against paraphrase
//! retrieval and word sense (the levels and the reading are
//! [`super::pruning::curve`]'s, shared with the decoder), named attention patterns, and self-repair — a head's direct effect
//! against its total effect (McGrath et al. 2023).
//!
//! ```text
//! change     1 − cos(e_ablated, e)                     per head and sentence
//! effects    g(Δ) = P⊥ mean_i Δ_i,  P⊥ = I − ê êᵀ      (the part that turns the embedding)
//! repair     r = 1 − ⟨g(Δ_tot), g(Δ_dir)⟩ / ‖g(Δ_dir)‖²   r > 0: later layers cancel, r < 0: amplify
//! share      c_k = −⟨g(Δ_k), g(Δ_dir)⟩ / ‖g(Δ_dir)‖²     sublayer k's part of r (first order)
//! ```

pub mod patterns;
pub mod roles;
pub mod senses;
pub mod sinks;
pub mod verdict;

pub use verdict::{claims, measures};

use super::pruning::curve::{levels, prunable};

use nalgebra::{DMatrix, DVector};
use patterns::{Patterns, patterns};
use roles::Score;

use crate::parallel;
use crate::pretrained::corpus::{ByModel, Model, Run, pooled, runs};
use crate::pretrained::intervention::{Stage, direct_effect, indirect, run_parts};
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::pretrained::paraphrase::{Retrieval, retrieve};
use crate::pretrained::repair::turn;
use crate::stats::{Summary, median};

/// Sizes of the real-model experiments.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// Sentences (from the corpus's start) whose 72 single-head ablations are run, per model.
    pub sweep: [usize; 2],
    /// Pairs (from the corpus's start) on which pruning is scored.
    pub prune_pairs: usize,
    /// Heads removed at each pruning step.
    pub prune_step: usize,
    /// The drop of top-1 accuracy that counts as "retrieval drops".
    pub drop: f64,
    /// A named pattern: a head whose mean weight on it exceeds this.
    pub named: f64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    sweep: [4, 2],
    prune_pairs: 30,
    prune_step: 24,
    drop: 0.1,
    named: 0.5,
};

/// One head ablated in one sentence.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ablation {
    pub layer: usize,
    pub head: usize,
    /// `1 − cos(e_ablated, e)`.
    pub change: f64,
    /// `‖g(Δ_dir)‖`.
    pub direct: f64,
    /// `⟨g(Δ_tot), g(Δ_dir)⟩ / ‖g(Δ_dir)‖`: the total effect along the direct one.
    pub total: f64,
    /// `r`, see the module docs.
    pub repair: f64,
    /// `c_k` for sublayer `k = 2ℓ + stage` (0 before the head's layer).
    pub shares: [f64; 2 * LAYERS],
    /// `‖Δ_tot − Δ_dir − Σ Δ_k‖ / ‖Δ_tot‖`: what the first-order split leaves.
    pub residual: f64,
}

/// What one model measures.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Side {
    /// Retrieval on the whole corpus, clean.
    pub retrieval: Retrieval,
    /// `1 − cos(e_k, e_partner)`, per sentence.
    pub partner_distance: Vec<f64>,
    /// Single-head ablations, `[sentence][layer·12 + head]`.
    pub ablations: Vec<Vec<Ablation>>,
    pub patterns: Patterns,
}

/// Everything the section reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub sides: ByModel<Side>,
    /// `(heads removed, retrieval on the pruning pairs)`, trained model, least important first.
    pub pruning: Vec<(usize, Retrieval)>,
    /// `(heads removed, word-sense task)`, trained model, the same order.
    pub senses: Vec<(usize, Score)>,
    /// The word-sense task on the random-weight model: every head kept, every head removed.
    pub senses_random: [Score; 2],
    /// The role task, `[model][every head kept, every head removed]`.
    pub roles: ByModel<[Score; 2]>,
}

/// The 72 single-head ablations of one sentence.
pub fn sweep(model: Model, run: &Run) -> Vec<Ablation> {
    let w = &model.minilm().weights;
    let (n, e) = (run.n(), run.embedding());
    let last = &run.clean[LAYERS - 1].output;
    let mut out = Vec::new();
    for l in 0..LAYERS {
        // 12 variants of the sentence, variant h without head h of layer l: (12·n, 384)
        let x = &run.clean[l].input;
        let stack = DMatrix::from_fn(HEADS * n, x.ncols(), |r, c| x[(r % n, c)]);
        let ablate: Vec<Vec<(usize, usize)>> = (0..HEADS).map(|h| vec![(l, h)]).collect();
        let parts = run_parts(w, l, stack, n, &ablate);
        for h in 0..HEADS {
            let ablated: Vec<_> = parts
                .iter()
                .map(|p| crate::pretrained::intervention::variant(p, h, n))
                .collect();
            let out_h = &ablated[ablated.len() - 1].output;
            let tot = out_h - last;
            let dir = direct_effect(w, &run.clean, l, h);
            let parts_k = indirect(w, &run.clean, &ablated, l);
            let (gt, gd) = (turn(&tot, &e), turn(&dir, &e));
            let dd = gd.norm_squared();
            let mut shares = [0.0; 2 * LAYERS];
            let mut sum = dir.clone();
            for (lk, stage, d) in &parts_k {
                shares[2 * lk + usize::from(*stage == Stage::Ffn)] = -turn(d, &e).dot(&gd) / dd;
                sum += d;
            }
            out.push(Ablation {
                layer: l,
                head: h,
                change: 1.0 - pooled(out_h).dot(&e),
                direct: dd.sqrt(),
                total: gt.dot(&gd) / dd.sqrt(),
                repair: 1.0 - gt.dot(&gd) / dd,
                shares,
                residual: (&tot - &sum).norm() / tot.norm(),
            });
        }
    }
    out
}

fn side(model: Model, setup: Setup) -> Side {
    let runs = runs(model);
    let embeddings: Vec<DVector<f64>> = runs.iter().map(Run::embedding).collect();
    let k = if model == Model::Trained { 0 } else { 1 };
    Side {
        retrieval: retrieve(&embeddings),
        partner_distance: (0..runs.len())
            .map(|s| 1.0 - embeddings[s].dot(&embeddings[s ^ 1]))
            .collect(),
        ablations: parallel::map(0..setup.sweep[k] as u64, |s| {
            sweep(model, &runs[s as usize])
        }),
        patterns: patterns(runs),
    }
}

/// Mean change per head over the swept sentences, `[layer·12 + head]`.
pub fn importance(side: &Side) -> Vec<f64> {
    let s = side.ablations.len() as f64;
    (0..LAYERS * HEADS)
        .map(|k| side.ablations.iter().map(|a| a[k].change).sum::<f64>() / s)
        .collect()
}

/// Retrieval on the first `pairs` pairs with each set of `removed` heads ablated
/// (one stacked run per sentence), trained model.
fn pruned(removed: &[Vec<(usize, usize)>], pairs: usize) -> Vec<Retrieval> {
    let w = &Model::Trained.minilm().weights;
    let runs = &runs(Model::Trained)[..2 * pairs];
    let e = parallel::map(0..runs.len() as u64, |s| {
        let r = &runs[s as usize];
        let (x, n) = (&r.clean[0].input, r.n());
        let stack = DMatrix::from_fn(removed.len() * n, x.ncols(), |i, c| x[(i % n, c)]);
        let p = run_parts(w, 0, stack, n, removed);
        let out = &p[LAYERS - 1].output;
        (0..removed.len())
            .map(|k| pooled(&out.rows(k * n, n).into_owned()))
            .collect::<Vec<_>>()
    });
    (0..removed.len())
        .map(|k| retrieve(&e.iter().map(|v| v[k].clone()).collect::<Vec<_>>()))
        .collect()
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let sides = ByModel::run(|model| side(model, setup));
        let imp = importance(&sides.trained);
        let mut order: Vec<usize> = (0..imp.len()).collect();
        order.sort_by(|&a, &b| imp[a].total_cmp(&imp[b]));
        let heads: Vec<(usize, usize)> = order.iter().map(|&k| (k / HEADS, k % HEADS)).collect();
        let clean = retrieve(
            &runs(Model::Trained)[..2 * setup.prune_pairs]
                .iter()
                .map(Run::embedding)
                .collect::<Vec<_>>(),
        );
        // K_0 = ∅ is the clean run's retrieval; the word-sense task scores every level
        let sets = levels(&heads, setup.prune_step);
        let counts: Vec<usize> = sets.iter().map(Vec::len).collect();
        let retrieval = std::iter::once(clean).chain(pruned(&sets[1..], setup.prune_pairs));
        let pruning = counts.iter().copied().zip(retrieval).collect();
        let senses = counts
            .into_iter()
            .zip(senses::scores(Model::Trained, &sets))
            .collect();
        let all = vec![vec![], heads.clone()];
        let r = senses::scores(Model::Random, &all);
        let roles = ByModel::run(|model| {
            let s = roles::scores(model, &all);
            [s[0], s[1]]
        });
        Findings {
            setup,
            sides,
            pruning,
            senses,
            senses_random: [r[0], r[1]],
            roles,
        }
    }

    /// Every ablation of one model, flattened.
    pub fn all(&self, model: Model) -> Vec<&Ablation> {
        self.sides.model(model).ablations.iter().flatten().collect()
    }

    /// Summary of `f` over every ablation of `model` in layers before the last
    /// (a last-layer head has no later layer to respond but its own FFN).
    pub fn summary(&self, model: Model, f: fn(&Ablation) -> f64) -> Summary {
        Summary::over(self.all(model).iter().map(|a| f(a)))
    }

    /// Most heads removed with top-1 still within `drop` of the clean model's.
    pub fn prunable(&self) -> usize {
        let curve = self.pruning.iter().map(|(k, r)| (*k, r.top1));
        prunable(curve, self.pruning[0].1.top1 - self.setup.drop)
    }

    /// Most heads removed with the word-sense task's accuracy still within `drop` of
    /// every head kept.
    pub fn sense_prunable(&self) -> usize {
        let curve = self.senses.iter().map(|(k, s)| (*k, s.accuracy));
        prunable(curve, self.senses[0].1.accuracy - self.setup.drop)
    }

    /// Heads of `model` whose named-pattern score exceeds the threshold:
    /// `(previous, next, [SEP], sink)` counts, the sink by [`sinks::DEFAULT`].
    pub fn named(&self, model: Model) -> [usize; 4] {
        let p = &self.sides.model(model).patterns;
        let count = |v: &[f64]| v.iter().filter(|&&x| x > self.setup.named).count();
        [
            count(&p.previous),
            count(&p.next),
            count(&p.sep),
            p.sink_heads(sinks::DEFAULT, sinks::Sentences::All).len(),
        ]
    }

    /// Sink heads of `model` under `c` by what their sink most often is,
    /// in the order of [`patterns::SINK_KINDS`].
    pub fn sinks(&self, model: Model, c: sinks::Criterion) -> [usize; 4] {
        let p = &self.sides.model(model).patterns;
        let mut out = [0; 4];
        for k in p.sink_heads(c, sinks::Sentences::All) {
            let kinds = p.sink_kind[k];
            out[crate::stats::argmax(0..4, |i| kinds[i] as f64).unwrap_or(3)] += 1;
        }
        out
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}

fn repair(a: &Ablation) -> f64 {
    a.repair
}

/// Median repair over heads of layers 0–4, and the fraction of them with `r > 0`.
pub fn repair_stats(f: &Findings, model: Model) -> (f64, f64) {
    let r: Vec<f64> = f
        .all(model)
        .iter()
        .filter(|a| a.layer + 1 < LAYERS)
        .map(|a| repair(a))
        .collect();
    (
        median(&r),
        r.iter().filter(|&&x| x > 0.0).count() as f64 / r.len() as f64,
    )
}
