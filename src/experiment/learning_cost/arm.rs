//! Chapter 6: one arm of the learning-cost experiment — a relation, a
//! query–key form and a variant of the task, trained over seeds — and the
//! geometry of its `W_QK` watched during training.

use crate::projection::symmetric_share;
use crate::random::seeded;
use crate::stats::{Summary, bootstrap_ci, mean, median, quantile, spearman};
use crate::train::{
    Config, Example, History, Model, Qk, Relation, Schedule, Task, held, train_until,
};

use super::steps::Setup;

/// Which version of the task an arm trains on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    /// One head, one layer, fresh examples every step.
    Clean,
    /// One head, one layer, a fixed training set of this many examples.
    Examples(usize),
    /// Two layers with residual paths, fresh examples.
    TwoLayer,
}

impl Variant {
    /// Name used in measures.
    pub fn name(self) -> String {
        match self {
            Variant::Clean => "clean".to_string(),
            Variant::Examples(n) => format!("n{n}"),
            Variant::TwoLayer => "two_layer".to_string(),
        }
    }
}

/// The task of an arm.
pub fn task(setup: Setup, relation: Relation, variant: Variant) -> Task {
    let examples = match variant {
        Variant::Examples(n) => Some(n),
        _ => None,
    };
    Task {
        relation,
        vocab: setup.vocab,
        context: setup.context,
        d: setup.d,
        noise: 0.0,
        examples,
    }
}

/// The model of an arm: one head of full width; two layers get residual paths.
pub fn config(setup: Setup, qk: Qk, variant: Variant) -> Config {
    let single = Config::single(setup.d, setup.vocab, qk);
    match variant {
        Variant::TwoLayer => Config {
            layers: 2,
            residual: true,
            ..single
        },
        _ => single,
    }
}

/// The tuning schedule at learning rate `lr`: the fixed budget `setup.schedule.steps`.
pub fn schedule(setup: Setup, lr: f64) -> Schedule {
    Schedule {
        lr,
        ..setup.schedule
    }
}

/// Spearman ρ between raw similarity `x_q · x_j` and the first head's
/// bilinear score `x_q W_QK x_jᵀ`, pooled over the query's context positions
/// in `examples`.
pub fn raw_agreement(model: &Model, examples: &[Example]) -> f64 {
    let w_qk = model.w_qk(0, 0);
    let (mut raw, mut learned) = (Vec::new(), Vec::new());
    for e in examples {
        let t = e.x.nrows();
        let xq = e.x.row(t - 1);
        let xw = xq * &w_qk;
        for j in 0..t - 1 {
            raw.push(xq.dot(&e.x.row(j)));
            learned.push(xw.dot(&e.x.row(j)));
        }
    }
    spearman(&raw, &learned)
}

/// One seed of one arm: its history and the geometry of the first head's
/// `W_QK` at every evaluation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub history: History,
    /// [`raw_agreement`] at every evaluation.
    pub rho: Vec<f64>,
    /// `symmetric_share(W_QK)` at every evaluation.
    pub symmetric_share: Vec<f64>,
}

/// Train one seed until the plateau rule holds, `setup.cap` steps at most.
pub fn run(setup: Setup, relation: Relation, qk: Qk, variant: Variant, lr: f64, seed: u64) -> Run {
    let (mut rho, mut share) = (Vec::new(), Vec::new());
    let capped = Schedule {
        steps: setup.cap,
        ..schedule(setup, lr)
    };
    let history = train_until(
        config(setup, qk, variant),
        task(setup, relation, variant),
        capped,
        Some(setup.plateau),
        seed,
        |_, model, test| {
            rho.push(raw_agreement(model, test));
            share.push(symmetric_share(&model.w_qk(0, 0)));
        },
    );
    Run {
        history,
        rho,
        symmetric_share: share,
    }
}

/// Steps to threshold of a run, with an unreached threshold counted as
/// `steps + eval_every` (beyond the tuning budget).
pub fn censored_steps(setup: Setup, h: &History) -> f64 {
    crate::train::tuning::censored_steps(schedule(setup, 0.0), h)
}

/// Steps to threshold of a reported run, with an unreached threshold
/// counted as `cap + eval_every` (beyond the cap).
pub fn censored_at_cap(setup: Setup, h: &History) -> f64 {
    let capped = Schedule {
        steps: setup.cap,
        ..schedule(setup, 0.0)
    };
    crate::train::tuning::censored_steps(capped, h)
}

/// All seeds of one arm.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Arm {
    pub relation: Relation,
    pub qk: Qk,
    pub variant: Variant,
    /// The learning rate chosen by tuning.
    pub lr: f64,
    pub runs: Vec<Run>,
}

impl Arm {
    /// Censored steps to threshold of every seed (beyond the cap if unreached).
    pub fn steps(&self, setup: Setup) -> Vec<f64> {
        self.runs
            .iter()
            .map(|r| censored_at_cap(setup, &r.history))
            .collect()
    }

    /// How many seeds hit the cap before a plateau.
    pub fn capped(&self) -> usize {
        crate::train::capped(self.runs.iter().map(|r| &r.history))
    }

    /// Number of seeds that reached the threshold.
    pub fn reached(&self) -> usize {
        self.runs
            .iter()
            .filter(|r| r.history.steps_to_threshold.is_some())
            .count()
    }

    /// Final test accuracy over seeds.
    pub fn accuracy(&self) -> Summary {
        Summary::of(
            &self
                .runs
                .iter()
                .map(|r| r.history.final_accuracy)
                .collect::<Vec<_>>(),
        )
    }

    /// Median steps to threshold with a 95% bootstrap interval.
    pub fn median_steps(&self, setup: Setup) -> (f64, f64, f64) {
        let s = self.steps(setup);
        let (lo, hi) = bootstrap_ci(&s, median, 0.95, 1000, &mut seeded(6));
        (median(&s), lo, hi)
    }

    /// Mean and the 10–90% range over seeds of a per-evaluation curve, up
    /// to the longest run (a run stopped at its plateau keeps its last value).
    pub fn curve(&self, field: fn(&Run) -> &[f64]) -> Vec<(f64, f64, f64)> {
        let n = self.runs.iter().map(|r| field(r).len()).max().unwrap_or(0);
        let curves: Vec<Vec<f64>> = self.runs.iter().map(|r| held(field(r), n)).collect();
        (0..n)
            .map(|i| {
                let xs: Vec<f64> = curves.iter().map(|c| c[i]).collect();
                (mean(&xs), quantile(&xs, 0.1), quantile(&xs, 0.9))
            })
            .collect()
    }
}
