//! Chapter 5, trained: do tied architectures absorb the directional
//! successor task by training, and how slowly? Five architectures (and one
//! control) trained on the `train` module's recall task with
//! `Relation::Successor`, each at a learning rate tuned on seeds disjoint
//! from the reported ones, with the data-level fixed-point residual of the
//! layers watched at every evaluation ([`super::trained_residual`]); and the
//! previous setup, every arm at one rate, for comparison.

use std::sync::OnceLock;

use crate::experiment::cache;

use crate::measure::{Measure, fixed, pm};
use crate::parallel;
use crate::stats::Summary;
use crate::train::tuning::{Tuning, censored_steps, tune_steps};
use crate::train::{
    Config, History, Qk, Relation, Schedule, Task, data_residual, train, train_observed,
};

/// The task, the schedule, the early checkpoint, the accuracy that counts
/// as solved, the reported seeds and how the learning rates are tuned.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub task: Task,
    /// The schedule; its `lr` is the one rate every arm trained at in the
    /// previous setup (tuned runs use their own).
    pub schedule: Schedule,
    /// By this step the untied head has learned the task.
    pub early: usize,
    pub solved: f64,
    /// Reported seeds `0..seeds`.
    pub seeds: u64,
    /// The learning-rate grid every arm is tuned on first.
    pub lrs: [f64; 5],
    /// Tuning seeds `tuning_seed..tuning_seed + tuning_seeds`, disjoint from the reported ones.
    pub tuning_seed: u64,
    pub tuning_seeds: u64,
    /// At most this many rates added beyond an edge of the grid.
    pub extensions: usize,
}

/// The size the book reports: long enough for slow absorption to show.
pub const BOOK: Setup = Setup {
    task: Task {
        relation: Relation::Successor,
        vocab: 8,
        context: 4,
        d: 8,
        noise: 0.0,
        examples: None,
    },
    schedule: Schedule {
        steps: 4000,
        batch: 16,
        lr: 0.01,
        eval_every: 100,
        test: 100,
        threshold: 0.9,
    },
    early: 300,
    solved: 0.99,
    seeds: 20,
    lrs: [0.003, 0.01, 0.03, 0.1, 0.3],
    tuning_seed: 1000,
    tuning_seeds: 4,
    extensions: 3,
};

/// The trained architectures, in the book's order: a name and a config.
/// The first five are the chapter's; the last is the control the previous
/// setup trained as "two tied heads" (no residual path, no self-attention,
/// so a head cannot abstain as the construction's heads do).
pub fn architectures(task: Task) -> [(&'static str, Config); 6] {
    let tied = Config::single(task.d, task.vocab, Qk::Tied);
    let residual = Config {
        residual: true,
        self_attention: true,
        ..tied
    };
    [
        ("tied head", tied),
        ("+ residual", residual),
        (
            "two tied heads",
            Config {
                heads: 2,
                ..residual
            },
        ),
        (
            "two tied layers",
            Config {
                layers: 2,
                ..residual
            },
        ),
        (
            "untied head",
            Config {
                qk: Qk::Untied,
                ..tied
            },
        ),
        ("two bare tied heads", Config { heads: 2, ..tied }),
    ]
}

/// The chapter's tied architectures and the untied head, as indices into [`architectures`].
pub const TIED: [usize; 4] = [0, 1, 2, 3];
/// See [`TIED`].
pub const UNTIED: usize = 4;
/// The two heads without residual path or self-attention (see [`architectures`]).
pub const BARE: usize = 5;
/// The chapter's five architectures (without the control).
pub const CHAPTER: [usize; 5] = [0, 1, 2, 3, 4];
/// The tied architectures of the previous setup: [`BARE`] in place of the two heads.
pub const PREVIOUS_TIED: [usize; 4] = [0, 1, BARE, 3];

/// Measure keys of the trained architectures, in [`architectures`] order.
pub const KEYS: [&str; 6] = [
    "tied_head",
    "tied_residual",
    "two_heads",
    "two_layers",
    "untied_head",
    "two_heads_bare",
];

/// One reported training run: its history and the data-level residual
/// ([`data_residual`] on the test set) at every evaluation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub history: History,
    pub residual: Vec<f64>,
}

/// The tuning and every run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// `tuning[architecture]`.
    pub tuning: Vec<Tuning>,
    /// `runs[architecture][seed]`, at the tuned rate.
    pub runs: Vec<Vec<Run>>,
    /// `previous[architecture][seed]`, at `setup.schedule.lr`.
    pub previous: Vec<Vec<History>>,
}

