//! The long experiment itself: the setup, the rate tuning, the reported runs
//! and what they measured, written as [`Findings`]. The runs go in parallel;
//! the findings come in a fixed order, everything from fixed seeds.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::mixer::layer::GateInit;
use crate::mixer::stack::{self, Config, Engine, Recipe, StackRun, Training};
use crate::mixer::{Mixer, Schedule};
use crate::parallel;
use crate::recall::Mqar;
use crate::train::{Plateau, Stop};

/// Every setting of the long experiment.
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
    /// The cells `(K = V, pairs)` of the reported runs.
    pub cells: Vec<(usize, usize)>,
    /// The cell on which every arm's rate is tuned.
    pub tune_cell: (usize, usize),
    /// The rate grid.
    pub rates: Vec<f64>,
    /// Steps of every tuning run (no plateau rule: a fixed budget per rate).
    pub tune_steps: usize,
    /// The tuning seed (not a reported seed).
    pub tune_seed: u64,
    /// Reported seeds `0..seeds`.
    pub seeds: u64,
    /// How every reported run trains: its schedule's `steps` is the cap, its
    /// `lr` unused (each arm runs at its tuned rate).
    pub training: Training,
}

/// A trained arm: a mixer and how its gates start (`Fla` for the mixers without gates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arm {
    #[serde(with = "crate::mixer::stack::mixer_name")]
    pub mixer: Mixer,
    pub gates: GateInit,
}

impl Arm {
    /// Every mixer of `mixers`, the gated ones under both gate
    /// initialisations (horizon `len`), in that order.
    pub fn of(mixers: &[Mixer], len: usize) -> Vec<Arm> {
        let mut arms = Vec::new();
        for &mixer in mixers {
            arms.push(Arm {
                mixer,
                gates: GateInit::Fla,
            });
            if mixer.decays() {
                arms.push(Arm {
                    mixer,
                    gates: GateInit::Horizon(len),
                });
            }
        }
        arms
    }

    /// The name used in the findings, measures and figure: `gdn_fla`, `kda_horizon`, `softmax`, …
    pub fn name(&self) -> String {
        match (self.mixer.decays(), self.gates) {
            (false, _) => self.mixer.name().to_string(),
            (true, GateInit::Fla) => format!("{}_fla", self.mixer.name()),
            (true, GateInit::Horizon(_)) => format!("{}_horizon", self.mixer.name()),
        }
    }
}

impl Setup {
    /// The arms: five mixers, the gated ones under both gate initialisations.
    pub fn arms(&self) -> Vec<Arm> {
        Arm::of(&Mixer::ALL, self.len)
    }

    /// The task with `pairs` pairs.
    pub fn task(&self, pairs: usize) -> Mqar {
        Mqar {
            vocab: self.vocab,
            pairs,
            len: self.len,
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

    /// How every reported run trains, at rate `lr`.
    pub fn training(&self, lr: f64) -> Training {
        at(self.training, lr)
    }
}

/// `t` at rate `lr`.
fn at(t: Training, lr: f64) -> Training {
    Training {
        schedule: Schedule { lr, ..t.schedule },
        ..t
    }
}

/// One tuning run: a rate and its held-out loss and accuracy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    pub lr: f64,
    /// Mean held-out cross-entropy at the end.
    pub loss: f64,
    pub accuracy: f64,
    pub stop: Stop,
}

/// One reported run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub seed: u64,
    pub accuracy: f64,
    pub stop: Stop,
    /// `(step, held-out accuracy)` at every evaluation.
    pub curve: Vec<(usize, f64)>,
    /// Milliseconds per Adam step (wall time of the run over its steps, evaluations included).
    pub ms_per_step: f64,
}

/// Every seed of one arm in one cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub arm: String,
    pub state: usize,
    pub pairs: usize,
    /// The tuned rate it trained at.
    pub lr: f64,
    pub runs: Vec<Record>,
    /// Per block: what survives of a write until its query at initialisation,
    /// the mean over seeds of [`stack::survival`] (empty without decay).
    pub survival_init: Vec<f64>,
    /// The same after training.
    pub survival: Vec<f64>,
}

impl Cell {
    /// The seeds' final accuracies.
    pub fn accs(&self) -> Vec<f64> {
        self.runs.iter().map(|r| r.accuracy).collect()
    }

    /// How many seeds hit the step cap.
    pub fn capped(&self) -> usize {
        self.runs.iter().filter(|r| r.stop.capped()).count()
    }
}

/// Everything the long experiment measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    /// SHA-256 of the code that produced them ([`super::code_hash`]).
    pub code_hash: String,
    /// The command that reproduces them.
    pub command: String,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    pub setup: Setup,
    /// `(arm, its grid)`, in [`Setup::arms`] order.
    pub tuning: Vec<(String, Vec<Tuned>)>,
    pub cells: Vec<Cell>,
}

impl Findings {
    /// The cell of `arm` at `(state, pairs)`.
    ///
    /// # Panics
    /// If there is none.
    pub fn cell(&self, arm: &str, state: usize, pairs: usize) -> &Cell {
        self.cells
            .iter()
            .find(|c| c.arm == arm && c.state == state && c.pairs == pairs)
            .unwrap_or_else(|| panic!("mqar-large: no cell {arm} at K = {state}, {pairs} pairs"))
    }
}

