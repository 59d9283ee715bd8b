//! Chapter 2 on the trained models against their random-weight baselines:
//! what one pass's attention weights show against what the heads move, where
//! the weight goes, for the encoder (all-MiniLM-L6-v2) and the decoder
//! (SmolLM2-135M-Instruct) by one measurement ([`super::readings`]); and how
//! far the pass's first-order picture of a layer holds (the encoder).
//!
//! ```text
//! readings       weight, carried norm, effect per head: see super::readings
//! locality       err(ε) = ‖F(x + εz) − F(x) − ε J z‖ / ‖F(x + εz) − F(x)‖,  ‖z‖ = ‖x‖,
//!                J z = (F(x + hz) − F(x − hz)) / 2h,  F one layer, x a real sentence's input
//! ```

use crate::experiment::relations::trained::contexts;
use crate::parallel;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::intervention::layer_parts;
use crate::pretrained::minilm::LAYERS;
use crate::pretrained::paraphrase::{corpus, sentences};
use crate::pretrained::trace::Trace;
use crate::pretrained::transformer::Architecture;
use crate::random::{gaussian, seeded};
use crate::stats::Summary;

pub use super::readings::{HeadStats, Start};
use super::readings::{encode, head_stats};

/// Sizes of the section's experiments.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// Sentences (from the corpus's start) whose layers are perturbed.
    pub local: usize,
    /// Step of the central difference, relative to `‖x‖`.
    pub h: f64,
    /// The decoder's sentences: the first context sentences (every pair's A).
    pub decoder: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    local: 4,
    h: 1e-4,
    decoder: 8,
};

/// The sentences `arch` reads: the encoder every paraphrase-corpus sentence
/// (its chapters' corpus), the decoder the first `setup.decoder` context
/// sentences (chapter 4's, so that its chapters share them).
pub fn texts(arch: Architecture, setup: Setup) -> Vec<String> {
    match arch {
        Architecture::Minilm => sentences(&corpus()),
        Architecture::Smollm2 => contexts().into_iter().take(setup.decoder).collect(),
    }
}

/// The starts `arch` is asked under: the decoder also with a newline
/// prepended (Xiao et al.'s test that the sink is a position); the encoder's
/// own start, `[CLS]`, already holds no word.
pub fn starts(arch: Architecture) -> &'static [Start] {
    match arch {
        Architecture::Minilm => &[Start::Own],
        Architecture::Smollm2 => &Start::ALL,
    }
}

/// Perturbation sizes `ε` (relative to `‖x‖`).
pub const EPSILONS: [f64; 6] = [1e-3, 1e-2, 0.03, 0.1, 0.3, 1.0];

/// The direction `z` of a move of a layer's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Gaussian over every token.
    Spread,
    /// Gaussian on one word (token `1 + seed mod (n − 2)`), zero elsewhere.
    OneToken,
}

impl Direction {
    pub const ALL: [Direction; 2] = [Direction::Spread, Direction::OneToken];
}

/// `err(ε)` for each layer of one sentence's clean pass of the encoder `[layer][ε]`,
/// moving along `direction`.
pub fn locality(
    model: Model,
    trace: &Trace,
    setup: Setup,
    seed: u64,
    direction: Direction,
) -> Vec<Vec<f64>> {
    let w = &model.minilm().weights;
    let states = trace.states();
    (0..LAYERS)
        .map(|l| {
            let x = &states[l];
            let n = x.nrows();
            let mut z = gaussian(&mut seeded(seed * 10 + l as u64), n, x.ncols(), 1.0);
            if direction == Direction::OneToken {
                let t = 1 + seed as usize % (n - 2);
                for r in (0..n).filter(|&r| r != t) {
                    z.row_mut(r).fill(0.0);
                }
            }
            z *= x.norm() / z.norm();
            // variants x + hz, x − hz, x + ε_k z stacked: ((2 + K)·n, 384)
            let shifts: Vec<f64> = [setup.h, -setup.h].into_iter().chain(EPSILONS).collect();
            let mut stack = nalgebra::DMatrix::zeros(shifts.len() * n, x.ncols());
            for (k, s) in shifts.iter().enumerate() {
                stack.rows_mut(k * n, n).copy_from(&(x + &z * *s));
            }
            let p = layer_parts(&w.layers[l], &stack, n, &vec![Vec::new(); shifts.len()]);
            let y = |k: usize| p.output.rows(k * n, n).into_owned();
            let jz = (y(0) - y(1)) / (2.0 * setup.h);
            let clean = &states[l + 1];
            EPSILONS
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let actual = y(2 + k) - clean;
                    (&actual - &jz * *e).norm() / actual.norm()
                })
                .collect()
        })
        .collect()
}

