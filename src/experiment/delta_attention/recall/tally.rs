//! Summaries over the runs that both the section's numbers and its claims
//! read: per-arm means over seeds, gaps between mixers, plateau status.

use super::inside::Inside;
use super::{Findings, Variant, setup};
use crate::claim::Claim;
use crate::experiment::delta_attention::arm::title;
use crate::mixer::Mixer;
use crate::stats::{Summary, median};

pub const SOFTMAX: usize = 0;
pub const LINEAR: usize = 1;
pub const DELTANET: usize = 2;
pub const GDN: usize = 3;
pub const KDA: usize = 4;

pub const BOOK: Variant = Variant::Book;
pub const NEAR: Variant = Variant::GatesNearOne;
pub const NORM: Variant = Variant::OutputNorm;

/// Over the seeds of mixer `m` under `v`, one number of each [`Inside`].
pub fn over_seeds(f: &Findings, v: Variant, m: usize, field: impl Fn(&Inside) -> f64) -> Summary {
    Summary::over(f.inside(v, m).into_iter().map(field))
}

/// Median over every channel of every seed of `ln(trained rate / initial rate)`.
pub fn log_ratio(f: &Findings, v: Variant, m: usize) -> f64 {
    let all: Vec<f64> = f.inside(v, m).iter().flat_map(|i| i.log_ratios()).collect();
    median(&all)
}

/// Mean over seeds of KDA's trained log-rate spread minus its spread at initialisation.
pub fn spread_growth(f: &Findings, v: Variant) -> f64 {
    over_seeds(f, v, KDA, |i| {
        Inside::log_spread(&i.decay) - Inside::log_spread(&i.decay_init)
    })
    .mean
}

/// Mean accuracy of `m` minus `n` under `v` at `pairs`, `K = V = state`.
pub fn gap(f: &Findings, v: Variant, m: usize, n: usize, pairs: usize) -> f64 {
    let k = setup().state;
    f.mean(v, m, pairs, k) - f.mean(v, n, pairs, k)
}

/// Every `(pairs, state)` point of `v`, with `m`'s mean accuracy minus softmax's (book layers).
pub fn over_softmax(f: &Findings, v: Variant, m: usize) -> Vec<f64> {
    setup()
        .points(v)
        .into_iter()
        .map(|(p, k)| f.mean(v, m, p, k) - f.mean(BOOK, SOFTMAX, p, k))
        .collect()
}

pub fn max(xs: impl IntoIterator<Item = f64>) -> f64 {
    xs.into_iter().fold(f64::NEG_INFINITY, f64::max)
}

pub fn min(xs: impl IntoIterator<Item = f64>) -> f64 {
    xs.into_iter().fold(f64::INFINITY, f64::min)
}

pub fn arm(v: Variant, m: usize) -> String {
    let layers = match v {
        Variant::Book => "book layers",
        Variant::GatesNearOne => "gates near 1",
        Variant::OutputNorm => "output norm",
    };
    format!("{} ({layers})", title(Mixer::ALL[m]))
}

/// A learning rate to two significant digits.
pub fn rate(r: f64) -> String {
    let scale = 10f64.powi(1 - r.log10().floor() as i32);
    format!("{}", (r * scale).round() / scale)
}

/// Over every book-layer point, the largest mean accuracy of a delta mixer minus linear attention's.
pub fn delta_lead(f: &Findings) -> f64 {
    max(setup().points(BOOK).into_iter().flat_map(|(p, k)| {
        [DELTANET, GDN, KDA].map(|m| f.mean(BOOK, m, p, k) - f.mean(BOOK, LINEAR, p, k))
    }))
}

/// Over the variants' points, the largest |GDN or KDA (built as `v`) − DeltaNet (book)|.
pub fn gated_gap(f: &Findings, v: Variant) -> f64 {
    let s = setup();
    max(s.variant_pairs.iter().flat_map(|&p| {
        [GDN, KDA].map(|m| (f.mean(v, m, p, s.state) - f.mean(BOOK, DELTANET, p, s.state)).abs())
    }))
}

/// [`gated_gap`] with the gates initialised near 1.
pub fn near_gap(f: &Findings) -> f64 {
    gated_gap(f, NEAR)
}

/// The four recurrent mixers' mean accuracies under the book's layers at `(pairs, state)`.
pub fn recurrent_at(f: &Findings, pairs: usize, state: usize) -> Vec<f64> {
    [LINEAR, DELTANET, GDN, KDA]
        .map(|m| f.mean(BOOK, m, pairs, state))
        .to_vec()
}

/// Below this held-out accuracy a run stopped near chance (MQAR's chance
/// is one over the vocabulary; a quarter is far above it and far below recall).
pub const NEAR_CHANCE: f64 = 0.25;

/// The runs at `K = V = state` that stopped near chance, counted per mixer
/// (only the mixers that have any).
pub fn stalled(f: &Findings) -> Vec<(Mixer, usize)> {
    let k = setup().state;
    (0..Mixer::ALL.len())
        .map(|m| {
            let n = f
                .runs
                .iter()
                .filter(|r| r.mixer == m && r.state == k && r.accuracy < NEAR_CHANCE)
                .count();
            (Mixer::ALL[m], n)
        })
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// `claim.trained(…)` for every arm of `arms`.
pub fn trained(mut c: Claim, f: &Findings, arms: &[(Variant, usize)]) -> Claim {
    for &(v, m) in arms {
        let (capped, runs) = f.capped(v, m);
        c = c.trained(&arm(v, m), capped, runs);
    }
    c
}