/// The rate with the lowest held-out loss on the tuning seed.
pub fn best(grid: &[Tuned]) -> f64 {
    grid.iter()
        .min_by(|a, b| a.loss.total_cmp(&b.loss))
        .map(|t| t.lr)
        .expect("a non-empty grid")
}

fn timed(
    setup: &Setup,
    arm: Arm,
    (state, pairs): (usize, usize),
    t: Training,
    seed: u64,
    log: &(impl Fn(String) + Sync),
) -> (StackRun, f64) {
    let start = Instant::now();
    let run = stack::train(
        setup.config(arm.mixer, state),
        arm.gates,
        setup.task(pairs),
        t,
        seed,
    );
    let steps = run.curve.last().map_or(1, |&(s, _)| s);
    let ms = start.elapsed().as_secs_f64() * 1e3 / steps as f64;
    log(format!(
        "  {} K={state} pairs={pairs} lr={} seed={seed}: acc {:.3}, {:?} after {steps} steps, {ms:.1} ms/step",
        arm.name(),
        t.schedule.lr,
        run.accuracy,
        run.stop
    ));
    (run, ms)
}

/// Run the whole experiment; `log` receives a progress line per run. The runs
/// go in parallel ([`crate::parallel::map`]): first every arm's tuning grid,
/// then every arm, cell and seed; each depends only on its own seed, so the
/// findings are those of the sequential loop.
pub fn run(setup: &Setup, code_hash: String, log: impl FnMut(String) + Send) -> Findings {
    let start = Instant::now();
    let log = std::sync::Mutex::new(log);
    let log = |line: String| (log.lock().expect("the log"))(line);
    let tune = Training {
        schedule: Schedule {
            steps: setup.tune_steps,
            ..setup.training.schedule
        },
        plateau: Plateau::BOOK.after(usize::MAX),
        ..setup.training
    };
    let arms = setup.arms();
    let grids: Vec<(Arm, f64)> = arms
        .iter()
        .flat_map(|&arm| setup.rates.iter().map(move |&lr| (arm, lr)))
        .collect();
    let tuned = parallel::map(0..grids.len() as u64, |i| {
        let (arm, lr) = grids[i as usize];
        let (run, _) = timed(
            setup,
            arm,
            setup.tune_cell,
            at(tune, lr),
            setup.tune_seed,
            &log,
        );
        Tuned {
            lr,
            loss: run.model.mean_loss(&run.test),
            accuracy: run.accuracy,
            stop: run.stop,
        }
    });
    let tuning: Vec<(String, Vec<Tuned>)> = arms
        .iter()
        .zip(tuned.chunks(setup.rates.len()))
        .map(|(arm, grid)| (arm.name(), grid.to_vec()))
        .collect();
    let rates: Vec<f64> = tuning.iter().map(|(_, grid)| best(grid)).collect();
    let jobs: Vec<(usize, (usize, usize), u64)> = (0..arms.len())
        .flat_map(|a| {
            setup
                .cells
                .iter()
                .flat_map(move |&cell| (0..setup.seeds).map(move |seed| (a, cell, seed)))
        })
        .collect();
    let done = parallel::map(0..jobs.len() as u64, |i| {
        let (a, cell, seed) = jobs[i as usize];
        let (run, ms) = timed(setup, arms[a], cell, setup.training(rates[a]), seed, &log);
        let record = Record {
            seed,
            accuracy: run.accuracy,
            stop: run.stop,
            curve: run.curve.clone(),
            ms_per_step: ms,
        };
        let survival = (
            stack::survival(&run.initial, &run.test),
            stack::survival(&run.model, &run.test),
        );
        (record, survival)
    });
    let per_block = |s: &[&Vec<f64>]| -> Vec<f64> {
        (0..s[0].len())
            .map(|l| s.iter().map(|x| x[l]).sum::<f64>() / s.len() as f64)
            .collect()
    };
    let cells = done
        .chunks(setup.seeds as usize)
        .zip(jobs.chunks(setup.seeds as usize))
        .map(|(runs, job)| {
            let (a, (state, pairs), _) = job[0];
            let init: Vec<&Vec<f64>> = runs.iter().map(|(_, (i, _))| i).collect();
            let after: Vec<&Vec<f64>> = runs.iter().map(|(_, (_, s))| s).collect();
            Cell {
                arm: arms[a].name(),
                state,
                pairs,
                lr: rates[a],
                runs: runs.iter().map(|(r, _)| r.clone()).collect(),
                survival_init: per_block(&init),
                survival: per_block(&after),
            }
        })
        .collect();
    Findings {
        code_hash,
        command: super::COMMAND.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        setup: setup.clone(),
        tuning,
        cells,
    }
}

/// The long experiment's sizes (the arithmetic is in [`super`]'s docs).
pub fn setup() -> Setup {
    Setup {
        vocab: 64,
        len: 64,
        d: 32,
        layers: 2,
        conv: 4,
        cells: vec![(8, 4), (8, 16)],
        tune_cell: (8, 4),
        rates: vec![0.003, 0.01, 0.03],
        tune_steps: 1000,
        tune_seed: 1000,
        seeds: 3,
        training: Training {
            schedule: Schedule {
                steps: 3000,
                batch: 16,
                lr: 0.0,
                test: 64,
            },
            every: 100,
            plateau: Plateau::BOOK.after(1500),
            engine: Engine::Reference,
            recipe: Recipe::Book,
        },
    }
}
