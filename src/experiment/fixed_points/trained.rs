//! Chapter 5 on both pretrained models, each against its random-weight twin:
//! the residual stream across depth, and one layer (and the stack, looped)
//! iterated on a real hidden state. One experiment over [`Transformer`] asks
//! it of the post-LN encoder and the pre-LN decoder alike. How much of a
//! damage later layers absorb is chapter 3's measurement
//! ([`crate::experiment::multi_head::repair`]), read here.
//!
//! ```text
//! stream    h_0 … h_L: each layer's input, then the output; per layer l, token i
//!           update_l = ‖h_{l+1} − h_l‖ / ‖h_l‖,   cosine_l = cos(h_l, h_{l+1})
//! iterate   Z_0 = h_l,  Z_{k+1} = B_l(Z_k)              one block as trained
//! loop      Z_0 = h_0,  Z_{k+1} = B_{L−1} ∘ ⋯ ∘ B_0(Z_k)  the whole stack
//! step_k    ‖Z_{k+1} − Z_k‖ / ‖Z_k‖  on every row; on rows 1.. (the sink's row left
//!           out); and on rows 1.. each divided by its rms (what a pre-LN block reads)
//! ```
//!
//! Where the two differ in kind ([`Norm`]): a post-LN block returns a
//! normalised stream, so its iterate stays on a sphere per token; a pre-LN
//! stream is a running sum, so even random writes make the relative update
//! fall like 1/√l, and an iterate can grow while its direction settles. The
//! first token is where a causal model parks its attention sink and its
//! massive activation, so every series is also taken without it. Removing a
//! block's skip connections ([`Paths::None`]) is asked of the encoder only:
//! the decoder's block is not split into its sublayers behind the interface.
//!
//! Introduced in chapter 5.

pub mod decoder_verdict;
pub mod tail;
pub mod verdict;

pub use verdict::{claims, measures, stream_claim};

use nalgebra::DMatrix;

use crate::experiment::relations::trained::contexts;
use crate::fixed_point::{collapse, residual};
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::intervention::layer_parts;
use crate::pretrained::minilm::forward::finish;
use crate::pretrained::transformer::{Architecture, ByArch, Norm, Transformer};
use crate::stats::Summary;

/// How many sentences and steps each experiment uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Sentences (the context pairs' A then B) behind the residual stream.
    pub stream_sentences: usize,
    /// Sentences on which layers are iterated.
    pub iterate_sentences: usize,
    /// Applications of one layer.
    pub steps: usize,
    /// Passes of the whole stack, looped.
    pub loops: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    stream_sentences: 20,
    iterate_sentences: 2,
    steps: 8,
    loops: 5,
};

/// Which skip connections a block keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paths {
    /// The block as trained.
    Residual,
    /// The encoder's `a = LN₁(attn)`, `out = LN₂(FFN(a))`: both skips removed.
    None,
}

/// The skip settings asked of `m`, in the order of [`ModelFindings::layer`].
pub fn paths(m: &dyn Transformer) -> Vec<Paths> {
    match m.norm() {
        Norm::Post => vec![Paths::Residual, Paths::None],
        Norm::Pre => vec![Paths::Residual],
    }
}

/// One application of encoder layer `l` to `x` with both skips removed.
pub fn without_skips(model: Model, l: usize, x: &DMatrix<f64>) -> DMatrix<f64> {
    let layer = &model.weights().layers[l];
    let p = layer_parts(layer, x, x.nrows(), &[vec![]]);
    // both skips removed: LN₂(FFN(LN₁(attn))), no x in u₁, no a beside the FFN
    finish(layer, &p.attn, false)
}

/// A fixed-point iteration `Z_{k+1} = f(Z_k)` recorded step by step.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Iteration {
    /// `‖f(Z_k) − Z_k‖ / ‖Z_k‖`, every row, `k = 0 … steps − 1`.
    pub residual: Vec<f64>,
    /// The same over rows `1..` (the first token's row left out).
    pub later: Vec<f64>,
    /// The same over rows `1..`, each divided by its root mean square.
    pub normalised: Vec<f64>,
    /// Distance from rank one (`fixed_point::collapse`), `k = 0 … steps`.
    pub collapse: Vec<f64>,
    /// `‖Z_steps − Z_0‖ / ‖Z_0‖`: how far the iteration moved from the real state.
    pub drift: f64,
}

/// Rows `1..`, each divided by its root mean square (no gain), if `unit`.
///
/// # Shapes
/// `(n, d)` → `(n − 1, d)`.
fn later(z: &DMatrix<f64>, unit: bool) -> DMatrix<f64> {
    let mut u = z.rows(1, z.nrows() - 1).into_owned();
    if unit {
        for mut row in u.row_iter_mut() {
            let rms = (row.norm_squared() / row.len() as f64).sqrt();
            row /= rms;
        }
    }
    u
}

/// Iterate `f` from `z0` for `steps` steps.
pub fn iterate(
    z0: &DMatrix<f64>,
    steps: usize,
    f: impl Fn(&DMatrix<f64>) -> DMatrix<f64>,
) -> Iteration {
    let mut z = z0.clone();
    let mut it = Iteration {
        residual: vec![],
        later: vec![],
        normalised: vec![],
        collapse: vec![collapse(&z)],
        drift: 0.0,
    };
    for _ in 0..steps {
        let next = f(&z);
        it.residual.push(residual(&next, &z));
        it.later
            .push(residual(&later(&next, false), &later(&z, false)));
        it.normalised
            .push(residual(&later(&next, true), &later(&z, true)));
        it.collapse.push(collapse(&next));
        z = next;
    }
    it.drift = (&z - z0).norm() / z0.norm();
    it
}