/// One training run of `config` at `lr`, watching the data-level residual.
pub fn run(setup: Setup, config: Config, lr: f64, seed: u64) -> Run {
    let mut residual = Vec::new();
    let schedule = Schedule {
        lr,
        ..setup.schedule
    };
    let history = train_observed(config, setup.task, schedule, seed, |_, model, test| {
        residual.push(data_residual(model, test));
    });
    Run { history, residual }
}

impl Findings {
    /// Tune every architecture, then train it on seeds `0..setup.seeds` at
    /// its tuned rate and at the previous setup's single rate.
    pub fn run(setup: Setup) -> Findings {
        let archs = architectures(setup.task);
        let tuning: Vec<Tuning> = archs
            .iter()
            .map(|&(_, config)| {
                let seeds = setup.tuning_seed..setup.tuning_seed + setup.tuning_seeds;
                tune_steps(&setup.lrs, seeds, setup.extensions, |lr, seed| {
                    let schedule = Schedule {
                        lr,
                        ..setup.schedule
                    };
                    let h = train(config, setup.task, schedule, seed);
                    (censored_steps(schedule, &h), h.final_accuracy)
                })
            })
            .collect();
        let (n, seeds) = (archs.len() as u64, setup.seeds);
        // job i: architecture i / seeds on seed i % seeds
        let arch = |i: u64| archs[(i / seeds) as usize].1;
        let mut runs = parallel::map(0..n * seeds, |i| {
            let lr = tuning[(i / seeds) as usize].lr;
            run(setup, arch(i), lr, i % seeds)
        })
        .into_iter();
        let runs: Vec<Vec<Run>> = (0..n)
            .map(|_| runs.by_ref().take(seeds as usize).collect())
            .collect();
        // an arm tuned to the previous rate has its previous runs already
        let again = |i: u64| tuning[(i / seeds) as usize].lr != setup.schedule.lr;
        let jobs: Vec<u64> = (0..n * seeds).filter(|&i| again(i)).collect();
        let mut retrained = parallel::map(0..jobs.len() as u64, |j| {
            let i = jobs[j as usize];
            train(arch(i), setup.task, setup.schedule, i % seeds)
        })
        .into_iter();
        let previous = (0..n * seeds)
            .map(|i| match again(i) {
                true => retrained.next().expect("one run per job"),
                false => runs[(i / seeds) as usize][(i % seeds) as usize]
                    .history
                    .clone(),
            })
            .collect::<Vec<_>>()
            .chunks(seeds as usize)
            .map(<[History]>::to_vec)
            .collect();
        Findings {
            setup,
            tuning,
            runs,
            previous,
        }
    }

    /// The reported histories of architecture `a`, at its tuned rate.
    pub fn histories(&self, a: usize) -> impl Iterator<Item = &History> {
        self.runs[a].iter().map(|r| &r.history)
    }

    /// Test accuracy of architecture `a` after `step` Adam steps (an
    /// evaluation step of the schedule), over the reported seeds, at its tuned rate.
    pub fn accuracy(&self, a: usize, step: usize) -> Summary {
        accuracy_at(self.histories(a), step)
    }

    /// [`Findings::accuracy`] in the previous setup (every arm at `setup.schedule.lr`).
    pub fn previous_accuracy(&self, a: usize, step: usize) -> Summary {
        accuracy_at(self.previous[a].iter(), step)
    }

    /// The best tied architecture's mean final accuracy minus the untied
    /// head's: at the tuned rates, or in the previous setup.
    pub fn gap(&self, previous: bool) -> f64 {
        let end = self.setup.schedule.steps;
        let (tied, at): (&[usize], &dyn Fn(usize) -> Summary) = if previous {
            (&PREVIOUS_TIED, &|a| self.previous_accuracy(a, end))
        } else {
            (&TIED, &|a| self.accuracy(a, end))
        };
        let best = tied
            .iter()
            .map(|&a| at(a).mean)
            .fold(f64::NEG_INFINITY, f64::max);
        best - at(UNTIED).mean
    }

    /// How many runs of the architectures `archs` end at test accuracy ≥ `setup.solved`.
    pub fn solved(&self, archs: impl IntoIterator<Item = usize>) -> usize {
        archs
            .into_iter()
            .flat_map(|a| self.histories(a))
            .filter(|h| h.final_accuracy >= self.setup.solved)
            .count()
    }
}

