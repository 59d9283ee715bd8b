//! Chapter 6: what it costs to learn a relation from scratch, for untied,
//! tied, mimetic and identity query–key forms, on a symmetric and a
//! directional recall task, over many seeds.

mod claims;
pub use claims::claims;

use std::sync::OnceLock;

use crate::experiment::par_map;
use crate::measure::{Measure, fixed, pm};
use crate::projection::symmetric_share;
use crate::random::seeded;
use crate::stats::{Summary, bootstrap_ci, mean, median, quantile, spearman};
use crate::train::{
    Config, Example, History, Model, Qk, Relation, Schedule, Task, train, train_observed,
};

/// Sizes and budgets of the chapter's experiments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Token width `d` (= `d_k` = `d_v`).
    pub d: usize,
    /// Keys and labels.
    pub vocab: usize,
    /// Context length.
    pub context: usize,
    /// Adam steps per run (the same budget for every arm).
    pub steps: usize,
    /// Examples per step.
    pub batch: usize,
    /// Steps between evaluations.
    pub eval_every: usize,
    /// Held-out test examples.
    pub test: usize,
    /// Test accuracy that counts as learned.
    pub threshold: f64,
    /// Measurement seeds `0..seeds`.
    pub seeds: u64,
    /// Tuning seeds `TUNING_SEED..TUNING_SEED + tuning_seeds`, disjoint from the measurement seeds.
    pub tuning_seeds: u64,
    /// Fixed training-set sizes of the data sweep (besides fresh data every step).
    pub examples: [usize; 2],
}

/// The learning-rate grid every arm is tuned on.
pub const LRS: [f64; 2] = [0.01, 0.03];

/// First tuning seed.
pub const TUNING_SEED: u64 = 1000;

/// The size the book reports.
pub const BOOK: Setup = Setup {
    d: 12,
    vocab: 12,
    context: 5,
    steps: 240,
    batch: 16,
    eval_every: 10,
    test: 96,
    threshold: 0.8,
    seeds: 20,
    tuning_seeds: 3,
    examples: [64, 256],
};

/// A smaller size for quick checks.
pub const SMALL: Setup = Setup {
    steps: 160,
    seeds: 8,
    tuning_seeds: 2,
    test: 64,
    ..BOOK
};

/// Which version of the task an arm trains on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The training schedule at learning rate `lr`.
pub fn schedule(setup: Setup, lr: f64) -> Schedule {
    Schedule {
        steps: setup.steps,
        batch: setup.batch,
        lr,
        eval_every: setup.eval_every,
        test: setup.test,
        threshold: setup.threshold,
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

/// One seed of one arm: its history and, for single-head arms, the geometry
/// of `W_QK` at every evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub history: History,
    /// [`raw_agreement`] at every evaluation.
    pub rho: Vec<f64>,
    /// `symmetric_share(W_QK)` at every evaluation.
    pub symmetric_share: Vec<f64>,
}

/// Train one seed.
pub fn run(setup: Setup, relation: Relation, qk: Qk, variant: Variant, lr: f64, seed: u64) -> Run {
    let (mut rho, mut share) = (Vec::new(), Vec::new());
    let watch = variant == Variant::Clean;
    let history = train_observed(
        config(setup, qk, variant),
        task(setup, relation, variant),
        schedule(setup, lr),
        seed,
        |_, model, test| {
            if watch {
                rho.push(raw_agreement(model, test));
                share.push(symmetric_share(&model.w_qk(0, 0)));
            }
        },
    );
    Run {
        history,
        rho,
        symmetric_share: share,
    }
}

/// `f` over `jobs` with [`par_map`], even-numbered jobs first so that both
/// threads get a share of every kind of arm; results in job order.
fn parallel<J: Sync, R: Send>(jobs: &[J], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let order: Vec<usize> = (0..jobs.len())
        .step_by(2)
        .chain((1..jobs.len()).step_by(2))
        .collect();
    let results = par_map(jobs.len() as u64, |i| f(&jobs[order[i as usize]]));
    let mut out: Vec<Option<R>> = (0..jobs.len()).map(|_| None).collect();
    for (&j, r) in order.iter().zip(results) {
        out[j] = Some(r);
    }
    out.into_iter().map(|r| r.expect("every job ran")).collect()
}

/// Steps to threshold of a run, with an unreached threshold counted as
/// `steps + eval_every` (beyond the budget).
pub fn censored_steps(setup: Setup, h: &History) -> f64 {
    h.steps_to_threshold
        .map_or((setup.steps + setup.eval_every) as f64, |s| s as f64)
}

/// All seeds of one arm.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    pub relation: Relation,
    pub qk: Qk,
    pub variant: Variant,
    /// The learning rate chosen by tuning.
    pub lr: f64,
    pub runs: Vec<Run>,
}

