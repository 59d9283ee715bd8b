//! The induction heads removed, and the previous-token heads that feed them,
//! each against as many random heads removed.
//!
//! ```text
//! rise(S)   = loss on the repeat with the heads S zeroed − clean loss on the repeat
//! drop(S)   = mean prefix score of the induction heads, clean − with S zeroed
//! induction = the k heads of highest prefix score;  previous = the k heads of
//!             highest previous-token score in layers below the first induction head
//! controls  = k heads drawn at random (seeded) from: every other head; the
//!             induction heads' own layers; the layers below the first induction head
//! ```
//!
//! Every ablation starts from the clean stream at its earliest ablated layer
//! (the blocks before it are unchanged), on the first `ablated` sequences.

use std::ops::Range;

use rand::seq::SliceRandom;

use super::{Repeat, Scores, Setup, mean_loss, prefix_matching};
use crate::pretrained::corpus::Model;
use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::smollm2::forward::{self, Cache, Options};
use crate::pretrained::transformer::Transformer;
use crate::random::seeded;
use crate::stats::mean;

/// A set of `(layer, head)`.
pub type Heads = Vec<(usize, usize)>;

/// Seeds of the random head sets start here (disjoint from the sequences').
const DRAW_SEED: u64 = 1_000;

/// What removing heads did.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ablations {
    /// The `k` heads of highest prefix-matching score, highest first.
    pub induction: Heads,
    /// Clean loss on the repeat, per ablated sequence.
    pub clean: Vec<f64>,
    /// `rise(induction)`, mean over sequences.
    pub induction_rise: f64,
    /// `rise` of each random set of `k` other heads.
    pub random_rise: Vec<f64>,
    /// `rise` of each random set of `k` other heads in the induction heads' layers.
    pub same_layer_rise: Vec<f64>,
    /// The `k` heads of highest previous-token score below the first induction layer.
    pub previous: Heads,
    /// The induction heads' mean prefix score, clean, over the ablated sequences.
    pub prefix_clean: f64,
    /// `drop(previous)`.
    pub previous_drop: f64,
    /// `drop` of each random set of `k` other heads below the first induction layer.
    pub random_drop: Vec<f64>,
}

/// `k` heads drawn from `pool` with seed `seed`.
fn draw(pool: &[(usize, usize)], k: usize, seed: u64) -> Heads {
    let mut pool = pool.to_vec();
    pool.shuffle(&mut seeded(seed));
    pool.truncate(k);
    pool
}

/// Every head of `layers` not in `except`.
fn pool(m: &SmolLm2, layers: impl Iterator<Item = usize>, except: &[(usize, usize)]) -> Heads {
    layers
        .flat_map(|l| (0..m.heads()).map(move |h| (l, h)))
        .filter(|lh| !except.contains(lh))
        .collect()
}

/// One clean sequence: its ids and its stream entering every block.
struct Clean {
    repeat: Repeat,
    states: Vec<nalgebra::DMatrix<f64>>,
}

impl Clean {
    /// Loss on the repeat with `heads` zeroed, run from the earliest of them.
    fn rise(&self, m: &SmolLm2, heads: &[(usize, usize)], clean: f64) -> f64 {
        let from = heads.iter().map(|h| h.0).min().expect("k > 0");
        let x = self.states[from].map(|v| v as f32);
        let opts = Options {
            ablate: heads,
            record: false,
        };
        let (out, _) = forward::run_from(&m.weights, from, x, &mut Cache::new(&m.config), opts);
        mean_loss(m, &self.repeat, &out, self.repeat.scored().1) - clean
    }

    /// Mean prefix score of `of` with `heads` zeroed.
    fn prefix(&self, m: &SmolLm2, heads: &[(usize, usize)], of: &[(usize, usize)]) -> f64 {
        let t = m.run_ablated(&self.repeat.ids, heads);
        let p = prefix_matching(&t, &self.repeat);
        mean(&of.iter().map(|&(l, h)| p[l][h]).collect::<Vec<_>>())
    }
}

