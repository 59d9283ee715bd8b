//! Chapter 3: head ablation — in the induction circuit the effect of
//! removing a head is concentrated in the two heads of the circuit; in a
//! random layer it is spread over every head.

use nalgebra::DMatrix;

use crate::attention::Mask;
use crate::measure::{Measure, fixed, pm, share_of};
use crate::multi_head::MultiHead;
use crate::parallel;
use crate::random::{gaussian, seeded};
use crate::stats::{Summary, mean};

use super::induction::{H, field, model, readout};

/// Seeds of the circuit and of the random layer, and the random layer's heads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub seeds: u64,
    pub random_heads: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    seeds: super::SEEDS,
    random_heads: 8,
};

/// `x + Σ_{t ≠ skip} o_t W_Oᵗ`: a residual layer with at most one head
/// removed, from the heads' outputs `o_t` of one pass.
fn residual_without(
    layer: &MultiHead,
    x: &DMatrix<f64>,
    heads: &[DMatrix<f64>],
    skip: Option<usize>,
) -> DMatrix<f64> {
    heads
        .iter()
        .enumerate()
        .filter(|&(t, _)| Some(t) != skip)
        .fold(x.clone(), |acc, (t, o)| acc + o * layer.w_o_block(t))
}

/// Ablation of one seed: accuracy with every head, then with each of the
/// `2H` heads removed (layer 1's heads first).
pub fn ablation(seed: u64) -> (f64, Vec<f64>) {
    let (m, f) = (model(seed), field(seed));
    // out = Σ_t o_t W_Oᵗ, so removing head t subtracts its term: one pass per input
    let first = m[0].forward(&f.x, Mask::Causal).heads;
    let second_on = |h1: &DMatrix<f64>, skip: Option<usize>| {
        let heads = m[1].forward(h1, Mask::Causal).heads;
        readout(&f, &residual_without(&m[1], h1, &heads, skip))
    };
    let h1 = residual_without(&m[0], &f.x, &first, None);
    let full = second_on(&h1, None);
    let mut without: Vec<f64> = (0..H)
        .map(|t| second_on(&residual_without(&m[0], &f.x, &first, Some(t)), None))
        .collect();
    let heads = m[1].forward(&h1, Mask::Causal).heads;
    without.extend((0..H).map(|t| readout(&f, &residual_without(&m[1], &h1, &heads, Some(t)))));
    (full, without)
}

/// Each head's share of the total ablation effect `‖out − out₍₋ₜ₎‖_F` in a
/// random layer (`d = 32`, `h = setup.random_heads`, `d_k = d_v = 4`, 16
/// Gaussian tokens), largest first.
pub fn random_shares(setup: Setup, seed: u64) -> Vec<f64> {
    let mut rng = seeded(seed + 20_000);
    let layer = MultiHead::random(&mut rng, 32, setup.random_heads, 4, 4);
    let x = gaussian(&mut rng, 16, 32, 1.0);
    // out − out₍₋ₜ₎ = o_t W_Oᵗ
    let heads = layer.forward(&x, Mask::Causal).heads;
    let mut effects: Vec<f64> = heads
        .iter()
        .enumerate()
        .map(|(t, o)| (o * layer.w_o_block(t)).norm())
        .collect();
    let total: f64 = effects.iter().sum();
    effects.iter_mut().for_each(|e| *e /= total);
    effects.sort_by(|a, b| b.total_cmp(a));
    effects
}

/// Accuracy of the circuit with every head and with each head removed, and
/// the ablation shares of a random layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// Accuracy with every head, per seed.
    pub full: Vec<f64>,
    /// Accuracy with head `k` removed, `[seed][k]`.
    pub without: Vec<Vec<f64>>,
    /// Sorted ablation shares of a random layer, `[seed][rank]`.
    pub random_shares: Vec<Vec<f64>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let abl = parallel::map(0..setup.seeds, ablation);
        Findings {
            full: abl.iter().map(|a| a.0).collect(),
            without: abl.into_iter().map(|a| a.1).collect(),
            random_shares: parallel::map(0..setup.seeds, |s| random_shares(setup, s)),
        }
    }

    /// Accuracy with head `k` removed, over seeds.
    pub fn without(&self, k: usize) -> Summary {
        Summary::over(self.without.iter().map(|w| w[k]))
    }

    /// Share of the total accuracy drop carried by each head `k`, over seeds
    /// (drops below zero count as zero).
    pub fn drop_shares(&self) -> Vec<Summary> {
        let shares: Vec<Vec<f64>> = self
            .full
            .iter()
            .zip(&self.without)
            .map(|(&f, w)| {
                let drops: Vec<f64> = w.iter().map(|a| (f - a).max(0.0)).collect();
                let total: f64 = drops.iter().sum::<f64>().max(1e-300);
                drops.iter().map(|d| d / total).collect()
            })
            .collect();
        (0..2 * H)
            .map(|k| Summary::over(shares.iter().map(|s| s[k])))
            .collect()
    }

    /// Each seed's accuracy change when a head outside the circuit is removed.
    pub fn other_drops(&self) -> Vec<f64> {
        self.without
            .iter()
            .zip(&self.full)
            .flat_map(|(w, &full)| [1, 2, 3, 5, 6, 7].map(|k| (full - w[k]).abs()))
            .collect()
    }

    /// The largest share of a random layer's ablation effect carried by one head, over seeds.
    pub fn top_random(&self) -> Summary {
        Summary::over(self.random_shares.iter().map(|s| s[0]))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 3 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let shares = f.drop_shares();
    let others = f.other_drops();
    vec![
        Measure::new("acc_full", pm(Summary::of(&f.full), 2)),
        Measure::new("acc_no_prev", pm(f.without(0), 2)),
        Measure::new("acc_no_content", pm(f.without(1), 2)),
        Measure::new("acc_no_induction", pm(f.without(H), 2)),
        Measure::new("other_drop_mean", fixed(mean(&others), 3)),
        Measure::new(
            "other_drop_max",
            fixed(others.iter().cloned().fold(0.0, f64::max), 2),
        ),
        Measure::new(
            "share_two",
            share_of(shares[0].mean + shares[H].mean, "the accuracy drop"),
        ),
        Measure::new("random_heads", BOOK.random_heads.to_string()),
        Measure::new("random_top", pm(f.top_random(), 2)),
        Measure::new("random_uniform", fixed(1.0 / BOOK.random_heads as f64, 3)),
    ]
}
