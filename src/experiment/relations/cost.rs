//! Chapter 4: what it costs a head to discover its relations — steps to the
//! accuracy threshold as the number `k` of relations grows, for a learned
//! head of fixed width against a model given the relations' structure, each
//! arm at its own tuned learning rate.

use rand::RngExt;

use crate::experiment::learning_cost::tuning::grid;
use crate::parallel;
use crate::random::seeded;
use crate::stats::{median, quantile};
use crate::train::tuning::censored_steps;
use crate::train::{Config, Cue, History, Plateau, Qk, Relation, Schedule, Task, train_to_plateau};

/// Sizes and budgets of the experiment.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// Token width `d` (= `d_k` = `d_v`: the head's width, the same for every `k`).
    pub d: usize,
    /// Keys and labels.
    pub vocab: usize,
    /// Context length: every example holds the keys `q, q + 1, …, q + context − 1`.
    pub context: usize,
    /// The numbers of relations `k`.
    pub ks: [usize; 4],
    /// The schedule of every run: its `steps` the cap (each trains to
    /// [`Plateau::BOOK`], no plateau before `min_steps`), its `lr` unused
    /// (every (arm, k) trains at its tuned rate).
    pub schedule: Schedule,
    /// No plateau is declared before this step (it guards against a stall before learning starts).
    pub min_steps: usize,
    /// Measurement seeds `0..seeds`.
    pub seeds: u64,
    /// Tuning seeds `tuning_seed..tuning_seed + tuning_seeds`, disjoint from the measurement seeds.
    pub tuning_seeds: u64,
    pub tuning_seed: u64,
    /// The learning-rate grid every (arm, k) is tuned on.
    pub lrs: [f64; 5],
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    d: 16,
    vocab: 8,
    context: 8,
    ks: [1, 2, 4, 8],
    schedule: Schedule {
        steps: 2400,
        batch: 16,
        lr: 0.0,
        eval_every: 10,
        test: 128,
        threshold: 0.8,
    },
    min_steps: 1200,
    seeds: 12,
    tuning_seeds: 3,
    tuning_seed: 1000,
    lrs: [0.003, 0.01, 0.03, 0.1, 0.3],
};

/// The two models compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Arm {
    /// One untied head: the query is the pair `(q, r)`'s own embedding, and
    /// `W_Q, W_K` must learn which key each pair relates to.
    Learned,
    /// The relations' structure given: the query is the key the relation
    /// names and the head scores by raw similarity (`W_QK = I`), as if
    /// `W_QK` were fixed to the relation; only the value path and readout learn.
    Given,
}

impl Arm {
    /// Both, in the book's order.
    pub const ALL: [Arm; 2] = [Arm::Learned, Arm::Given];

    /// Lower-case name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Arm::Learned => "learned",
            Arm::Given => "given",
        }
    }
}

/// The task of `k` relations as `arm` sees it.
pub fn task(setup: Setup, arm: Arm, k: usize) -> Task {
    let cue = match arm {
        Arm::Learned => Cue::Pair,
        Arm::Given => Cue::Answer,
    };
    Task {
        relation: Relation::Offsets { k, cue },
        vocab: setup.vocab,
        context: setup.context,
        d: setup.d,
        noise: 0.0,
        examples: None,
    }
}

/// The model of an arm: one head of full width, one layer.
pub fn config(setup: Setup, arm: Arm) -> Config {
    let qk = match arm {
        Arm::Learned => Qk::Untied,
        Arm::Given => Qk::Identity,
    };
    Config::single(setup.d, setup.vocab, qk)
}

/// Train one seed of `arm` on `k` relations at rate `lr`, to a plateau or the cap.
pub fn run(setup: Setup, arm: Arm, k: usize, lr: f64, seed: u64) -> History {
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    let plateau = Plateau::BOOK.after(setup.min_steps);
    train_to_plateau(
        config(setup, arm),
        task(setup, arm, k),
        schedule,
        plateau,
        seed,
    )
}

/// Steps to threshold, an unreached threshold counted as `steps + eval_every`.
pub fn censored(setup: Setup, h: &History) -> f64 {
    censored_steps(setup.schedule, h)
}

/// One (arm, k): its tuning and its measurement seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    pub arm: Arm,
    pub k: usize,
    /// `(lr, median censored steps, mean final accuracy)` per grid rate, on the tuning seeds.
    pub grid: Vec<(f64, f64, f64)>,
    /// The chosen rate.
    pub lr: f64,
    /// Censored steps to threshold per measurement seed.
    pub steps: Vec<f64>,
    /// Final test accuracy per measurement seed.
    pub accuracy: Vec<f64>,
    /// Per measurement seed: whether it hit the step cap before a plateau.
    pub capped: Vec<bool>,
    /// Censored steps to the stricter threshold [`STRICT`], read off the same curves.
    pub steps_strict: Vec<f64>,
}

