//! Chapter 7: delta attention. What the effective token weights of a delta
//! rule look like, how many key–value pairs additive and delta memories hold,
//! what per-channel decay buys over a scalar one, that the chunkwise form is
//! the recurrence, and how the cost grows with sequence length.

pub mod recall;

use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};
use rand::RngExt;

use crate::delta::{
    ChunkMatrices, DecayForm, chunk_matrices, delta_rule, effective_weights, flops_chunked,
    flops_recurrent, flops_softmax, gated_delta_rule, kda, kda_chunked, kda_chunked_with,
    l2_normalize, linear_attention,
};
use crate::measure::{Measure, fixed, pm};
use crate::random::{Rng, gaussian, orthogonal, seeded};
use crate::stats::{Summary, mean, spearman};

/// Number of seeds behind every summary in the chapter.
pub const SEEDS: u64 = 20;

/// Unit-norm random rows `[t, d]`.
pub fn unit_rows(rng: &mut Rng, t: usize, d: usize) -> DMatrix<f64> {
    let mut x = gaussian(rng, t, d, 1.0);
    for mut r in x.row_iter_mut() {
        let n = r.norm();
        r /= n;
    }
    x
}

// ---------------------------------------------------------------- token weights

/// Sequence length and key width of the token-weight experiment.
pub const WEIGHTS_T: usize = 32;
/// Key width of the token-weight experiment.
pub const WEIGHTS_K: usize = 8;

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

/// The token weights of one seed, on `t` steps.
pub fn token_weights(t: usize, seed: u64) -> TokenWeights {
    let mut rng = seeded(seed);
    let q = unit_rows(&mut rng, t, WEIGHTS_K);
    let k = unit_rows(&mut rng, t, WEIGHTS_K);
    let beta = DVector::from_fn(t, |_, _| 0.2 + 0.8 * rng.random::<f64>());
    let mut similarity = &q * k.transpose();
    for i in 0..t {
        for j in (i + 1)..t {
            similarity[(i, j)] = 0.0;
        }
    }
    let delta = effective_weights(&q, &k, &DMatrix::zeros(t, WEIGHTS_K), &beta, 1.0);
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
pub fn weight_stats(seed: u64) -> WeightStats {
    let (s, w) = token_weights(WEIGHTS_T, seed).pairs();
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

// ---------------------------------------------------------------- capacity

/// Width `K = V` of the memory in the capacity experiment.
pub const CAPACITY_D: usize = 32;

/// Numbers of stored pairs at which capacity is measured.
pub const CAPACITY_N: [usize; 14] = [1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 128];

/// How the memory is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Linear attention: `S += k vᵀ`.
    Additive,
    /// DeltaNet with `β = 1`.
    Delta,
}

impl Write {
    pub const ALL: [Write; 2] = [Write::Additive, Write::Delta];

    pub fn name(self) -> &'static str {
        match self {
            Write::Additive => "additive",
            Write::Delta => "delta",
        }
    }

    /// The final state after writing `k: [n, K]`, `v: [n, V]`.
    pub fn store(self, k: &DMatrix<f64>, v: &DMatrix<f64>) -> DMatrix<f64> {
        match self {
            Write::Additive => linear_attention(k, k, v, 1.0, None).1,
            Write::Delta => {
                delta_rule(k, k, v, &DVector::from_element(k.nrows(), 1.0), 1.0, None).1
            }
        }
    }
}

/// Relative retrieval error `Σ_i ‖Sᵀ k_i − v_i‖² / Σ_i ‖v_i‖²` after storing
/// `n` random unit keys with unit values.
pub fn retrieval_error(write: Write, n: usize, seed: u64) -> f64 {
    let mut rng = seeded(seed);
    let k = unit_rows(&mut rng, n, CAPACITY_D);
    let v = unit_rows(&mut rng, n, CAPACITY_D);
    let s = write.store(&k, &v);
    (&k * &s - &v).norm_squared() / v.norm_squared()
}

