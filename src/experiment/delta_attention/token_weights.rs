//! Chapter 7: how far DeltaNet's effective token weights are from the
//! similarities `q_t · k_j` that linear attention weighs by.

use nalgebra::{DMatrix, DVector};
use rand::RngExt;

use crate::delta::effective_weights;
use crate::measure::{Measure, pm};
use crate::parallel;
use crate::random::{seeded, unit_rows};
use crate::stats::{Summary, spearman};

/// Sequence length `t`, key width `k`, seeds behind the statistics and
/// behind the scatter picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub t: usize,
    pub k: usize,
    pub seeds: u64,
    pub picture_seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    t: 32,
    k: 8,
    seeds: super::SEEDS,
    picture_seeds: super::SEEDS / 4,
};

/// One sequence's similarities and effective weights (DeltaNet, β ~ U(0.2, 1), unit q and k).
#[derive(Clone, Debug, PartialEq)]
pub struct TokenWeights {
    /// `q_t · k_j`, `[T, T]`: linear attention's weights.
    pub similarity: DMatrix<f64>,
    /// DeltaNet's `W[t, j]`, `[T, T]`, lower triangular.
    pub delta: DMatrix<f64>,
}

impl TokenWeights {
    /// The causal pairs `j ≤ t`: (similarity, delta weight).
    pub fn pairs(&self) -> (Vec<f64>, Vec<f64>) {
        let n = self.similarity.nrows();
        let idx: Vec<(usize, usize)> = (0..n).flat_map(|t| (0..=t).map(move |j| (t, j))).collect();
        (
            idx.iter().map(|&p| self.similarity[p]).collect(),
            idx.iter().map(|&p| self.delta[p]).collect(),
        )
    }
}

/// The token weights of one seed, on `setup.t` steps.
pub fn token_weights(setup: Setup, seed: u64) -> TokenWeights {
    let (t, k) = (setup.t, setup.k);
    let mut rng = seeded(seed);
    let q = unit_rows(&mut rng, t, k);
    let keys = unit_rows(&mut rng, t, k);
    let beta = DVector::from_fn(t, |_, _| 0.2 + 0.8 * rng.random::<f64>());
    let mut similarity = &q * keys.transpose();
    for i in 0..t {
        for j in (i + 1)..t {
            similarity[(i, j)] = 0.0;
        }
    }
    let delta = effective_weights(&q, &keys, &DMatrix::zeros(t, k), &beta, 1.0);
    TokenWeights { similarity, delta }
}

/// Per seed: Spearman ρ between similarity and weight, the share of pairs
/// whose weight has the opposite sign of their similarity, and the share of
/// negative weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightStats {
    pub rho: f64,
    pub sign_flips: f64,
    pub negative: f64,
    /// Share of negative similarities `q_t · k_j` (linear attention's weights).
    pub negative_similarity: f64,
}

/// [`WeightStats`] of one seed.
pub fn weight_stats(setup: Setup, seed: u64) -> WeightStats {
    let (s, w) = token_weights(setup, seed).pairs();
    let n = s.len() as f64;
    WeightStats {
        rho: spearman(&s, &w),
        sign_flips: s
            .iter()
            .zip(&w)
            .filter(|(a, b)| a.signum() != b.signum())
            .count() as f64
            / n,
        negative: w.iter().filter(|&&b| b < 0.0).count() as f64 / n,
        negative_similarity: s.iter().filter(|&&a| a < 0.0).count() as f64 / n,
    }
}

/// The weight statistics of every seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub weights: Vec<WeightStats>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            weights: parallel::map(0..setup.seeds, |s| weight_stats(setup, s)),
        }
    }

    /// Summary of one weight statistic over the seeds.
    pub fn summary(&self, field: fn(&WeightStats) -> f64) -> Summary {
        Summary::over(self.weights.iter().map(field))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 7 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    vec![
        Measure::new("weights_t", BOOK.t.to_string()),
        Measure::new("weights_k", BOOK.k.to_string()),
        Measure::new("picture_seeds", BOOK.picture_seeds.to_string()),
        Measure::new("rho_delta", pm(f.summary(|w| w.rho), 2)),
        Measure::new("flips_delta", pm(f.summary(|w| w.sign_flips), 2)),
        Measure::new("negative_delta", pm(f.summary(|w| w.negative), 2)),
        Measure::new(
            "negative_similarity",
            pm(f.summary(|w| w.negative_similarity), 2),
        ),
    ]
}
