//! Chapter 7: what per-channel decay (KDA) buys over one scalar decay
//! (Gated DeltaNet) on a task that needs a slow and a fast memory at once.
//!
//! The slow/fast task: `slow` facts on orthonormal keys in the first `slow`
//! key channels, written once with `β = 1`, then `stream` pairs with random
//! unit keys in the other `fast` channels, written with `β = 0.5`. At the end
//! the facts must still be read back (slow), and so must the last `probes`
//! stream pairs, while the first `probes` stream keys, long stale, must read
//! back nothing (fast).

use nalgebra::{DMatrix, DVector};

use crate::delta::{gated_delta_rule, kda};
use crate::measure::{Measure, fixed};
use crate::parallel;
use crate::random::{orthogonal, seeded, unit_rows};
use crate::stats::mean;

/// Sizes of the slow/fast task, the retentions searched, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Facts, and the key channels they use.
    pub slow: usize,
    /// Key channels of the stream.
    pub fast: usize,
    /// Length of the stream after the facts.
    pub stream: usize,
    /// Stream pairs probed at each end of the stream.
    pub probes: usize,
    /// Value width.
    pub v: usize,
    /// Per-step retention factors `α = exp(g)` searched, per channel group; the last is 1.
    pub alphas: &'static [f64],
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    slow: 4,
    fast: 8,
    stream: 64,
    probes: 2,
    v: 8,
    alphas: &[
        0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.96, 0.98, 0.99, 0.995, 1.0,
    ],
    seeds: super::SEEDS,
};

/// One sequence of the slow/fast task: `(k [T, K], v [T, V], beta [T])`.
pub fn slow_fast_task(setup: Setup, seed: u64) -> (DMatrix<f64>, DMatrix<f64>, DVector<f64>) {
    let (slow, fast) = (setup.slow, setup.fast);
    let mut rng = seeded(seed);
    let t = slow + setup.stream;
    let facts = orthogonal(&mut rng, slow);
    let stream = unit_rows(&mut rng, setup.stream, fast);
    let k = DMatrix::from_fn(t, slow + fast, |i, d| match (i < slow, d < slow) {
        (true, true) => facts[(i, d)],
        (false, false) => stream[(i - slow, d - slow)],
        _ => 0.0,
    });
    let v = unit_rows(&mut rng, t, setup.v);
    let beta = DVector::from_fn(t, |i, _| if i < slow { 1.0 } else { 0.5 });
    (k, v, beta)
}

/// Mean squared read-out errors `(slow, fast)` from the final state: the
/// facts against their values; the last stream pairs against their values
/// and the first stream keys against zero.
pub fn slow_fast_errors(
    setup: Setup,
    state: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
) -> (f64, f64) {
    let (slow, probes) = (setup.slow, setup.probes);
    let read = |i: usize| k.row(i) * state;
    let slow_error = (0..slow)
        .map(|i| (read(i) - v.row(i)).norm_squared())
        .sum::<f64>()
        / slow as f64;
    let t = k.nrows();
    let recent = (t - probes..t).map(|i| (read(i) - v.row(i)).norm_squared());
    let stale = (slow..slow + probes).map(|i| read(i).norm_squared());
    (
        slow_error,
        recent.chain(stale).sum::<f64>() / (2 * probes) as f64,
    )
}

/// Mean `(slow, fast)` errors of `errors(seed)` over the seeds.
fn over_seeds(setup: Setup, errors: impl Fn(u64) -> (f64, f64)) -> (f64, f64) {
    let runs: Vec<(f64, f64)> = (0..setup.seeds).map(errors).collect();
    (
        mean(&runs.iter().map(|r| r.0).collect::<Vec<_>>()),
        mean(&runs.iter().map(|r| r.1).collect::<Vec<_>>()),
    )
}

/// Mean `(slow, fast)` errors with per-channel retention `α_slow` on the
/// fact channels and `α_fast` on the stream channels (KDA).
pub fn kda_errors(setup: Setup, alpha_slow: f64, alpha_fast: f64) -> (f64, f64) {
    over_seeds(setup, |seed| {
        let (k, v, beta) = slow_fast_task(setup, seed);
        let g = DMatrix::from_fn(k.nrows(), k.ncols(), |_, d| {
            if d < setup.slow {
                alpha_slow.ln()
            } else {
                alpha_fast.ln()
            }
        });
        let (_, s) = kda(&k, &k, &v, &g, &beta, 1.0, None);
        slow_fast_errors(setup, &s, &k, &v)
    })
}

