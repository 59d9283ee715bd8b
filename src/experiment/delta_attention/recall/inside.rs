//! Inside a trained recall model: its decay rates per key channel, its write
//! strengths β, and its effective token weights against q·k similarities.

use nalgebra::DMatrix;

use crate::delta::effective_weights;
use crate::mixer::{Mixer, Model, Run};
use crate::recall::Sequence;
use crate::stats::{argmax, mean, quantile, spearman};

/// Held-out sequences looked inside per run.
pub const LOOKED_AT: usize = 16;

/// What one trained model shows.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Inside {
    /// Mean decay rate `−g` per key channel after training (one entry for Gated DeltaNet, none without decay).
    pub decay: Vec<f64>,
    /// The same before training.
    pub decay_init: Vec<f64>,
    /// Mean β at the value positions (where a pair is written), NaN without β.
    pub beta_values: f64,
    /// Mean β everywhere else.
    pub beta_other: f64,
    /// Spearman ρ between effective weight `W[t, j]` and similarity `s q̂_t·k̂_j`,
    /// `t` a query row and `j` a stored value's position.
    pub rho: f64,
    /// Share of queries whose largest `|effective weight|` over the stored values is on the answer.
    pub hit_weights: f64,
    /// Share of queries whose largest `|similarity|` over the stored values is on the answer.
    pub hit_similarity: f64,
    /// What survives of a write until its query after training: the mean over
    /// queries and key channels of `exp(Σ_{j<t≤p} g_t)` (NaN without decay).
    pub survival: f64,
    /// The same at initialisation.
    pub survival_init: f64,
}

/// The mean over the queries of `seqs` and the key channels of
/// `exp(Σ_{j<t≤p} g_t)`, `j` the position where the queried pair was written
/// and `p` the query: what decay leaves of a write when it is read. NaN without decay.
pub fn survival(model: &Model, seqs: &[Sequence]) -> f64 {
    let kd = model.config.k;
    let mut kept = Vec::new();
    for s in seqs {
        let Some(g) = model.forward(s).decay(kd) else {
            return f64::NAN;
        };
        for &(p, _) in &s.queries {
            let j = answer(s, p);
            for c in 0..kd {
                let total: f64 = (j + 1..=p).map(|t| g[(t, c)]).sum();
                kept.push(total.exp());
            }
        }
    }
    mean(&kept)
}

/// Mean `−g` per channel of `model` over `seqs` (empty without decay).
pub fn decay_rates(model: &Model, seqs: &[Sequence]) -> Vec<f64> {
    let mut sum: Vec<f64> = Vec::new();
    let mut n = 0usize;
    for s in seqs {
        if let Some(g) = model.forward(s).mix.g {
            sum.resize(g.ncols(), 0.0);
            for row in g.row_iter() {
                row.iter().zip(sum.iter_mut()).for_each(|(g, a)| *a -= g);
                n += 1;
            }
        }
    }
    sum.iter().map(|a| a / n.max(1) as f64).collect()
}

/// The position of the value stored with the key queried at `p`.
fn answer(s: &Sequence, p: usize) -> usize {
    (0..p)
        .step_by(2)
        .find(|&j| s.tokens[j] == s.tokens[p])
        .expect("every query asks a stored key")
        + 1
}

impl Inside {
    /// Look inside `run`'s trained model on its first [`LOOKED_AT`] held-out sequences.
    pub fn of(run: &Run) -> Inside {
        let (model, mixer) = (&run.model, run.model.config.mixer);
        let seqs = &run.test[..LOOKED_AT.min(run.test.len())];
        let kd = model.config.k;
        let scale = 1.0 / (kd as f64).sqrt();
        let (mut at_values, mut other) = (Vec::new(), Vec::new());
        let (mut sims, mut weights) = (Vec::new(), Vec::new());
        let (mut hit_w, mut hit_s, mut queries) = (0usize, 0usize, 0usize);
        for s in seqs {
            let pass = model.forward(s);
            let context = 2 * s.queries.len();
            if let Some(beta) = &pass.mix.beta {
                for (t, &b) in beta.iter().enumerate() {
                    if t < context && t % 2 == 1 {
                        at_values.push(b)
                    } else {
                        other.push(b)
                    }
                }
            }
            if mixer == Mixer::Softmax {
                continue;
            }
            // s q̂_t · k̂_j  [T, T]
            let sim = &pass.mix.q * pass.mix.k.transpose() * scale;
            let w = match &pass.mix.beta {
                Some(beta) => {
                    let g = pass
                        .decay(kd)
                        .unwrap_or_else(|| DMatrix::zeros(s.tokens.len(), kd));
                    effective_weights(&pass.mix.q, &pass.mix.k, &g, beta, scale)
                }
                None => sim.clone(),
            };
            // the stored values sit at 1, 3, …, 2n − 1
            let stored: Vec<usize> = (1..context).step_by(2).collect();
            for &(p, _) in &s.queries {
                let a = answer(s, p);
                // the sign of v is the readout's to choose (v → −v, W_o → −W_o): compare |weights|
                let hit = |m: &DMatrix<f64>| {
                    argmax(stored.iter().copied(), |j| m[(p, j)].abs()) == Some(a)
                };
                hit_w += usize::from(hit(&w));
                hit_s += usize::from(hit(&sim));
                queries += 1;
                for &j in &stored {
                    sims.push(sim[(p, j)]);
                    weights.push(w[(p, j)]);
                }
            }
        }
        let share = |h: usize| {
            if queries == 0 {
                f64::NAN
            } else {
                h as f64 / queries as f64
            }
        };
        Inside {
            decay: decay_rates(model, seqs),
            decay_init: decay_rates(&run.initial, seqs),
            beta_values: if at_values.is_empty() {
                f64::NAN
            } else {
                mean(&at_values)
            },
            beta_other: if other.is_empty() {
                f64::NAN
            } else {
                mean(&other)
            },
            rho: if sims.is_empty() {
                f64::NAN
            } else {
                spearman(&sims, &weights)
            },
            hit_weights: share(hit_w),
            hit_similarity: share(hit_s),
            survival: survival(model, seqs),
            survival_init: survival(&run.initial, seqs),
        }
    }

    /// Number of channels whose mean decay rate is above `rate`.
    pub fn channels_above(rates: &[f64], rate: f64) -> f64 {
        rates.iter().filter(|&&r| r > rate).count() as f64
    }

    /// The interquartile range of the channels' `ln` decay rates: how far the
    /// channels' time scales spread, in e-folds, robust to one channel near 0.
    pub fn log_spread(rates: &[f64]) -> f64 {
        if rates.is_empty() {
            return f64::NAN;
        }
        let logs: Vec<f64> = rates.iter().map(|r| r.max(1e-12).ln()).collect();
        quantile(&logs, 0.75) - quantile(&logs, 0.25)
    }

    /// Per channel, `ln(trained rate / initial rate)`: below 0 where training slowed the decay.
    pub fn log_ratios(&self) -> Vec<f64> {
        self.decay
            .iter()
            .zip(&self.decay_init)
            .map(|(t, i)| (t.max(1e-12) / i.max(1e-12)).ln())
            .collect()
    }
}
