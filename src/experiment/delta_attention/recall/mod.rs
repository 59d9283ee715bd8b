//! Chapter 7, learned: the five mixers trained on multi-query associative
//! recall ([`crate::recall::Mqar`]); accuracy against stored pairs and
//! against state size, and what the trained gates and token weights look like.
//!
//! Learning rates are tuned per mixer on seeds disjoint from the reported
//! ones. The training runs take longer than the book's time budget; like
//! every expensive experiment's, the findings are cached
//! ([`crate::experiment::cache`]).

use std::sync::OnceLock;

pub mod inside;
mod report;

use crate::experiment::cache;
use crate::mixer::{Config, Mixer, Schedule, train};
use crate::parallel;
use crate::recall::Mqar;
pub use report::{claims, measures};

/// Every setting of the experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub vocab: usize,
    /// Embedding width `d`.
    pub d: usize,
    pub steps: usize,
    pub batch: usize,
    /// Held-out sequences per run.
    pub test: usize,
    /// Stored pairs of the first sweep (at `K = V = state`).
    pub pairs: Vec<usize>,
    /// `K = V` of the second sweep (at `fixed_pairs`).
    pub states: Vec<usize>,
    /// Pairs at which the state sweep runs.
    pub fixed_pairs: usize,
    /// `K = V` at which the pair sweep runs.
    pub state: usize,
    /// Reported seeds `0..seeds`.
    pub seeds: u64,
    /// Tuning seeds `TUNE_BASE..TUNE_BASE + tune_seeds`, at (fixed_pairs, state).
    pub tune_seeds: u64,
    /// The starting learning-rate grid (extended while the best rate is at an edge).
    pub rates: Vec<f64>,
}

/// The first tuning seed; reported seeds are below it.
pub const TUNE_BASE: u64 = 1000;

/// The book's setup.
pub fn setup() -> Setup {
    Setup {
        vocab: 32,
        d: 16,
        steps: 300,
        batch: 16,
        test: 64,
        pairs: vec![2, 4, 8, 12],
        states: vec![2, 4, 8, 16],
        fixed_pairs: 8,
        state: 8,
        seeds: 5,
        tune_seeds: 2,
        rates: vec![0.003, 0.01, 0.03, 0.1, 0.3],
    }
}

impl Setup {
    /// The task with `pairs` pairs, `T = 4 · pairs`.
    pub fn task(&self, pairs: usize) -> Mqar {
        Mqar {
            vocab: self.vocab,
            pairs,
            len: 4 * pairs,
        }
    }

    /// The model of `mixer` with `K = V = state`.
    pub fn config(&self, mixer: Mixer, state: usize) -> Config {
        Config {
            mixer,
            vocab: self.vocab,
            d: self.d,
            k: state,
            v: state,
        }
    }

    fn schedule(&self, lr: f64) -> Schedule {
        Schedule {
            steps: self.steps,
            batch: self.batch,
            lr,
            test: self.test,
        }
    }
}

/// One run's numbers: its accuracy and, at the shared point, the inside view.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub accuracy: f64,
    pub inside: Option<inside::Inside>,
}

/// Everything the section reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    /// `tuning[m]`: `(rate, mean held-out cross-entropy over the tuning seeds)` of `Mixer::ALL[m]`.
    pub tuning: Vec<Vec<(f64, f64)>>,
    /// `by_pairs[m][i][seed]` at `setup.pairs[i]`.
    pub by_pairs: Vec<Vec<Vec<f64>>>,
    /// `by_state[m][i][seed]` at `setup.states[i]`.
    pub by_state: Vec<Vec<Vec<f64>>>,
    /// `inside[m][seed]` at (fixed_pairs, state).
    pub inside: Vec<Vec<inside::Inside>>,
}

impl Findings {
    /// The chosen rate of `Mixer::ALL[m]`: the lowest mean held-out loss on the tuning seeds.
    pub fn rate(&self, m: usize) -> f64 {
        best(&self.tuning[m]).0
    }

    /// Mean accuracy of mixer `m` at pair point `i`.
    pub fn pairs_mean(&self, m: usize, i: usize) -> f64 {
        crate::stats::mean(&self.by_pairs[m][i])
    }

    /// Mean accuracy of mixer `m` at state point `i`.
    pub fn state_mean(&self, m: usize, i: usize) -> f64 {
        crate::stats::mean(&self.by_state[m][i])
    }
}

fn best(grid: &[(f64, f64)]) -> (f64, f64) {
    grid.iter().copied().fold(
        (f64::NAN, f64::INFINITY),
        |b, x| if x.1 < b.1 { x } else { b },
    )
}