/// One sequence's clean values and every head set's effect, in set order.
struct Effects {
    clean: f64,
    clean_prefix: f64,
    rises: Vec<f64>,
    drops: Vec<f64>,
}

impl Ablations {
    /// On the first `ablated` sequences (seeds `0..`, among those the heads were selected on).
    pub fn run(setup: Setup, scores: &Scores) -> Ablations {
        Ablations::run_on(setup, scores, 0..setup.ablated as u64, true)
    }

    /// On the sequences `seeds`, with `setup.k` heads per set; the controls
    /// from the induction heads' own layers only if `same_layer` (else
    /// `same_layer_rise` is empty).
    pub fn run_on(setup: Setup, scores: &Scores, seeds: Range<u64>, same_layer: bool) -> Ablations {
        let m = Model::Trained.smollm2();
        let k = setup.k;
        let induction: Heads = scores.ranked(|s| &s.prefix)[..k]
            .iter()
            .map(|&(l, h, _)| (l, h))
            .collect();
        let first = induction.iter().map(|h| h.0).min().expect("k > 0");
        let previous: Heads = scores
            .ranked(|s| &s.previous)
            .into_iter()
            .filter(|&(l, _, _)| l < first)
            .take(k)
            .map(|(l, h, _)| (l, h))
            .collect();
        let mut layers: Vec<usize> = induction.iter().map(|h| h.0).collect();
        layers.dedup();
        let pools = [
            pool(m, 0..m.layers(), &induction),
            pool(m, layers.iter().copied(), &induction),
        ];
        let pools = &pools[..if same_layer { 2 } else { 1 }];
        let sets: Vec<Heads> = pools
            .iter()
            .enumerate()
            .flat_map(|(p, pool)| {
                (0..setup.draws as u64).map(move |d| draw(pool, k, DRAW_SEED + 100 * p as u64 + d))
            })
            .chain(std::iter::once(induction.clone()))
            .collect();
        let below = pool(m, 0..first, &previous);
        let feeders: Vec<Heads> = (0..setup.draws as u64)
            .map(|d| draw(&below, k, DRAW_SEED + 200 + d))
            .chain(std::iter::once(previous.clone()))
            .collect();
        let per = crate::parallel::map(seeds, |s| {
            let repeat = Repeat::draw(setup.lead, setup.length, s);
            let t = m.run(&repeat.ids);
            let clean_prefix = {
                let p = prefix_matching(&t, &repeat);
                mean(&induction.iter().map(|&(l, h)| p[l][h]).collect::<Vec<_>>())
            };
            let out = t.output.map(|v| v as f32);
            let clean = mean_loss(m, &repeat, &out, repeat.scored().1);
            let c = Clean {
                states: t.states(),
                repeat,
            };
            let rises: Vec<f64> = sets.iter().map(|s| c.rise(m, s, clean)).collect();
            let drops: Vec<f64> = if previous.is_empty() {
                Vec::new()
            } else {
                feeders
                    .iter()
                    .map(|s| clean_prefix - c.prefix(m, s, &induction))
                    .collect()
            };
            Effects {
                clean,
                clean_prefix,
                rises,
                drops,
            }
        });
        // mean over sequences of entry i of each sequence's `get`
        let over = |i: usize, get: fn(&Effects) -> &Vec<f64>| {
            mean(&per.iter().map(|p| get(p)[i]).collect::<Vec<_>>())
        };
        let d = setup.draws;
        let dropped = |i| {
            if previous.is_empty() {
                f64::NAN
            } else {
                over(i, |p| &p.drops)
            }
        };
        Ablations {
            clean: per.iter().map(|p| p.clean).collect(),
            prefix_clean: mean(&per.iter().map(|p| p.clean_prefix).collect::<Vec<_>>()),
            induction_rise: over(pools.len() * d, |p| &p.rises),
            random_rise: (0..d).map(|i| over(i, |p| &p.rises)).collect(),
            same_layer_rise: (d..pools.len() * d)
                .map(|i| over(i, |p| &p.rises))
                .collect(),
            previous_drop: dropped(d),
            random_drop: (0..d).map(dropped).collect(),
            induction,
            previous,
        }
    }
}