impl Arm {
    /// Censored steps to threshold of every seed.
    pub fn steps(&self, setup: Setup) -> Vec<f64> {
        self.runs
            .iter()
            .map(|r| censored_steps(setup, &r.history))
            .collect()
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

    /// Mean and the 10–90% range over seeds of a per-evaluation curve.
    pub fn curve(&self, field: fn(&Run) -> &[f64]) -> Vec<(f64, f64, f64)> {
        let n = field(&self.runs[0]).len();
        (0..n)
            .map(|i| {
                let xs: Vec<f64> = self.runs.iter().map(|r| field(r)[i]).collect();
                (mean(&xs), quantile(&xs, 0.1), quantile(&xs, 0.9))
            })
            .collect()
    }
}

/// The tuning of one (relation, parameterisation): each grid learning rate's
/// median censored steps to threshold and mean final accuracy on the tuning seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    pub relation: Relation,
    pub qk: Qk,
    /// `(lr, median steps, mean final accuracy)` per grid point.
    pub grid: Vec<(f64, f64, f64)>,
    /// The chosen rate: fewest median steps, ties broken by higher accuracy.
    pub lr: f64,
}

/// Everything chapter 6 reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub setup: Setup,
    pub tuning: Vec<Tuning>,
    pub arms: Vec<Arm>,
}

impl Findings {
    /// Tune, then run every arm at `setup`.
    pub fn run(setup: Setup) -> Findings {
        let pairs: Vec<(Relation, Qk)> = Relation::ALL
            .iter()
            .flat_map(|&r| Qk::ALL.iter().map(move |&q| (r, q)))
            .collect();
        let tuning_jobs: Vec<(Relation, Qk, f64, u64)> = pairs
            .iter()
            .flat_map(|&(r, q)| {
                LRS.iter().flat_map(move |&lr| {
                    (0..setup.tuning_seeds).map(move |s| (r, q, lr, TUNING_SEED + s))
                })
            })
            .collect();
        let tuned = parallel(&tuning_jobs, |&(r, q, lr, seed)| {
            let v = Variant::Clean;
            let h = train(
                config(setup, q, v),
                task(setup, r, v),
                schedule(setup, lr),
                seed,
            );
            (censored_steps(setup, &h), h.final_accuracy)
        });
        let per = setup.tuning_seeds as usize;
        let tuning: Vec<Tuning> = pairs
            .iter()
            .enumerate()
            .map(|(p, &(relation, qk))| {
                let grid: Vec<(f64, f64, f64)> = LRS
                    .iter()
                    .enumerate()
                    .map(|(g, &lr)| {
                        let chunk = &tuned[(p * LRS.len() + g) * per..][..per];
                        let steps: Vec<f64> = chunk.iter().map(|c| c.0).collect();
                        let acc: Vec<f64> = chunk.iter().map(|c| c.1).collect();
                        (lr, median(&steps), mean(&acc))
                    })
                    .collect();
                let best = grid
                    .iter()
                    .cloned()
                    .reduce(|a, b| {
                        if b.1 < a.1 || (b.1 == a.1 && b.2 > a.2) {
                            b
                        } else {
                            a
                        }
                    })
                    .expect("a non-empty grid");
                Tuning {
                    relation,
                    qk,
                    grid,
                    lr: best.0,
                }
            })
            .collect();
        let lr = |r: Relation, q: Qk| {
            tuning
                .iter()
                .find(|t| t.relation == r && t.qk == q)
                .expect("tuned")
                .lr
        };
        let mut arms: Vec<(Relation, Qk, Variant)> =
            pairs.iter().map(|&(r, q)| (r, q, Variant::Clean)).collect();
        for n in setup.examples {
            arms.extend(
                Qk::ALL
                    .iter()
                    .map(|&q| (Relation::Match, q, Variant::Examples(n))),
            );
        }
        arms.extend(
            Qk::ALL
                .iter()
                .map(|&q| (Relation::Match, q, Variant::TwoLayer)),
        );
        let jobs: Vec<(Relation, Qk, Variant, u64)> = arms
            .iter()
            .flat_map(|&(r, q, v)| (0..setup.seeds).map(move |s| (r, q, v, s)))
            .collect();
        let mut runs =
            parallel(&jobs, |&(r, q, v, s)| run(setup, r, q, v, lr(r, q), s)).into_iter();
        let arms = arms
            .iter()
            .map(|&(relation, qk, variant)| Arm {
                relation,
                qk,
                variant,
                lr: lr(relation, qk),
                runs: runs.by_ref().take(setup.seeds as usize).collect(),
            })
            .collect();
        Findings {
            setup,
            tuning,
            arms,
        }
    }

