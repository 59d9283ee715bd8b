//! Chapter 7, learned: the five mixers trained on multi-query associative
//! recall ([`crate::recall::Mqar`]); accuracy against stored pairs and
//! against state size, and what the trained gates and token weights look like.
//!
//! Learning rates are tuned per mixer and layer on seeds disjoint from the
//! reported ones; every reported run trains until its held-out accuracy
//! plateaus ([`crate::train::Plateau`]) or it hits a step cap. Each
//! [`Variant`] builds the layers differently (gate initialisation, output
//! norm). The training runs take longer than the book's time budget; like
//! every expensive experiment's, the findings are cached
//! ([`crate::experiment::cache`]).

pub mod claims;
pub mod inside;
mod report;
pub mod tally;
mod variant;

use crate::mixer::{Config, Mixer, Schedule, train_to_plateau};
use crate::parallel;
use crate::recall::Mqar;
use crate::stats::mean;
use crate::train::tuning::{self, Extend};
use crate::train::{Plateau, Stop};
pub use claims::claims;
pub use report::measures;
pub use variant::Variant;

/// Every setting of the experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub vocab: usize,
    /// Embedding width `d`.
    pub d: usize,
    /// The schedule of every reported run: its `steps` the cap, its `lr`
    /// unused (each arm trains at its tuned rate).
    pub schedule: Schedule,
    /// No plateau is declared before this step.
    pub min_steps: usize,
    /// Held-out accuracy is evaluated every this many steps.
    pub every: usize,
    /// Steps of every tuning run.
    pub tune_steps: usize,
    /// Stored pairs of the first sweep (at `K = V = state`).
    pub pairs: Vec<usize>,
    /// `K = V` of the second sweep (at `fixed_pairs`).
    pub states: Vec<usize>,
    /// Pairs at which the state sweep runs.
    pub fixed_pairs: usize,
    /// `K = V` at which the pair sweep runs.
    pub state: usize,
    /// Pairs at which the other [`Variant`]s run (at `K = V = state`).
    pub variant_pairs: Vec<usize>,
    /// Reported seeds `0..seeds`.
    pub seeds: u64,
    /// Tuning seeds `TUNE_BASE..TUNE_BASE + tune_seeds`, at (fixed_pairs, state).
    pub tune_seeds: u64,
    /// The starting learning-rate grid of the book's layers (extended while the best rate is at an edge).
    pub rates: Vec<f64>,
}

/// The first tuning seed; reported seeds are below it.
pub const TUNE_BASE: u64 = 1000;

/// The book's setup.
pub fn setup() -> Setup {
    Setup {
        vocab: 32,
        d: 16,
        schedule: Schedule {
            steps: 1200,
            batch: 16,
            lr: 0.0,
            test: 64,
        },
        min_steps: 300,
        every: 50,
        tune_steps: 300,
        pairs: vec![2, 4, 8, 12],
        states: vec![2, 8, 16],
        fixed_pairs: 8,
        state: 8,
        variant_pairs: vec![8, 12],
        seeds: 4,
        tune_seeds: 2,
        rates: vec![0.01, 0.03, 0.1, 0.3],
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

    /// The longest sequence of the sweep: the horizon of [`Variant::GatesNearOne`].
    pub fn horizon(&self) -> usize {
        4 * self.pairs.iter().copied().max().unwrap_or(1)
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

    /// The plateau rule of every reported run.
    pub fn plateau(&self) -> Plateau {
        Plateau::BOOK.after(self.min_steps)
    }

    /// The schedule of `steps` steps at rate `lr`.
    fn schedule_at(&self, steps: usize, lr: f64) -> Schedule {
        Schedule {
            steps,
            lr,
            ..self.schedule
        }
    }

    /// The points `(pairs, state)` at which `variant` runs.
    pub fn points(&self, variant: Variant) -> Vec<(usize, usize)> {
        match variant {
            Variant::Book => {
                let sweep = self.pairs.iter().map(|&p| (p, self.state));
                let states = self.states.iter().filter(|&&k| k != self.state);
                sweep
                    .chain(states.map(|&k| (self.fixed_pairs, k)))
                    .collect()
            }
            _ => self
                .variant_pairs
                .iter()
                .map(|&p| (p, self.state))
                .collect(),
        }
    }
}

/// One reported run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    pub variant: Variant,
    /// Index into `Mixer::ALL`.
    pub mixer: usize,
    pub pairs: usize,
    pub state: usize,
    pub seed: u64,
    /// Held-out accuracy when training stopped.
    pub accuracy: f64,
    pub stop: Stop,
    /// `(step, held-out accuracy)` at every evaluation.
    pub curve: Vec<(usize, f64)>,
    /// At (fixed_pairs, state) only: the inside view.
    pub inside: Option<inside::Inside>,
}

/// Everything the section reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    /// `tuning[v][m]`: `(rate, mean held-out cross-entropy over the tuning seeds)`
    /// of `Mixer::ALL[m]` under `Variant::ALL[v]` (empty where it does not run
    /// or takes the book's rate).
    pub tuning: Vec<Vec<Vec<(f64, f64)>>>,
    pub runs: Vec<Point>,
}

impl Findings {
    /// The rate of `Mixer::ALL[m]` under `v`: the lowest mean held-out loss on the tuning seeds.
    pub fn rate(&self, v: Variant, m: usize) -> f64 {
        let grid = &self.tuning[v.index()][m];
        match grid.is_empty() {
            true => chosen(&self.tuning[Variant::Book.index()][m]),
            false => chosen(grid),
        }
    }