/// Per layer, the relative update and cosine of every token pooled over sentences.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Stream {
    /// `update[l]`: layer `l`'s relative update of every token.
    pub update: Vec<Vec<f64>>,
    /// `cosine[l]`: cosine of the states around layer `l`.
    pub cosine: Vec<Vec<f64>>,
    /// Tokens of each sentence, in the order their tokens are pooled.
    pub lengths: Vec<usize>,
}

/// Which per-layer curve of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Series {
    Update,
    Cosine,
}

impl Stream {
    /// Summary of `series` over the tokens of layer `l`.
    pub fn summary(&self, series: Series, l: usize) -> Summary {
        Summary::of(match series {
            Series::Update => &self.update[l],
            Series::Cosine => &self.cosine[l],
        })
    }

    /// Mean of `series` over the tokens of layer `l`.
    pub fn mean(&self, series: Series, l: usize) -> f64 {
        self.summary(series, l).mean
    }

    /// Summary over sentences of each sentence's mean of `series` in layer `l`.
    pub fn over_sentences(&self, series: Series, l: usize) -> Summary {
        Summary::of(&self.per_sentence(series, l))
    }

    /// `per[s]`: the mean of `series` over sentence `s`'s tokens in layer `l`.
    pub fn per_sentence(&self, series: Series, l: usize) -> Vec<f64> {
        let xs = match series {
            Series::Update => &self.update[l],
            Series::Cosine => &self.cosine[l],
        };
        let mut start = 0;
        self.lengths
            .iter()
            .map(|&n| {
                let m = crate::stats::mean(&xs[start..start + n]);
                start += n;
                m
            })
            .collect()
    }
}

/// Per token and layer of states `h_0, …, h_L` (one `(n, d)` matrix per
/// layer boundary), for tokens `from..n`: per layer `l = 0 … L − 1`,
/// `‖h_{l+1} − h_l‖ / ‖h_l‖` and `cos(h_l, h_{l+1})` of every token.
pub fn stream_of(s: &[DMatrix<f64>], from: usize) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let per = |f: &dyn Fn(usize, usize) -> f64| {
        (0..s.len() - 1)
            .map(|l| (from..s[l].nrows()).map(|i| f(l, i)).collect())
            .collect()
    };
    let update = per(&|l, i| (s[l + 1].row(i) - s[l].row(i)).norm() / s[l].row(i).norm());
    let cosine = per(&|l, i| {
        s[l + 1].row(i).dot(&s[l].row(i)) / (s[l + 1].row(i).norm() * s[l].row(i).norm())
    });
    (update, cosine)
}

/// One model's findings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    /// Every token of every stream sentence.
    pub all: Stream,
    /// Every token but the first.
    pub later: Stream,
    /// `layer[paths][l][sentence]`: layer `l` iterated on its real input, for
    /// each of [`paths`].
    pub layer: Vec<Vec<Vec<Iteration>>>,
    /// `stack[paths][sentence]`: the whole stack looped from `h_0`.
    pub stack: Vec<Vec<Iteration>>,
}

impl ModelFindings {
    pub fn run(arch: Architecture, model: Model, setup: Setup) -> ModelFindings {
        let m = arch.with(model);
        let states: Vec<Vec<DMatrix<f64>>> = contexts()[..setup.stream_sentences]
            .iter()
            .map(|t| {
                m.run(&m.encode(t).unwrap_or_else(|e| panic!("{e}")).ids)
                    .states()
            })
            .collect();
        let [all, later] = [0, 1].map(|from| {
            let mut s = Stream {
                update: vec![Vec::new(); m.layers()],
                cosine: vec![Vec::new(); m.layers()],
                lengths: Vec::new(),
            };
            for st in &states {
                let (u, c) = stream_of(st, from);
                s.lengths.push(u[0].len());
                for l in 0..m.layers() {
                    s.update[l].extend(&u[l]);
                    s.cosine[l].extend(&c[l]);
                }
            }
            s
        });
        let it = &states[..setup.iterate_sentences];
        let step = |p: Paths, l: usize, z: &DMatrix<f64>| match p {
            Paths::Residual => m.block(l, z),
            Paths::None => without_skips(model, l, z),
        };
        let layer = paths(m)
            .into_iter()
            .map(|p| {
                crate::parallel::map(0..m.layers() as u64, |l| {
                    let l = l as usize;
                    it.iter()
                        .map(|s| iterate(&s[l], setup.steps, |z| step(p, l, z)))
                        .collect()
                })
            })
            .collect();
        let stack = paths(m)
            .into_iter()
            .map(|p| {
                let pass =
                    |z: &DMatrix<f64>| (0..m.layers()).fold(z.clone(), |z, l| step(p, l, &z));
                it.iter()
                    .map(|s| iterate(&s[0], setup.loops, pass))
                    .collect()
            })
            .collect();
        ModelFindings {
            all,
            later,
            layer,
            stack,
        }
    }

    /// Every iteration of one layer setting, pooled over layers and sentences.
    pub fn layer_runs(&self, paths: usize) -> Vec<&Iteration> {
        self.layer[paths].iter().flatten().collect()
    }
}

/// Chapter 5's trained-model findings: each architecture, trained and random.
pub type Findings = ByArch<ByModel<ModelFindings>>;

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => {
        ByArch::run(|arch| ByModel::run(|model| ModelFindings::run(arch, model, BOOK)))
    })
}