/// Mean `(slow, fast)` errors with one scalar retention `α` (Gated DeltaNet).
pub fn gdn_errors(setup: Setup, alpha: f64) -> (f64, f64) {
    over_seeds(setup, |seed| {
        let (k, v, beta) = slow_fast_task(setup, seed);
        let g = DVector::from_element(k.nrows(), alpha.ln());
        let (_, s) = gated_delta_rule(&k, &k, &v, &g, &beta, 1.0, None);
        slow_fast_errors(setup, &s, &k, &v)
    })
}

/// The decay search: mean `(slow, fast)` errors for every pair of
/// retentions (`grid[i][j]`: `α_slow = alphas[i]`, `α_fast = alphas[j]`), and
/// the scalar-gate errors along `alphas`.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub setup: Setup,
    pub grid: Vec<Vec<(f64, f64)>>,
    pub scalar: Vec<(f64, f64)>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let a = setup.alphas;
        let n = a.len() as u64;
        // job i < n²: the pair (a[i / n], a[i % n]); job n² + i: the scalar a[i]
        let mut errors = parallel::map(0..n * n + n, |i| {
            let i = i as usize;
            match i.checked_sub(a.len() * a.len()) {
                None => kda_errors(setup, a[i / a.len()], a[i % a.len()]),
                Some(j) => gdn_errors(setup, a[j]),
            }
        });
        let scalar = errors.split_off(a.len() * a.len());
        let grid = errors.chunks(a.len()).map(|row| row.to_vec()).collect();
        Findings {
            setup,
            grid,
            scalar,
        }
    }

    /// The best per-channel pair: `(α_slow, α_fast, (slow, fast))`.
    pub fn best_kda(&self) -> (f64, f64, (f64, f64)) {
        let alphas = self.setup.alphas;
        let mut best = (1.0, 1.0, (f64::INFINITY, f64::INFINITY));
        for (i, row) in self.grid.iter().enumerate() {
            for (j, &e) in row.iter().enumerate() {
                if e.0 + e.1 < best.2.0 + best.2.1 {
                    best = (alphas[i], alphas[j], e);
                }
            }
        }
        best
    }

    /// The best scalar retention: `(α, (slow, fast))`.
    pub fn best_gdn(&self) -> (f64, (f64, f64)) {
        let i = (0..self.scalar.len())
            .min_by(|&a, &b| {
                let (x, y) = (self.scalar[a], self.scalar[b]);
                (x.0 + x.1).total_cmp(&(y.0 + y.1))
            })
            .expect("alphas is not empty");
        (self.setup.alphas[i], self.scalar[i])
    }

    /// No decay at all (DeltaNet): `(slow, fast)`.
    pub fn none(&self) -> (f64, f64) {
        *self.scalar.last().expect("alphas ends with 1")
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 7 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (gdn_alpha, gdn) = f.best_gdn();
    let (kda_slow, kda_fast, kda_err) = f.best_kda();
    let none = f.none();
    let task = |e: (f64, f64)| fixed((e.0 + e.1) / 2.0, 3);
    vec![
        Measure::new("facts", BOOK.slow.to_string()),
        Measure::new("stream", BOOK.stream.to_string()),
        Measure::new("decay_none", task(none)),
        Measure::new("decay_none_slow", fixed(none.0, 3)),
        Measure::new("decay_none_fast", fixed(none.1, 3)),
        Measure::new("gdn_alpha", fixed(gdn_alpha, 3)),
        Measure::new("gdn", task(gdn)),
        Measure::new("gdn_slow", fixed(gdn.0, 3)),
        Measure::new("gdn_fast", fixed(gdn.1, 3)),
        Measure::new("kda_alpha_slow", fixed(kda_slow, 3)),
        Measure::new("kda_alpha_fast", fixed(kda_fast, 3)),
        Measure::new("kda", task(kda_err)),
        Measure::new("kda_slow", fixed(kda_err.0, 3)),
        Measure::new("kda_fast", fixed(kda_err.1, 3)),
    ]
}
