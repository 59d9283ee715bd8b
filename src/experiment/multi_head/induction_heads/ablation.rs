//! The induction heads removed, and the previous-token heads that feed them,
//! each against as many heads drawn at random from the same layers.
//!
//! ```text
//! rise(S)   = loss on the repeat with the heads S zeroed − clean loss on the repeat
//! drop(S)   = mean prefix score of the induction heads, clean − with S zeroed
//! induction = the k heads of highest prefix score;  previous = the k heads of
//!             highest previous-token score in layers below the first induction head
//! controls  = k heads drawn at random (seeded) from the picked heads' own layers
//!             (the default); wide: from every other head (induction), from every
//!             layer below the first induction head (previous-token)
//! ```
//!
//! Every ablation starts from the clean stream at its earliest ablated layer
//! (the blocks before it are unchanged), on the sequences it is given.

use std::ops::Range;

use rand::seq::SliceRandom;

use super::{Repeat, Scores, Setup, mean_loss, prefix_matching};
use crate::pretrained::corpus::Model;
use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::smollm2::forward::{self, Cache, Options};
use crate::pretrained::smollm2::weights::Weights;
use crate::pretrained::trace::Trace;
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
    /// Clean loss on the first copy, per ablated sequence.
    pub first: Vec<f64>,
    /// `rise(induction)`, mean over sequences.
    pub induction_rise: f64,
    /// The rise of the loss on the first copy with the induction heads
    /// removed (NaN unless the wide controls were run).
    pub induction_first_rise: f64,
    /// `rise` of each random set of `k` other heads in the induction heads'
    /// layers: the default control.
    pub same_layer_rise: Vec<f64>,
    /// `rise` of each random set of `k` other heads of any layer (empty
    /// unless the wide controls were run).
    pub random_rise: Vec<f64>,
    /// The rise of the loss on the first copy, per set of `same_layer_rise`
    /// (empty unless the wide controls were run).
    pub same_layer_first_rise: Vec<f64>,
    /// The rise of the loss on the first copy, per set of `random_rise`.
    pub random_first_rise: Vec<f64>,
    /// The `k` heads of highest previous-token score below the first induction layer.
    pub previous: Heads,
    /// The induction heads' mean prefix score, clean, over the ablated sequences.
    pub prefix_clean: f64,
    /// `drop(previous)`.
    pub previous_drop: f64,
    /// `drop` of each random set of `k` other heads in the previous-token
    /// heads' layers: the default control.
    pub same_layer_drop: Vec<f64>,
    /// `drop` of each random set of `k` other heads of any layer below the
    /// first induction layer (empty unless the wide controls were run).
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
    /// Rise of the loss on the first copy (NaN unless `both`) and on the
    /// repeat over `clean` with `heads` zeroed, run from the earliest of them.
    fn rise(&self, m: &SmolLm2, heads: &[(usize, usize)], clean: [f64; 2], both: bool) -> [f64; 2] {
        let from = heads.iter().map(|h| h.0).min().expect("k > 0");
        let x = self.states[from].map(|v| v as f32);
        let opts = Options {
            ablate: heads,
            record: false,
        };
        let (out, _) = forward::run_from(&m.weights, from, x, &mut Cache::new(&m.config), opts);
        let (first, repeat) = self.repeat.scored();
        let first = if both {
            mean_loss(m, &self.repeat, &out, first) - clean[0]
        } else {
            f64::NAN
        };
        [first, mean_loss(m, &self.repeat, &out, repeat) - clean[1]]
    }

    /// Mean prefix score of `of` with `heads` zeroed, run from the earliest
    /// of them through `upto` (the blocks up to the last layer of `of`).
    fn prefix(&self, upto: &Weights, heads: &[(usize, usize)], of: &[(usize, usize)]) -> f64 {
        let from = heads.iter().map(|h| h.0).min().expect("k > 0");
        let x = self.states[from].map(|v| v as f32);
        let opts = Options {
            ablate: heads,
            record: true,
        };
        let (output, layers) =
            forward::run_from(upto, from, x, &mut Cache::new(&upto.config), opts);
        let t = Trace {
            layers,
            output: output.map(f64::from),
        };
        let p = prefix_matching(&t, &self.repeat);
        mean(&of.iter().map(|&(l, h)| p[l - from][h]).collect::<Vec<_>>())
    }
}

/// One sequence's clean values and every head set's effect, in set order.
struct Effects {
    clean: f64,
    first: f64,
    clean_prefix: f64,
    rises: Vec<[f64; 2]>,
    drops: Vec<f64>,
}