/// Pairs written before the overwrite in the book's overwrite experiment.
pub const OVERWRITE_BEFORE: usize = 16;
/// Pairs written after it.
pub const OVERWRITE_AFTER: usize = 8;

/// Relative error of reading key 0 after it was written with `v`, then
/// overwritten with `v'`, then followed by `after` more pairs; against `v'`.
pub fn overwrite_error(write: Write, before: usize, after: usize, seed: u64) -> f64 {
    let mut rng = seeded(seed);
    let n = before + 1 + after;
    let mut k = unit_rows(&mut rng, n, CAPACITY_D);
    let v = unit_rows(&mut rng, n, CAPACITY_D);
    let k0 = k.row(0).clone_owned();
    k.row_mut(before).copy_from(&k0);
    let s = write.store(&k, &v);
    let read = k0 * &s;
    (read - v.row(before)).norm_squared() / v.row(before).norm_squared()
}

// ---------------------------------------------------------------- decay

/// The slow/fast task: `SLOW` facts on orthonormal keys in the first `SLOW`
/// key channels, written once with `β = 1`, then `STREAM` pairs with random
/// unit keys in the other `FAST` channels, written with `β = 0.5`. At the end
/// the facts must still be read back (slow), and so must the last `PROBES`
/// stream pairs, while the first `PROBES` stream keys, long stale, must read
/// back nothing (fast).
pub const SLOW: usize = 4;
/// Key channels of the stream.
pub const FAST: usize = 8;
/// Length of the stream after the facts.
pub const STREAM: usize = 64;
/// Stream pairs probed at each end of the stream.
pub const PROBES: usize = 2;
/// Value width.
pub const DECAY_V: usize = 8;
/// Per-step retention factors `α = exp(g)` searched, per channel group.
pub const ALPHAS: [f64; 16] = [
    0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.96, 0.98, 0.99, 0.995, 1.0,
];

/// One sequence of the slow/fast task: `(k [T, K], v [T, V], beta [T])`.
pub fn slow_fast_task(seed: u64) -> (DMatrix<f64>, DMatrix<f64>, DVector<f64>) {
    let mut rng = seeded(seed);
    let t = SLOW + STREAM;
    let facts = orthogonal(&mut rng, SLOW);
    let stream = unit_rows(&mut rng, STREAM, FAST);
    let k = DMatrix::from_fn(t, SLOW + FAST, |i, d| match (i < SLOW, d < SLOW) {
        (true, true) => facts[(i, d)],
        (false, false) => stream[(i - SLOW, d - SLOW)],
        _ => 0.0,
    });
    let v = unit_rows(&mut rng, t, DECAY_V);
    let beta = DVector::from_fn(t, |i, _| if i < SLOW { 1.0 } else { 0.5 });
    (k, v, beta)
}

/// Mean squared read-out errors `(slow, fast)` from the final state: the
/// facts against their values; the last stream pairs against their values
/// and the first stream keys against zero.
pub fn slow_fast_errors(state: &DMatrix<f64>, k: &DMatrix<f64>, v: &DMatrix<f64>) -> (f64, f64) {
    let read = |i: usize| k.row(i) * state;
    let slow = (0..SLOW)
        .map(|i| (read(i) - v.row(i)).norm_squared())
        .sum::<f64>()
        / SLOW as f64;
    let t = k.nrows();
    let recent = (t - PROBES..t).map(|i| (read(i) - v.row(i)).norm_squared());
    let stale = (SLOW..SLOW + PROBES).map(|i| read(i).norm_squared());
    (slow, recent.chain(stale).sum::<f64>() / (2 * PROBES) as f64)
}

