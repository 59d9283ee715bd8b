//! The runs of the decisive MQAR experiment: the setup, one run (a job) and
//! what it measured (a [`Record`]), and how each arm's rate is picked from
//! its tuning runs and the grid widened where the pick is an edge.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::experiment::delta_attention::large::Arm;
use crate::mixer::stack::{self, Config, Engine, Recipe, Training};
use crate::mixer::{Mixer, Schedule};
use crate::recall::Mqar;
use crate::train::{Outcome, Plateau, Settled};

/// Every setting of the experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub vocab: usize,
    /// Sequence length `T`.
    pub len: usize,
    /// Model width `d`.
    pub d: usize,
    pub layers: usize,
    /// Short-convolution width.
    pub conv: usize,
    /// The mixers; the gated ones run under both gate initialisations.
    #[serde(with = "mixer_names")]
    pub mixers: Vec<Mixer>,
    /// The cells `(K = V, pairs)`.
    pub cells: Vec<(usize, usize)>,
    /// The rate grid every arm starts from, ascending.
    pub rates: Vec<f64>,
    /// The factor to the next rate beyond an edge of the grid.
    pub widen: f64,
    /// No rate is tried outside `[low, high]`.
    pub limits: (f64, f64),
    /// Adam steps at most per reported run.
    pub cap: usize,
    /// Adam steps at most per tuning run.
    pub tune_cap: usize,
    /// The tuning seeds (not reported seeds).
    pub tune_seeds: Vec<u64>,
    /// Reported seeds `0..seeds`.
    pub seeds: u64,
    pub batch: usize,
    /// Held-out sequences.
    pub test: usize,
    /// Held-out accuracy is evaluated every this many steps.
    pub every: usize,
    /// AdamW's decoupled weight decay on every tensor.
    pub weight_decay: f64,
    /// Above this held-out accuracy a run is solved.
    pub solved: f64,
    /// A run has left chance at `1/pairs + margin`.
    pub margin: f64,
    /// The flat window, as a share of the run's cap.
    pub window: f64,
    /// The largest rise over the window that still counts as flat.
    pub tolerance: f64,
}

/// Serialise mixers by name.
mod mixer_names {
    use crate::mixer::Mixer;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(m: &[Mixer], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(m.iter().map(|m| m.name()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Mixer>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|name| {
                Mixer::EVERY
                    .into_iter()
                    .find(|m| m.name() == name)
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown mixer {name}")))
            })
            .collect()
    }
}

/// Whether a run tunes a rate or is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    Tune,
    Report,
}

/// One run: an arm in a cell at a rate from a seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    pub stage: Stage,
    pub arm: Arm,
    /// `(K = V, pairs)`
    pub cell: (usize, usize),
    pub lr: f64,
    pub seed: u64,
}

impl Job {
    /// The run's file name: `tune-kda_fla-k8-p16-lr3.0e-3-s1000.json`.
    pub fn file(&self) -> String {
        let stage = match self.stage {
            Stage::Tune => "tune",
            Stage::Report => "run",
        };
        let (k, p) = self.cell;
        format!(
            "{stage}-{}-k{k}-p{p}-lr{:.1e}-s{}.json",
            self.arm.name(),
            self.lr,
            self.seed
        )
    }
}

/// What one run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// SHA-256 of the code that ran it ([`super::code_hash`]).
    pub code_hash: String,
    pub stage: Stage,
    pub arm: String,
    pub state: usize,
    pub pairs: usize,
    pub lr: f64,
    pub seed: u64,
    /// The run's step cap.
    pub cap: usize,
    pub outcome: Outcome,
    /// Held-out accuracy at the end.
    pub accuracy: f64,
    /// `(step, held-out accuracy)` at every evaluation.
    pub curve: Vec<(usize, f64)>,
    pub seconds: f64,
}

impl Record {
    /// Steps taken.
    pub fn steps(&self) -> usize {
        self.curve.last().map_or(0, |&(s, _)| s)
    }

    /// The first evaluated step with held-out accuracy at least `level`, if any.
    pub fn steps_to(&self, level: f64) -> Option<usize> {
        self.curve
            .iter()
            .find(|&&(_, a)| a >= level)
            .map(|&(s, _)| s)
    }
}

impl Setup {
    /// The arms: every mixer, the gated ones under both gate initialisations.
    pub fn arms(&self) -> Vec<Arm> {
        Arm::of(&self.mixers, self.len)
    }