    /// The runs of mixer `m` under `v` at `(pairs, state)`, in seed order.
    pub fn at(&self, v: Variant, m: usize, pairs: usize, state: usize) -> Vec<&Point> {
        self.runs
            .iter()
            .filter(|r| r.variant == v && r.mixer == m && r.pairs == pairs && r.state == state)
            .collect()
    }

    /// The accuracies of [`Findings::at`].
    pub fn accs(&self, v: Variant, m: usize, pairs: usize, state: usize) -> Vec<f64> {
        self.at(v, m, pairs, state)
            .iter()
            .map(|r| r.accuracy)
            .collect()
    }

    /// Mean accuracy of [`Findings::at`].
    pub fn mean(&self, v: Variant, m: usize, pairs: usize, state: usize) -> f64 {
        crate::stats::mean(&self.accs(v, m, pairs, state))
    }

    /// `(capped, runs)` of mixer `m` under `v`, over every point.
    pub fn capped(&self, v: Variant, m: usize) -> (usize, usize) {
        let runs: Vec<&Point> = self
            .runs
            .iter()
            .filter(|r| r.variant == v && r.mixer == m)
            .collect();
        let capped = runs.iter().filter(|r| r.stop.capped()).count();
        (capped, runs.len())
    }

    /// The inside views of mixer `m` under `v`, one per seed.
    pub fn inside(&self, v: Variant, m: usize) -> Vec<&inside::Inside> {
        self.runs
            .iter()
            .filter(|r| r.variant == v && r.mixer == m)
            .filter_map(|r| r.inside.as_ref())
            .collect()
    }
}

/// The ratio of neighbouring rates tried: √10 (the starting grid's, rounded
/// to one digit there).
fn step() -> f64 {
    10f64.sqrt()
}

/// How a grid grows: a best rate at an edge adds one more `step` past it,
/// at most three times per arm.
pub fn extend() -> Extend {
    Extend {
        times: 3,
        factor: Some(step()),
    }
}

/// The rate of lowest mean held-out loss in `grid` (`(rate, loss)`; the first wins ties).
fn chosen(grid: &[(f64, f64)]) -> f64 {
    let losses: Vec<f64> = grid.iter().map(|g| g.1).collect();
    grid[tuning::best(&losses, tuning::lower)].0
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
    /// Tune each arm's rate, then train every arm at its points over the reported seeds.
    pub fn run(s: &Setup) -> Findings {
        let n_m = Mixer::ALL.len();
        let tune_task = s.task(s.fixed_pairs);
        let tune = |v: Variant, arms: &[usize], rates: &[f64]| {
            let seeds = TUNE_BASE..TUNE_BASE + s.tune_seeds;
            let loss = |&m: &usize, lr: f64, seed: u64| {
                let cfg = s.config(Mixer::ALL[m], s.state);
                let cap = s.schedule_at(s.tune_steps, lr);
                let layer = v.layer(s.horizon());
                train_to_plateau(cfg, layer, tune_task, cap, None, s.tune_steps, seed).loss
            };
            tuning::tune(arms, rates, seeds, extend(), loss, mean, tuning::lower)
        };
        let mut tuning = vec![vec![Vec::new(); n_m]; Variant::ALL.len()];
        // the book's layers on the starting grid
        let book = Variant::Book.mixers();
        for (&m, t) in book.iter().zip(tune(Variant::Book, &book, &s.rates)) {
            tuning[Variant::Book.index()][m] = t.grid;
        }
        // the output-norm layers on the book's rate and one step either side
        let step = step();
        for m in Variant::OutputNorm.mixers() {
            let r = chosen(&tuning[Variant::Book.index()][m]);
            let t = tune(Variant::OutputNorm, &[m], &[r / step, r, r * step]);
            tuning[Variant::OutputNorm.index()][m] = t.into_iter().flat_map(|t| t.grid).collect();
        }
        let partial = Findings {
            tuning,
            runs: Vec::new(),
        };
        // (variant, mixer, pairs, state, seed)
        let mut jobs = Vec::new();
        for v in Variant::ALL {
            for m in v.mixers() {
                for (p, k) in s.points(v) {
                    for seed in 0..s.seeds {
                        jobs.push((v, m, p, k, seed));
                    }
                }
            }
        }
        let runs = run_all(&jobs, |&(v, m, p, k, seed)| {
            let run = train_to_plateau(
                s.config(Mixer::ALL[m], k),
                v.layer(s.horizon()),
                s.task(p),
                s.schedule_at(s.schedule.steps, partial.rate(v, m)),
                Some(s.plateau()),
                s.every,
                seed,
            );
            let shared = p == s.fixed_pairs && k == s.state;
            Point {
                variant: v,
                mixer: m,
                pairs: p,
                state: k,
                seed,
                accuracy: run.accuracy,
                stop: run.stop,
                inside: shared.then(|| inside::Inside::of(&run)),
                curve: run.curve,
            }
        });
        Findings { runs, ..partial }
    }
}

/// `(x, mean, sd)` of mixer `m`'s accuracies under `v` at `points`, `x` read off each point, for the figures.
pub fn curve(
    f: &Findings,
    v: Variant,
    m: usize,
    points: &[(usize, usize)],
    x: impl Fn((usize, usize)) -> usize,
) -> Vec<(f64, f64, f64)> {
    points
        .iter()
        .map(|&(p, k)| {
            let s = crate::stats::Summary::of(&f.accs(v, m, p, k));
            (x((p, k)) as f64, s.mean, s.sd)
        })
        .collect()
}

findings! {
    /// The book's findings, computed (or read from the cache) once per process.
    pub fn book() -> Findings = cached(setup() => Findings::run(&setup()))
}