/// Mean `(slow, fast)` errors over `seeds` with per-channel retention
/// `α_slow` on the fact channels and `α_fast` on the stream channels (KDA).
pub fn kda_errors(alpha_slow: f64, alpha_fast: f64, seeds: u64) -> (f64, f64) {
    let runs: Vec<(f64, f64)> = (0..seeds)
        .map(|seed| {
            let (k, v, beta) = slow_fast_task(seed);
            let g = DMatrix::from_fn(k.nrows(), k.ncols(), |_, d| {
                if d < SLOW {
                    alpha_slow.ln()
                } else {
                    alpha_fast.ln()
                }
            });
            let (_, s) = kda(&k, &k, &v, &g, &beta, 1.0, None);
            slow_fast_errors(&s, &k, &v)
        })
        .collect();
    (
        mean(&runs.iter().map(|r| r.0).collect::<Vec<_>>()),
        mean(&runs.iter().map(|r| r.1).collect::<Vec<_>>()),
    )
}

/// Mean `(slow, fast)` errors over `seeds` with one scalar retention `α` (Gated DeltaNet).
pub fn gdn_errors(alpha: f64, seeds: u64) -> (f64, f64) {
    let runs: Vec<(f64, f64)> = (0..seeds)
        .map(|seed| {
            let (k, v, beta) = slow_fast_task(seed);
            let g = DVector::from_element(k.nrows(), alpha.ln());
            let (_, s) = gated_delta_rule(&k, &k, &v, &g, &beta, 1.0, None);
            slow_fast_errors(&s, &k, &v)
        })
        .collect();
    (
        mean(&runs.iter().map(|r| r.0).collect::<Vec<_>>()),
        mean(&runs.iter().map(|r| r.1).collect::<Vec<_>>()),
    )
}

/// The decay search: mean task error `(slow + fast)/2` for every pair of
/// retentions (`grid[i][j]`: `α_slow = ALPHAS[i]`, `α_fast = ALPHAS[j]`), and
/// the scalar-gate errors along `ALPHAS`.
#[derive(Clone, Debug, PartialEq)]
pub struct DecaySearch {
    pub grid: Vec<Vec<(f64, f64)>>,
    pub scalar: Vec<(f64, f64)>,
}

impl DecaySearch {
    pub fn run(seeds: u64) -> DecaySearch {
        let grid = ALPHAS
            .iter()
            .map(|&a| ALPHAS.iter().map(|&b| kda_errors(a, b, seeds)).collect())
            .collect();
        let scalar = ALPHAS.iter().map(|&a| gdn_errors(a, seeds)).collect();
        DecaySearch { grid, scalar }
    }

    /// The best per-channel pair: `(α_slow, α_fast, (slow, fast))`.
    pub fn best_kda(&self) -> (f64, f64, (f64, f64)) {
        let mut best = (1.0, 1.0, (f64::INFINITY, f64::INFINITY));
        for (i, row) in self.grid.iter().enumerate() {
            for (j, &e) in row.iter().enumerate() {
                if e.0 + e.1 < best.2.0 + best.2.1 {
                    best = (ALPHAS[i], ALPHAS[j], e);
                }
            }
        }
        best
    }

    /// The best scalar retention: `(α, (slow, fast))`.
    pub fn best_gdn(&self) -> (f64, (f64, f64)) {
        let i = (0..ALPHAS.len())
            .min_by(|&a, &b| {
                let (x, y) = (self.scalar[a], self.scalar[b]);
                (x.0 + x.1).total_cmp(&(y.0 + y.1))
            })
            .expect("ALPHAS is not empty");
        (ALPHAS[i], self.scalar[i])
    }

    /// No decay at all (DeltaNet): `(slow, fast)`.
    pub fn none(&self) -> (f64, f64) {
        *self.scalar.last().expect("ALPHAS ends with 1")
    }
}

// ---------------------------------------------------------------- chunkwise form

/// Chunk length and key width of the chunk-matrices picture.
pub const PICTURE_L: usize = 16;