/// Where an unreached threshold is counted: `steps + eval_every`, beyond the cap.
pub fn beyond(setup: Setup) -> f64 {
    let s = setup.schedule;
    (s.steps + s.eval_every) as f64
}

/// The stricter test accuracy a referee would ask the steps to be counted at.
pub const STRICT: f64 = 0.95;

/// Steps to `threshold` read off a run's curve, censored as [`censored`].
pub fn censored_at(setup: Setup, h: &History, threshold: f64) -> f64 {
    h.steps
        .iter()
        .zip(&h.accuracy)
        .find(|&(_, &a)| a >= threshold)
        .map_or(beyond(setup), |(&s, _)| s as f64)
}

impl Cell {
    /// Median steps over seeds.
    pub fn median(&self) -> f64 {
        median(&self.steps)
    }

    /// The 25% and 75% quantiles of the steps over seeds.
    pub fn quartiles(&self) -> (f64, f64) {
        (quantile(&self.steps, 0.25), quantile(&self.steps, 0.75))
    }

    /// Share of seeds that reached the threshold.
    pub fn reached(&self, setup: Setup) -> f64 {
        let n = self
            .steps
            .iter()
            .filter(|&&s| s <= setup.schedule.steps as f64);
        n.count() as f64 / self.steps.len() as f64
    }
}

/// Every (arm, k) cell.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub cells: Vec<Cell>,
}

impl Findings {
    /// Tune every (arm, k) on the tuning seeds, then run it on the measurement seeds.
    pub fn run(setup: Setup) -> Findings {
        let pairs: Vec<(Arm, usize)> = Arm::ALL
            .iter()
            .flat_map(|&a| setup.ks.iter().map(move |&k| (a, k)))
            .collect();
        let seeds = setup.tuning_seed..setup.tuning_seed + setup.tuning_seeds;
        let tuned = grid(&pairs, &setup.lrs, seeds, |(a, k), lr, seed| {
            let h = run(setup, a, k, lr, seed);
            (censored(setup, &h), h.final_accuracy)
        });
        let per = setup.seeds as usize;
        let runs = parallel::map(0..(pairs.len() * per) as u64, |i| {
            let (a, k) = pairs[i as usize / per];
            let lr = tuned[i as usize / per].1;
            let h = run(setup, a, k, lr, i % setup.seeds);
            let strict = censored_at(setup, &h, STRICT);
            (
                censored(setup, &h),
                h.final_accuracy,
                h.stop.capped(),
                strict,
            )
        });
        let cells = pairs
            .iter()
            .zip(tuned)
            .zip(runs.chunks(per))
            .map(|((&(arm, k), (grid, lr)), chunk)| Cell {
                arm,
                k,
                grid,
                lr,
                steps: chunk.iter().map(|c| c.0).collect(),
                accuracy: chunk.iter().map(|c| c.1).collect(),
                capped: chunk.iter().map(|c| c.2).collect(),
                steps_strict: chunk.iter().map(|c| c.3).collect(),
            })
            .collect();
        Findings { setup, cells }
    }

    /// The cell of an arm and a `k`.
    pub fn cell(&self, arm: Arm, k: usize) -> &Cell {
        self.cells
            .iter()
            .find(|c| c.arm == arm && c.k == k)
            .expect("every cell is run")
    }

    /// Median steps at the largest `k` minus at `k = 1`, for `arm`.
    pub fn growth(&self, arm: Arm) -> f64 {
        let ks = self.setup.ks;
        self.cell(arm, ks[ks.len() - 1]).median() - self.cell(arm, ks[0]).median()
    }

    /// Percentile-bootstrap 95% interval of `growth(Learned)` and of
    /// `growth(Learned) − growth(Given)`, resampling the seeds of each cell.
    pub fn growth_ci(&self) -> [(f64, f64); 2] {
        self.growth_ci_of(|c| &c.steps)
    }

    /// [`Findings::growth_ci`] of other per-seed steps of each cell.
    pub fn growth_ci_of(&self, steps: fn(&Cell) -> &Vec<f64>) -> [(f64, f64); 2] {
        let ks = self.setup.ks;
        let cells = [
            self.cell(Arm::Learned, ks[0]),
            self.cell(Arm::Learned, ks[ks.len() - 1]),
            self.cell(Arm::Given, ks[0]),
            self.cell(Arm::Given, ks[ks.len() - 1]),
        ];
        let mut rng = seeded(4);
        let (mut own, mut diff) = (Vec::new(), Vec::new());
        for _ in 0..2000 {
            let m: Vec<f64> = cells
                .iter()
                .map(|c| {
                    let xs = steps(c);
                    let n = xs.len();
                    let s: Vec<f64> = (0..n).map(|_| xs[rng.random_range(0..n)]).collect();
                    median(&s)
                })
                .collect();
            own.push(m[1] - m[0]);
            diff.push(m[1] - m[0] - (m[3] - m[2]));
        }
        let ci = |xs: &[f64]| (quantile(xs, 0.025), quantile(xs, 0.975));
        [ci(&own), ci(&diff)]
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