/// Run `jobs` on two threads, the costly and the cheap ones spread over both.
fn run_all<J: Sync, T: Send>(jobs: &[J], f: impl Fn(&J) -> T + Sync) -> Vec<T> {
    let n = jobs.len();
    // interleave front and back so each half holds a mix of sizes
    let order: Vec<usize> = (0..n)
        .map(|i| if i % 2 == 0 { i / 2 } else { n - 1 - i / 2 })
        .collect();
    let out = parallel::map(0..n as u64, |i| f(&jobs[order[i as usize]]));
    let mut slots: Vec<Option<T>> = (0..n).map(|_| None).collect();
    for (i, o) in out.into_iter().enumerate() {
        slots[order[i]] = Some(o);
    }
    slots
        .into_iter()
        .map(|o| o.expect("every job ran"))
        .collect()
}

impl Findings {
    /// Tune, then train every mixer at every point over the reported seeds.
    pub fn run(s: &Setup) -> Findings {
        let n_m = Mixer::ALL.len();
        let tune_task = s.task(s.fixed_pairs);
        let tune = |m: usize, lr: f64| {
            let accs: Vec<f64> = (0..s.tune_seeds)
                .map(|i| {
                    let cfg = s.config(Mixer::ALL[m], s.state);
                    train(cfg, tune_task, s.schedule(lr), TUNE_BASE + i).loss
                })
                .collect();
            crate::stats::mean(&accs)
        };
        let jobs: Vec<(usize, f64)> = (0..n_m)
            .flat_map(|m| s.rates.iter().map(move |&r| (m, r)))
            .collect();
        let scores = run_all(&jobs, |&(m, r)| tune(m, r));
        let mut tuning: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n_m];
        for (&(m, r), a) in jobs.iter().zip(scores) {
            tuning[m].push((r, a));
        }
        // a best rate at the grid's edge extends the grid by one step of ×√10
        for (m, grid) in tuning.iter_mut().enumerate() {
            for _ in 0..3 {
                let b = best(grid).0;
                let (lo, hi) = (grid[0].0, grid[grid.len() - 1].0);
                let next = if b == lo {
                    lo / 10f64.sqrt()
                } else if b == hi {
                    hi * 10f64.sqrt()
                } else {
                    break;
                };
                let a = tune(m, next);
                grid.push((next, a));
                grid.sort_by(|x, y| x.0.total_cmp(&y.0));
            }
        }
        let rates: Vec<f64> = tuning.iter().map(|g| best(g).0).collect();
        // (mixer, pairs, state, seed)
        let mut jobs = Vec::new();
        for m in 0..n_m {
            for &p in &s.pairs {
                for seed in 0..s.seeds {
                    jobs.push((m, p, s.state, seed));
                }
            }
            for &k in s.states.iter().filter(|&&k| k != s.state) {
                for seed in 0..s.seeds {
                    jobs.push((m, s.fixed_pairs, k, seed));
                }
            }
        }
        let outcomes = run_all(&jobs, |&(m, p, k, seed)| {
            let run = train(
                s.config(Mixer::ALL[m], k),
                s.task(p),
                s.schedule(rates[m]),
                seed,
            );
            let shared = p == s.fixed_pairs && k == s.state;
            Outcome {
                accuracy: run.accuracy,
                inside: shared.then(|| inside::Inside::of(&run)),
            }
        });
        let find = |m: usize, p: usize, k: usize, seed: u64| {
            let i = jobs
                .iter()
                .position(|&j| j == (m, p, k, seed))
                .expect("every point was run");
            &outcomes[i]
        };
        let seeds = |m, p, k| {
            (0..s.seeds)
                .map(|seed| find(m, p, k, seed).accuracy)
                .collect()
        };
        Findings {
            by_pairs: (0..n_m)
                .map(|m| s.pairs.iter().map(|&p| seeds(m, p, s.state)).collect())
                .collect(),
            by_state: (0..n_m)
                .map(|m| {
                    s.states
                        .iter()
                        .map(|&k| seeds(m, s.fixed_pairs, k))
                        .collect()
                })
                .collect(),
            inside: (0..n_m)
                .map(|m| {
                    (0..s.seeds)
                        .map(|seed| {
                            find(m, s.fixed_pairs, s.state, seed)
                                .inside
                                .clone()
                                .expect("the shared point is looked inside")
                        })
                        .collect()
                })
                .collect(),
            tuning,
        }
    }
}

/// `(x, mean, sd)` of one mixer's accuracies over a sweep, for the figures.
pub fn curve(rows: &[Vec<f64>], xs: &[usize]) -> Vec<(f64, f64, f64)> {
    xs.iter()
        .zip(rows)
        .map(|(&x, accs)| {
            let s = crate::stats::Summary::of(accs);
            (x as f64, s.mean, s.sd)
        })
        .collect()
}

/// The book's findings, computed (or read from the cache) once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    let setup = setup();
    FINDINGS.get_or_init(|| cache::load_or_run(module_path!(), &setup, || Findings::run(&setup)))
}