    /// The rule that ends a run of `pairs` pairs with cap `cap`.
    pub fn settled(&self, pairs: usize, cap: usize) -> Settled {
        Settled {
            solved: self.solved,
            learned: 1.0 / pairs as f64 + self.margin,
            window: (self.window * cap as f64).round() as usize,
            tolerance: self.tolerance,
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
            layers: self.layers,
            conv: self.conv,
        }
    }

    /// The step cap of a run at `stage`.
    pub fn cap(&self, stage: Stage) -> usize {
        match stage {
            Stage::Tune => self.tune_cap,
            Stage::Report => self.cap,
        }
    }

    /// How `job` trains: Zoology's recipe at its rate, ended by [`Setup::settled`].
    pub fn training(&self, job: &Job) -> Training {
        let cap = self.cap(job.stage);
        Training {
            schedule: Schedule {
                steps: cap,
                batch: self.batch,
                lr: job.lr,
                test: self.test,
            },
            every: self.every,
            // unused under Zoology's recipe
            plateau: Plateau::BOOK,
            engine: Engine::Fast,
            recipe: Recipe::Zoology {
                weight_decay: self.weight_decay,
                until: self.settled(job.cell.1, cap),
            },
        }
    }

    /// Run `job`; the record carries `code_hash`.
    pub fn run(&self, job: &Job, code_hash: &str) -> Record {
        let start = Instant::now();
        let (state, pairs) = job.cell;
        let task = Mqar {
            vocab: self.vocab,
            pairs,
            len: self.len,
        };
        let config = self.config(job.arm.mixer, state);
        let run = stack::train(config, job.arm.gates, task, self.training(job), job.seed);
        let (steps, accs): (Vec<usize>, Vec<f64>) = run.curve.iter().copied().unzip();
        let cap = self.cap(job.stage);
        Record {
            code_hash: code_hash.to_string(),
            stage: job.stage,
            arm: job.arm.name(),
            state,
            pairs,
            lr: job.lr,
            seed: job.seed,
            cap,
            outcome: self.settled(pairs, cap).outcome(&steps, &accs),
            accuracy: run.accuracy,
            curve: run.curve,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// The rate to try next for a grid whose runs so far are `tuned` (every
    /// tried rate with its tuning records), or `None` when the pick is inside
    /// the grid or the limits stop it.
    pub fn widened(&self, tuned: &[(f64, Vec<&Record>)]) -> Option<f64> {
        let best = pick(tuned);
        let (low, high) = tuned
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &(r, _)| (l.min(r), h.max(r)));
        let next = if best == low {
            low / self.widen
        } else if best == high {
            high * self.widen
        } else {
            return None;
        };
        (next >= self.limits.0 * 0.999 && next <= self.limits.1 * 1.001).then_some(next)
    }
}

/// The rate whose tuning runs end best: the highest mean held-out accuracy
/// over the tuning seeds; within 0.005 of it, the fewest mean steps (a solved
/// run stops early).
///
/// # Panics
/// If `tuned` is empty or a rate has no records.
pub fn pick(tuned: &[(f64, Vec<&Record>)]) -> f64 {
    let score = |rs: &Vec<&Record>| {
        assert!(!rs.is_empty(), "budget::pick: a rate without runs");
        let n = rs.len() as f64;
        let acc = rs.iter().map(|r| r.accuracy).sum::<f64>() / n;
        let steps = rs.iter().map(|r| r.steps() as f64).sum::<f64>() / n;
        (acc, steps)
    };
    let top = tuned
        .iter()
        .map(|(_, rs)| score(rs).0)
        .fold(f64::MIN, f64::max);
    tuned
        .iter()
        .filter(|(_, rs)| score(rs).0 >= top - 0.005)
        .min_by(|a, b| score(&a.1).1.total_cmp(&score(&b.1).1))
        .map(|&(r, _)| r)
        .expect("budget::pick: an empty grid")
}

/// The experiment's sizes (the arithmetic is in [`super`]'s docs).
pub fn setup() -> Setup {
    Setup {
        vocab: 64,
        len: 64,
        d: 32,
        layers: 2,
        conv: 4,
        mixers: Mixer::EVERY.to_vec(),
        cells: vec![(8, 4), (8, 8), (8, 16), (16, 16)],
        rates: vec![0.001, 0.003, 0.01],
        widen: 10f64.sqrt(),
        limits: (1e-4, 0.1),
        cap: 15_000,
        tune_cap: 5_000,
        tune_seeds: vec![1000, 1001],
        seeds: 8,
        batch: 64,
        test: 256,
        every: 100,
        weight_decay: 0.1,
        solved: 0.99,
        margin: 0.1,
        window: 0.3,
        tolerance: 0.01,
    }
}