/// The matrices of one chunk of `PICTURE_L` steps (K = 8, g ~ −U(0, 0.3), β ~ U(0, 1)), seed 1.
pub fn chunk_picture() -> ChunkMatrices {
    let mut rng = seeded(1);
    let q = l2_normalize(&gaussian(&mut rng, PICTURE_L, 8, 1.0));
    let k = l2_normalize(&gaussian(&mut rng, PICTURE_L, 8, 1.0));
    let g = DMatrix::from_fn(PICTURE_L, 8, |_, _| -0.3 * rng.random::<f64>());
    let beta = DVector::from_fn(PICTURE_L, |_, _| rng.random::<f64>());
    chunk_matrices(&q, &k, &g, &beta, 1.0 / 8f64.sqrt())
}

/// A random KDA input `(q, k, v, g, beta, s0)` with per-step decays `−strength · U(0, 1)`.
#[allow(clippy::type_complexity)]
pub fn random_input(
    seed: u64,
    t: usize,
    kd: usize,
    vd: usize,
    strength: f64,
) -> (
    DMatrix<f64>,
    DMatrix<f64>,
    DMatrix<f64>,
    DMatrix<f64>,
    DVector<f64>,
    DMatrix<f64>,
) {
    let mut rng = seeded(seed);
    let q = unit_rows(&mut rng, t, kd);
    let k = unit_rows(&mut rng, t, kd);
    let v = gaussian(&mut rng, t, vd, 1.0);
    let g = DMatrix::from_fn(t, kd, |_, _| -strength * rng.random::<f64>());
    let beta = DVector::from_fn(t, |_, _| rng.random::<f64>());
    let s0 = gaussian(&mut rng, kd, vd, 1.0);
    (q, k, v, g, beta, s0)
}

/// The largest difference between `kda_chunked` and `kda` (outputs and final
/// state) over `seeds` random cases: T = 100, K = 8, V = 6, chunks 1, 7, 16,
/// 64, decays from none to −20 per step.
pub fn chunk_agreement(seeds: u64) -> f64 {
    let mut worst: f64 = 0.0;
    for seed in 0..seeds {
        for strength in [0.0, 0.1, 1.0, 20.0] {
            let (q, k, v, g, beta, s0) = random_input(seed, 100, 8, 6, strength);
            let (o1, s1) = kda(&q, &k, &v, &g, &beta, 0.35, Some(&s0));
            for c in [1, 7, 16, 64] {
                let (o2, s2) = kda_chunked(&q, &k, &v, &g, &beta, 0.35, Some(&s0), c);
                worst = worst.max((&o1 - o2).amax()).max((&s1 - s2).amax());
            }
        }
    }
    worst
}

/// Constant per-step decays `g = −s` swept by the stability experiment.
pub const STRENGTHS: [f64; 12] = [
    0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 6.0, 9.0, 11.0, 12.0, 15.0, 20.0,
];

/// For each constant decay `g = −s` per step (T = 128, K = 4, V = 3, chunks of
/// 64): the largest error against the recurrence of the difference and the
/// factorised forms (`NaN` when the form produced a non-finite number).
pub fn stability() -> Vec<(f64, f64, f64)> {
    STRENGTHS
        .iter()
        .map(|&s| {
            let (q, k, v, _, beta, s0) = random_input(3, 128, 4, 3, 0.0);
            let g = DMatrix::from_element(128, 4, -s);
            let (o, _) = kda(&q, &k, &v, &g, &beta, 0.5, Some(&s0));
            let err = |form| {
                let (oc, _) = kda_chunked_with(&q, &k, &v, &g, &beta, 0.5, Some(&s0), 64, form);
                if oc.iter().all(|x| x.is_finite()) {
                    (&o - oc).amax()
                } else {
                    f64::NAN
                }
            };
            (s, err(DecayForm::Difference), err(DecayForm::Factorised))
        })
        .collect()
}

// ---------------------------------------------------------------- cost

/// Width `K = V` of the cost comparison.
pub const COST_D: usize = 128;
/// Chunk size of the cost comparison.
pub const COST_C: usize = 64;

/// Sequence lengths of the cost figure: powers of two from 64 to 2²⁰.
pub fn cost_lengths() -> Vec<usize> {
    (6..=20).map(|p| 1usize << p).collect()
}