    /// The arm of a relation, parameterisation and variant.
    pub fn arm(&self, relation: Relation, qk: Qk, variant: Variant) -> &Arm {
        self.arms
            .iter()
            .find(|a| a.relation == relation && a.qk == qk && a.variant == variant)
            .expect("every arm is run")
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(BOOK))
}

/// The small-size findings the claim tests check, computed once per process.
pub fn small() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(SMALL))
}

/// Steps as text: `"> budget"` beyond the budget.
fn steps_text(setup: Setup, s: f64) -> String {
    if s > setup.steps as f64 {
        format!("> {}", setup.steps)
    } else {
        format!("{s:.0}")
    }
}

/// The numbers chapter 6's prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let s = f.setup;
    let mut m = vec![
        Measure::new("seeds", s.seeds.to_string()),
        Measure::new("tuning_seeds", s.tuning_seeds.to_string()),
        Measure::new("tuning_first", TUNING_SEED.to_string()),
        Measure::new(
            "tuning_last",
            (TUNING_SEED + s.tuning_seeds - 1).to_string(),
        ),
        Measure::new("d", s.d.to_string()),
        Measure::new("vocab", s.vocab.to_string()),
        Measure::new("context", s.context.to_string()),
        Measure::new("steps", s.steps.to_string()),
        Measure::new("batch", s.batch.to_string()),
        Measure::new("eval_every", s.eval_every.to_string()),
        Measure::new("test", s.test.to_string()),
        Measure::new("threshold", fixed(s.threshold, 2)),
        Measure::new("chance", fixed(1.0 / s.vocab as f64, 3)),
        Measure::new(
            "lrs",
            LRS.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Measure::new("n_small", s.examples[0].to_string()),
        Measure::new("n_large", s.examples[1].to_string()),
    ];
    for a in &f.arms {
        let key = format!("{}_{}_{}", a.relation.name(), a.qk.name(), a.variant.name());
        let (med, lo, hi) = a.median_steps(s);
        m.push(Measure::new(format!("steps_{key}"), steps_text(s, med)));
        m.push(Measure::new(
            format!("ci_{key}"),
            format!("[{}, {}]", steps_text(s, lo), steps_text(s, hi)),
        ));
        m.push(Measure::new(
            format!("reached_{key}"),
            format!("{}/{}", a.reached(), a.runs.len()),
        ));
        m.push(Measure::new(format!("acc_{key}"), pm(a.accuracy(), 2)));
        m.push(Measure::new(format!("lr_{key}"), a.lr.to_string()));
        if a.variant == Variant::Clean {
            let rho = a.curve(|r| &r.rho);
            let share = a.curve(|r| &r.symmetric_share);
            let (first, last) = (0, rho.len() - 1);
            m.push(Measure::new(format!("rho0_{key}"), fixed(rho[first].0, 2)));
            m.push(Measure::new(format!("rho_{key}"), fixed(rho[last].0, 2)));
            m.push(Measure::new(
                format!("share0_{key}"),
                fixed(share[first].0, 2),
            ));
            m.push(Measure::new(
                format!("share_{key}"),
                fixed(share[last].0, 2),
            ));
        }
    }
    m
}