/// What one model measures.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Side {
    /// Every head of every sentence, its own start.
    pub heads: Vec<HeadStats>,
    /// The same with a newline prepended (the decoder; empty for the encoder).
    pub newline: Vec<HeadStats>,
    /// `[sentence][layer][ε]` (the encoder; empty for the decoder).
    pub locality: Vec<Vec<Vec<f64>>>,
    /// The same for a move of one word ([`Direction::OneToken`]).
    pub locality_token: Vec<Vec<Vec<f64>>>,
}

impl Side {
    /// `arch` with `model`'s weights on its sentences, under each of its starts.
    pub fn run(arch: Architecture, model: Model, setup: Setup) -> Side {
        let m = arch.with(model);
        let texts = texts(arch, setup);
        let starts = starts(arch);
        let local = match arch {
            Architecture::Minilm => setup.local,
            Architecture::Smollm2 => 0,
        };
        // one job per (sentence, start): its heads, and the layers' locality
        // for the first `local` sentences of the encoder
        let jobs = texts.len() * starts.len();
        let per = parallel::map(0..jobs as u64, |k| {
            let (s, start) = (k as usize / starts.len(), starts[k as usize % starts.len()]);
            let (ids, tokens) = encode(m, &texts[s], start);
            let trace = m.run(&ids);
            let heads = head_stats(arch, model, &tokens, &trace);
            let loc = (s < local && start == Start::Own)
                .then(|| Direction::ALL.map(|d| locality(model, &trace, setup, s as u64, d)));
            (start, heads, loc)
        });
        let heads = |which: Start| {
            per.iter()
                .filter(|(s, _, _)| *s == which)
                .flat_map(|(_, h, _)| h.iter().copied())
                .collect()
        };
        let loc = |d: usize| {
            per.iter()
                .filter_map(|(_, _, l)| l.as_ref().map(|l| l[d].clone()))
                .collect()
        };
        Side {
            heads: heads(Start::Own),
            newline: heads(Start::Newline),
            locality: loc(0),
            locality_token: loc(1),
        }
    }

    /// The heads under `start`.
    pub fn heads(&self, start: Start) -> &[HeadStats] {
        match start {
            Start::Own => &self.heads,
            Start::Newline => &self.newline,
        }
    }

    /// Summary of `g` over heads and sentences under `start`, layers in `layers`.
    pub fn summary(
        &self,
        start: Start,
        layers: std::ops::Range<usize>,
        g: impl Fn(&HeadStats) -> f64,
    ) -> Summary {
        Summary::over(
            self.heads(start)
                .iter()
                .filter(|s| layers.contains(&s.layer))
                .map(g),
        )
    }
}

/// Everything the section reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// all-MiniLM-L6-v2, trained and BERT-initialised.
    pub encoder: ByModel<Side>,
    /// SmolLM2-135M-Instruct, trained and at Llama's initialisation.
    pub decoder: ByModel<Side>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let by = |arch| ByModel::run(|model| Side::run(arch, model, setup));
        Findings {
            setup,
            encoder: by(Architecture::Minilm),
            decoder: by(Architecture::Smollm2),
        }
    }

    /// The side of `arch` with `model`'s weights.
    pub fn of(&self, arch: Architecture, model: Model) -> &Side {
        match arch {
            Architecture::Minilm => self.encoder.model(model),
            Architecture::Smollm2 => self.decoder.model(model),
        }
    }

    /// The encoder's side.
    pub fn side(&self, model: Model) -> &Side {
        self.encoder.model(model)
    }

    /// Summary of `f` over heads and sentences of `model`, in `layer` or every layer.
    pub fn summary(&self, model: Model, layer: Option<usize>, f: fn(&HeadStats) -> f64) -> Summary {
        Summary::over(
            self.side(model)
                .heads
                .iter()
                .filter(|s| layer.is_none_or(|l| s.layer == l))
                .map(f),
        )
    }

    /// `err(ε_k)` over sentences and layers of `model` (or one layer).
    pub fn error(&self, model: Model, layer: Option<usize>, k: usize) -> Summary {
        self.error_along(model, Direction::Spread, layer, k)
    }

    /// `err(ε_k)` along `direction`.
    pub fn error_along(
        &self,
        model: Model,
        direction: Direction,
        layer: Option<usize>,
        k: usize,
    ) -> Summary {
        let side = self.side(model);
        let runs = match direction {
            Direction::Spread => &side.locality,
            Direction::OneToken => &side.locality_token,
        };
        Summary::over(runs.iter().flat_map(|s| {
            s.iter()
                .enumerate()
                .filter(|(l, _)| layer.is_none_or(|x| x == *l))
                .map(|(_, e)| e[k])
        }))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