/// The smallest power of two at which `kda_chunked` counts fewer flops than softmax attention.
pub fn crossover() -> usize {
    cost_lengths()
        .into_iter()
        .find(|&t| flops_chunked(t, COST_D, COST_D, COST_C) < flops_softmax(t, COST_D, COST_D))
        .expect("the chunked form wins within 2^20")
}

/// The share of a 3:1 hybrid's cache saved at length `t` against full
/// attention, if three of four layers keep a `K·V` state instead of a
/// `T·(K + V)` cache.
pub fn hybrid_cache_saving(t: usize) -> f64 {
    let (kv, cache) = ((COST_D * COST_D) as f64, (t * 2 * COST_D) as f64);
    1.0 - (0.25 * cache + 0.75 * kv) / cache
}

// ---------------------------------------------------------------- book

/// Everything chapter 7 reports, at book size.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub weights: Vec<WeightStats>,
    /// `capacity[w][i][seed]`: error of write `Write::ALL[w]` at `CAPACITY_N[i]` pairs.
    pub capacity: Vec<Vec<Vec<f64>>>,
    /// `overwrite[w][seed]`.
    pub overwrite: Vec<Vec<f64>>,
    pub decay: DecaySearch,
    pub chunk_error: f64,
    pub stability: Vec<(f64, f64, f64)>,
}

impl Findings {
    pub fn run(seeds: u64) -> Findings {
        std::thread::scope(|scope| {
            let decay = scope.spawn(move || DecaySearch::run(seeds));
            let chunk_error = scope.spawn(move || chunk_agreement(seeds / 4));
            let weights = (0..seeds).map(weight_stats).collect();
            let capacity = Write::ALL
                .iter()
                .map(|&w| {
                    CAPACITY_N
                        .iter()
                        .map(|&n| (0..seeds).map(|s| retrieval_error(w, n, s)).collect())
                        .collect()
                })
                .collect();
            let overwrite = Write::ALL
                .iter()
                .map(|&w| {
                    (0..seeds)
                        .map(|s| overwrite_error(w, OVERWRITE_BEFORE, OVERWRITE_AFTER, s))
                        .collect()
                })
                .collect();
            Findings {
                weights,
                capacity,
                overwrite,
                decay: decay.join().expect("the decay search does not panic"),
                chunk_error: chunk_error
                    .join()
                    .expect("the chunk agreement does not panic"),
                stability: stability(),
            }
        })
    }

    /// Summary of one weight statistic over the seeds.
    pub fn weight_summary(&self, field: fn(&WeightStats) -> f64) -> Summary {
        Summary::of(&self.weights.iter().map(field).collect::<Vec<_>>())
    }

    /// Retrieval error of `write` at `n` stored pairs (`n` must be in `CAPACITY_N`).
    pub fn capacity_at(&self, write: Write, n: usize) -> Summary {
        let w = Write::ALL
            .iter()
            .position(|&x| x == write)
            .expect("a known write");
        let i = CAPACITY_N
            .iter()
            .position(|&x| x == n)
            .expect("n is one of CAPACITY_N");
        Summary::of(&self.capacity[w][i])
    }

    /// Overwrite error of `write`.
    pub fn overwrite_of(&self, write: Write) -> Summary {
        let w = Write::ALL
            .iter()
            .position(|&x| x == write)
            .expect("a known write");
        Summary::of(&self.overwrite[w])
    }

    /// The smallest decay at which the factorised form fails.
    pub fn factorised_failure(&self) -> Option<f64> {
        self.stability.iter().find(|s| s.2.is_nan()).map(|s| s.0)
    }

    /// The largest error of the difference form over the sweep.
    pub fn difference_error(&self) -> f64 {
        self.stability.iter().map(|s| s.1).fold(0.0, f64::max)
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(SEEDS))
}

/// `x` in scientific notation with one decimal, e.g. `3.2e-15`.
fn sci(x: f64) -> String {
    format!("{x:.1e}")
}