/// `draws` random sets of `k` heads from each pool in turn, then `picked`;
/// pool `p` draws with seeds `DRAW_SEED + 100 p + d`.
fn sets(pools: &[(u64, Heads)], k: usize, draws: usize, picked: &Heads) -> Vec<Heads> {
    pools
        .iter()
        .flat_map(|(p, pool)| {
            (0..draws as u64).map(move |d| draw(pool, k, DRAW_SEED + 100 * p + d))
        })
        .chain(std::iter::once(picked.clone()))
        .collect()
}

/// The layers of `heads`, each once.
fn layers_of(heads: &[(usize, usize)]) -> Vec<usize> {
    let mut layers: Vec<usize> = heads.iter().map(|h| h.0).collect();
    layers.sort_unstable();
    layers.dedup();
    layers
}

impl Ablations {
    /// On the sequences `seeds`, with `setup.k` heads per set and
    /// `setup.draws` sets per control: the controls from the picked heads'
    /// own layers, and, if `wide`, from every layer (induction) and from
    /// every layer below the first induction layer (previous-token), with
    /// every set's rise on the first copy.
    ///
    /// # Panics
    /// If a same-layer pool has fewer than `k` heads.
    pub fn run_on(setup: Setup, scores: &Scores, seeds: Range<u64>, wide: bool) -> Ablations {
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
        let own = |heads: &Heads| pool(m, layers_of(heads).into_iter(), heads);
        let mut rise_pools = vec![(1, own(&induction))];
        let mut drop_pools = vec![(3, own(&previous))];
        assert!(
            rise_pools[0].1.len() >= k && (previous.is_empty() || drop_pools[0].1.len() >= k),
            "a same-layer pool smaller than k = {k}"
        );
        if wide {
            rise_pools.push((0, pool(m, 0..m.layers(), &induction)));
            drop_pools.push((2, pool(m, 0..first, &previous)));
        }
        // the blocks after the last induction layer cannot change its prefix score
        let last = induction.iter().map(|h| h.0).max().expect("k > 0");
        let upto = Weights {
            config: m.weights.config,
            embedding: nalgebra::DMatrix::zeros(0, 0),
            output_norm: m.weights.output_norm.clone(),
            blocks: m.weights.blocks[..=last].to_vec(),
        };
        let rise_sets = sets(&rise_pools, k, setup.draws, &induction);
        let drop_sets = sets(&drop_pools, k, setup.draws, &previous);
        let per = crate::parallel::map(seeds, |s| {
            let repeat = Repeat::draw(setup.lead, setup.length, s);
            let t = m.run(&repeat.ids);
            let clean_prefix = {
                let p = prefix_matching(&t, &repeat);
                mean(&induction.iter().map(|&(l, h)| p[l][h]).collect::<Vec<_>>())
            };
            let out = t.output.map(|v| v as f32);
            let (first, scored) = repeat.scored();
            let clean = mean_loss(m, &repeat, &out, scored);
            let first = mean_loss(m, &repeat, &out, first);
            let c = Clean {
                states: t.states(),
                repeat,
            };
            let rises: Vec<[f64; 2]> = rise_sets
                .iter()
                .map(|s| c.rise(m, s, [first, clean], wide))
                .collect();
            let drops: Vec<f64> = if previous.is_empty() {
                Vec::new()
            } else {
                drop_sets
                    .iter()
                    .map(|s| clean_prefix - c.prefix(&upto, s, &induction))
                    .collect()
            };
            Effects {
                clean,
                first,
                clean_prefix,
                rises,
                drops,
            }
        });
        // mean over sequences of `get(sequence)`
        let over = |get: &dyn Fn(&Effects) -> f64| mean(&per.iter().map(get).collect::<Vec<_>>());
        // rise on the first copy (c = 0) or the repeat (c = 1) of set i
        let rose = |c: usize| move |i: usize| over(&|p| p.rises[i][c]);
        let dropped = |i: usize| {
            if previous.is_empty() {
                f64::NAN
            } else {
                over(&|p| p.drops[i])
            }
        };
        let d = setup.draws;
        let wide_range = |on: bool| if on { d..2 * d } else { 0..0 };
        Ablations {
            clean: per.iter().map(|p| p.clean).collect(),
            first: per.iter().map(|p| p.first).collect(),
            prefix_clean: over(&|p| p.clean_prefix),
            induction_rise: rose(1)(rise_pools.len() * d),
            induction_first_rise: rose(0)(rise_pools.len() * d),
            same_layer_rise: (0..d).map(rose(1)).collect(),
            random_rise: wide_range(wide).map(rose(1)).collect(),
            same_layer_first_rise: (0..if wide { d } else { 0 }).map(rose(0)).collect(),
            random_first_rise: wide_range(wide).map(rose(0)).collect(),
            previous_drop: dropped(drop_pools.len() * d),
            same_layer_drop: (0..d).map(dropped).collect(),
            random_drop: wide_range(wide).map(dropped).collect(),
            induction,
            previous,
        }
    }
}