/// Test accuracy after `step` over `histories`.
fn accuracy_at<'a>(histories: impl Iterator<Item = &'a History>, step: usize) -> Summary {
    Summary::of(
        &histories
            .map(|h| {
                let k = h.steps.iter().position(|&s| s == step);
                h.accuracy[k.expect("the step is an evaluation step")]
            })
            .collect::<Vec<_>>(),
    )
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| cache::load_or_run(module_path!(), &BOOK, || Findings::run(BOOK)))
}

/// A sentence on the edges of the grid: which arms the edge rule extended
/// and where their chosen rate ended, and which still sit at an edge.
fn edges(f: &Findings) -> String {
    let names = architectures(f.setup.task);
    let mut out = Vec::new();
    for (a, t) in f.tuning.iter().enumerate() {
        let name = names[a].0;
        let added: Vec<String> = t
            .grid
            .iter()
            .filter(|r| !f.setup.lrs.contains(&r.lr))
            .map(|r| r.lr.to_string())
            .collect();
        if t.at_edge() {
            out.push(format!(
                "{name} still at the edge, {} (after adding {})",
                t.lr,
                added.join(", ")
            ));
        } else if !added.is_empty() {
            out.push(format!(
                "{name}: {} added, {} chosen",
                added.join(", "),
                t.lr
            ));
        }
    }
    match out.is_empty() {
        true => "none".into(),
        false => out.join("; "),
    }
}

/// The arms that reach the threshold at no rate tried (for them the
/// accuracy tie-break chose), or "none".
fn by_accuracy(f: &Findings) -> String {
    let names = architectures(f.setup.task);
    let out: Vec<&str> = f
        .tuning
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.reaches(f.setup.schedule))
        .map(|(a, _)| names[a].0)
        .collect();
    match out.is_empty() {
        true => "none".into(),
        false => out.join(", "),
    }
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (task, schedule) = (BOOK.task, BOOK.schedule);
    let end = schedule.steps;
    let mut m = vec![
        Measure::new("train_seeds", BOOK.seeds.to_string()),
        Measure::new("train_steps", end.to_string()),
        Measure::new("train_batch", schedule.batch.to_string()),
        Measure::new("train_vocab", task.vocab.to_string()),
        Measure::new("train_context", task.context.to_string()),
        Measure::new("train_chance", fixed(1.0 / task.vocab as f64, 3)),
        Measure::new("train_early", BOOK.early.to_string()),
        Measure::new("train_threshold", schedule.threshold.to_string()),
        Measure::new("previous_lr", schedule.lr.to_string()),
        Measure::new("tuning_seeds", BOOK.tuning_seeds.to_string()),
        Measure::new("tuning_first", BOOK.tuning_seed.to_string()),
        Measure::new(
            "tuning_last",
            (BOOK.tuning_seed + BOOK.tuning_seeds - 1).to_string(),
        ),
        Measure::new("lrs", BOOK.lrs.map(|r| r.to_string()).join(", ")),
        Measure::new("edge_lrs", edges(f)),
        Measure::new("tuned_by_accuracy", by_accuracy(f)),
        Measure::new("solved", BOOK.solved.to_string()),
    ];
    for (a, key) in KEYS.iter().enumerate() {
        m.push(Measure::new(
            format!("lr_{key}"),
            f.tuning[a].lr.to_string(),
        ));
        m.push(Measure::new(
            format!("trained_{key}"),
            pm(f.accuracy(a, BOOK.early), 2),
        ));
        m.push(Measure::new(
            format!("trained_{key}_final"),
            pm(f.accuracy(a, end), 2),
        ));
        m.push(Measure::new(
            format!("previous_{key}_final"),
            pm(f.previous_accuracy(a, end), 2),
        ));
    }
    let verdict =
        |previous| super::claims::training_absorbs(f.gap(previous), String::new()).verdict();
    let moved = match verdict(true) == verdict(false) {
        true => "did not move",
        false => "moved",
    };
    m.extend([
        Measure::new("trained_tied_solved", f.solved(TIED).to_string()),
        Measure::new(
            "trained_tied_runs",
            (TIED.len() as u64 * BOOK.seeds).to_string(),
        ),
        Measure::new("trained_untied_solved", f.solved([UNTIED]).to_string()),
        Measure::new("gap", fixed(f.gap(false), 2)),
        Measure::new("gap_previous", fixed(f.gap(true), 2)),
        Measure::new("verdict_previous", verdict(true).to_string()),
        Measure::new("verdict_moved", moved),
    ]);
    m
}