/// The numbers chapter 7's prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (gdn_alpha, gdn) = f.decay.best_gdn();
    let (kda_slow, kda_fast, kda_err) = f.decay.best_kda();
    let none = f.decay.none();
    let t_big = 1 << 20;
    let mut m = vec![
        Measure::new("seeds", SEEDS.to_string()),
        Measure::new("weights_t", WEIGHTS_T.to_string()),
        Measure::new("weights_k", WEIGHTS_K.to_string()),
        Measure::new("rho_delta", pm(f.weight_summary(|w| w.rho), 2)),
        Measure::new("flips_delta", pm(f.weight_summary(|w| w.sign_flips), 2)),
        Measure::new("negative_delta", pm(f.weight_summary(|w| w.negative), 2)),
        Measure::new(
            "negative_similarity",
            pm(f.weight_summary(|w| w.negative_similarity), 2),
        ),
        Measure::new("capacity_d", CAPACITY_D.to_string()),
        Measure::new("overwrite_before", OVERWRITE_BEFORE.to_string()),
        Measure::new("overwrite_after", OVERWRITE_AFTER.to_string()),
        Measure::new("facts", SLOW.to_string()),
        Measure::new("picture_l", PICTURE_L.to_string()),
        Measure::new("picture_seeds", (SEEDS / 4).to_string()),
        Measure::new("overwrite_additive", pm(f.overwrite_of(Write::Additive), 2)),
        Measure::new("overwrite_delta", pm(f.overwrite_of(Write::Delta), 2)),
        Measure::new("decay_none", fixed((none.0 + none.1) / 2.0, 3)),
        Measure::new("decay_none_slow", fixed(none.0, 3)),
        Measure::new("decay_none_fast", fixed(none.1, 3)),
        Measure::new("gdn_alpha", fixed(gdn_alpha, 3)),
        Measure::new("gdn", fixed((gdn.0 + gdn.1) / 2.0, 3)),
        Measure::new("gdn_slow", fixed(gdn.0, 3)),
        Measure::new("gdn_fast", fixed(gdn.1, 3)),
        Measure::new("kda_alpha_slow", fixed(kda_slow, 3)),
        Measure::new("kda_alpha_fast", fixed(kda_fast, 3)),
        Measure::new("kda", fixed((kda_err.0 + kda_err.1) / 2.0, 3)),
        Measure::new("kda_slow", fixed(kda_err.0, 3)),
        Measure::new("kda_fast", fixed(kda_err.1, 3)),
        Measure::new("stream", STREAM.to_string()),
        Measure::new("chunk_error", sci(f.chunk_error)),
        Measure::new("chunk_cases", (SEEDS / 4 * 4 * 4).to_string()),
        Measure::new("difference_error", sci(f.difference_error())),
        Measure::new(
            "factorised_failure",
            f.factorised_failure()
                .map_or("never".to_string(), |s| fixed(s, 0)),
        ),
        Measure::new("crossover", crossover().to_string()),
        Measure::new(
            "flops_ratio_1m",
            fixed(
                flops_softmax(t_big, COST_D, COST_D) / flops_chunked(t_big, COST_D, COST_D, COST_C),
                0,
            ),
        ),
        Measure::new(
            "chunked_over_recurrent",
            fixed(
                flops_chunked(4096, COST_D, COST_D, COST_C) / flops_recurrent(4096, COST_D, COST_D),
                2,
            ),
        ),
        Measure::new(
            "hybrid_saving",
            fixed(100.0 * hybrid_cache_saving(t_big), 2),
        ),
    ];
    for w in Write::ALL {
        for (label, n) in [
            ("half", CAPACITY_D / 2),
            ("full", CAPACITY_D),
            ("double", 2 * CAPACITY_D),
        ] {
            m.push(Measure::new(
                format!("capacity_{}_{label}", w.name()),
                pm(f.capacity_at(w, n), 2),
            ));
        }
    }
    m.extend(recall::measures());
    m
}

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<crate::claim::Claim> {
    Vec::new()
}
