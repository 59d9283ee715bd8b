//! Chapter 5: fixed-point iteration of a weight-tied attention layer (three
//! variants), data-level against hidden-state fixed points, the Hopfield
//! energy with tied and untied forms, and absorption of a directional task.

pub mod trained;

use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};

use crate::absorption::{Mechanism, constructed, successor_accuracy};
use crate::attention::Head;
use crate::experiment::par_map;
use crate::fixed_point::{
    TiedLayer, Variant, collapse, hopfield_energy, hopfield_update, lagrangian, residual, solve,
};
use crate::measure::{Measure, fixed, pm};
use crate::random::{gaussian, projection, seeded};
use crate::stats::{Summary, quantile};
use crate::train::{Config, History, Qk, Relation, Schedule, Task, train};

/// Sizes: `n` tokens of width `d`, `steps` iterations, the injected
/// variant's contraction factor `c = γ ‖W_V‖₂`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub d: usize,
    pub steps: usize,
    pub contraction: f64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    n: 12,
    d: 16,
    steps: 40,
    contraction: 0.5,
};

/// Seeds behind every summary in the chapter.
pub const SEEDS: u64 = 100;

/// Residuals below this are drawn and counted as converged.
pub const FLOOR: f64 = 1e-15;

/// Inverse temperature and iterations of the Hopfield runs.
pub const HOPFIELD_BETA: f64 = 0.25;
pub const HOPFIELD_STEPS: usize = 30;

/// Width of the tokens of the successor task (three tokens).
pub const SUCCESSOR_D: usize = 8;

/// Tokens `x (n, d)` and a tied layer with `γ ‖W_V‖₂ = c`, from one seed.
pub fn sample(setup: Setup, seed: u64) -> (DMatrix<f64>, TiedLayer) {
    let mut rng = seeded(seed);
    let head = Head::random(&mut rng, setup.d, setup.d, setup.d);
    let gamma = setup.contraction / head.w_v.singular_values().max();
    (
        gaussian(&mut rng, setup.n, setup.d, 1.0),
        TiedLayer { head, gamma },
    )
}

/// One variant's trajectory from one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// `‖f(Z_k) − Z_k‖_F / ‖Z_k‖_F`, `k = 0 … steps − 1`.
    pub residual: Vec<f64>,
    /// Distance from rank one of `Z_k`, `k = 0 … steps`.
    pub collapse: Vec<f64>,
}

/// Iterate `variant` from one seed.
pub fn trajectory(setup: Setup, variant: Variant, seed: u64) -> Trajectory {
    let (x, layer) = sample(setup, seed);
    let zs = layer.iterate(variant, &x, setup.steps);
    Trajectory {
        residual: zs.windows(2).map(|w| residual(&w[1], &w[0])).collect(),
        collapse: zs.iter().map(collapse).collect(),
    }
}

/// Data-level against hidden-state fixed point of the injected layer, one seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Equilibrium {
    /// `‖f(x) − x‖_F / ‖x‖_F`: the data-level residual (square root of the Lagrangian's first term, relative).
    pub data_residual: f64,
    /// `‖Z* − x‖_F / ‖x‖_F`: how far the hidden fixed point is from the input.
    pub distance: f64,
    /// `‖f(Z*) − Z*‖_F / ‖Z*‖_F` after solving for the hidden state.
    pub hidden_residual: f64,
    /// Iterations the solve took.
    pub steps: usize,
    /// `g(θ)` at this layer (0: the contraction constraint holds).
    pub constraint: f64,
}

/// Solve one seed's hidden-state fixed point and compare with the data-level residual.
pub fn equilibrium(setup: Setup, seed: u64) -> Equilibrium {
    let (x, layer) = sample(setup, seed);
    let (fit, constraint, _) = lagrangian(&layer, Variant::Injected, std::slice::from_ref(&x), 1.0);
    let (z, steps) = solve(&layer, Variant::Injected, &x, 1e-13, 500);
    Equilibrium {
        data_residual: fit.sqrt() / x.norm(),
        distance: (&z - &x).norm() / x.norm(),
        hidden_residual: residual(&layer.apply(Variant::Injected, &z, &x), &z),
        steps,
        constraint,
    }
}

/// Energy along a retrieval run with a tied (`W Wᵀ`) or untied (`W_Q W_Kᵀ`) form.
#[derive(Clone, Debug, PartialEq)]
pub struct EnergyRun {
    /// `E(ξ_k)`, `k = 0 … HOPFIELD_STEPS`.
    pub energy: Vec<f64>,
    /// `‖ξ_{k+1} − ξ_k‖` at the last step.
    pub last_step: f64,
}

impl EnergyRun {
    /// Largest single-step increase of the energy (≤ 0 when it never rises).
    pub fn max_rise(&self) -> f64 {
        self.energy
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// Patterns `(n, d)`, a tied or untied form, and a start state, from one seed.
pub fn energy_run(setup: Setup, tied: bool, seed: u64) -> EnergyRun {
    let mut rng = seeded(seed);
    let x = gaussian(&mut rng, setup.n, setup.d, 1.0);
    let w_q = projection(&mut rng, setup.d, setup.d);
    let w_k = if tied {
        w_q.clone()
    } else {
        projection(&mut rng, setup.d, setup.d)
    };
    let m = &w_q * w_k.transpose();
    let mut xi: DVector<f64> = gaussian(&mut rng, setup.d, 1, 1.0).column(0).into_owned();
    let mut energy = vec![hopfield_energy(&x, &m, &xi, HOPFIELD_BETA)];
    let mut last_step = 0.0;
    for _ in 0..HOPFIELD_STEPS {
        let next = hopfield_update(&x, &m, &xi, HOPFIELD_BETA);
        last_step = (&next - &xi).norm();
        xi = next;
        energy.push(hopfield_energy(&x, &m, &xi, HOPFIELD_BETA));
    }
    EnergyRun { energy, last_step }
}

/// Successor accuracy of the five constructions and of random heads, one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Absorption {
    /// Accuracy of each [`Mechanism`], in `Mechanism::ALL` order.
    pub constructed: Vec<f64>,
    /// Accuracy of a random tied head.
    pub random_tied: f64,
    /// Accuracy of a random untied head.
    pub random_untied: f64,
    /// `max |s_ab − s_ba|` of the random tied head's scores.
    pub tied_asymmetry: f64,
}

/// Three tokens of width [`SUCCESSOR_D`] and the heads, from one seed.
pub fn absorption(seed: u64) -> Absorption {
    let mut rng = seeded(seed);
    let e = gaussian(&mut rng, 3, SUCCESSOR_D, 1.0);
    let w = projection(&mut rng, SUCCESSOR_D, SUCCESSOR_D) * 2.0;
    let id = DMatrix::identity(SUCCESSOR_D, SUCCESSOR_D);
    let tied = Head {
        w_q: w.clone(),
        w_k: w,
        w_v: id.clone(),
    };
    let untied = Head {
        w_q: projection(&mut rng, SUCCESSOR_D, SUCCESSOR_D) * 2.0,
        w_k: projection(&mut rng, SUCCESSOR_D, SUCCESSOR_D),
        w_v: id,
    };
    let s = tied.scores(&e);
    Absorption {
        constructed: Mechanism::ALL
            .iter()
            .map(|&m| successor_accuracy(&constructed(m, &e)))
            .collect(),
        random_tied: successor_accuracy(&tied.forward(&e, false).weights),
        random_untied: successor_accuracy(&untied.forward(&e, false).weights),
        tied_asymmetry: (&s - s.transpose()).abs().max(),
    }
}

/// The trained successor task (the `train` module's recall task): the
/// query must read the label stored next to its key's successor.
pub const TRAIN_TASK: Task = Task {
    relation: Relation::Successor,
    vocab: 8,
    context: 4,
    d: 8,
    noise: 0.0,
    examples: None,
};

/// How long each architecture trains: long enough for slow absorption to show.
pub const TRAIN_SCHEDULE: Schedule = Schedule {
    steps: 4000,
    batch: 16,
    lr: 0.01,
    eval_every: 100,
    test: 100,
    threshold: 0.9,
};

/// The early checkpoint: by this step the untied head has learned the task.
pub const TRAIN_EARLY: usize = 300;

/// Test accuracy at which a training run counts as having solved the task.
pub const SOLVED: f64 = 0.99;

/// Training seeds per architecture.
pub const TRAIN_SEEDS: u64 = 10;

/// The trained architectures, in the book's order: a name and a config.
pub fn architectures() -> [(&'static str, Config); 5] {
    let tied = Config::single(TRAIN_TASK.d, TRAIN_TASK.vocab, Qk::Tied);
    [
        ("tied head", tied),
        (
            "+ residual",
            Config {
                residual: true,
                self_attention: true,
                ..tied
            },
        ),
        ("two tied heads", Config { heads: 2, ..tied }),
        (
            "two tied layers",
            Config {
                layers: 2,
                residual: true,
                self_attention: true,
                ..tied
            },
        ),
        (
            "untied head",
            Config {
                qk: Qk::Untied,
                ..tied
            },
        ),
    ]
}

/// Train every architecture on seeds `0..seeds`; `[architecture][seed]`.
pub fn trained(seeds: u64) -> Vec<Vec<History>> {
    let jobs: Vec<(usize, u64)> = (0..architectures().len())
        .flat_map(|a| (0..seeds).map(move |s| (a, s)))
        .collect();
    // job i trains architecture i / seeds on seed i % seeds
    let mut done = par_map(jobs.len() as u64, |i| {
        let (a, s) = jobs[i as usize];
        train(architectures()[a].1, TRAIN_TASK, TRAIN_SCHEDULE, s)
    });
    let mut by_arch = Vec::new();
    for _ in 0..architectures().len() {
        by_arch.push(done.drain(..seeds as usize).collect());
    }
    by_arch
}

/// Everything chapter 5 reports, at book size.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// For each variant (in `Variant::ALL` order), one trajectory per seed.
    pub trajectories: Vec<Vec<Trajectory>>,
    pub equilibria: Vec<Equilibrium>,
    pub tied_energy: Vec<EnergyRun>,
    pub untied_energy: Vec<EnergyRun>,
    pub absorption: Vec<Absorption>,
    /// Training histories, `[architecture][seed]` (see [`architectures`]).
    pub trained: Vec<Vec<History>>,
}

impl Findings {
    /// Run the chapter's experiments over `seeds` seeds.
    pub fn run(setup: Setup, seeds: u64) -> Findings {
        Findings {
            trajectories: Variant::ALL
                .iter()
                .map(|&v| (0..seeds).map(|s| trajectory(setup, v, s)).collect())
                .collect(),
            equilibria: (0..seeds).map(|s| equilibrium(setup, s)).collect(),
            tied_energy: (0..seeds).map(|s| energy_run(setup, true, s)).collect(),
            untied_energy: (0..seeds).map(|s| energy_run(setup, false, s)).collect(),
            absorption: (0..seeds).map(absorption).collect(),
            trained: trained(TRAIN_SEEDS),
        }
    }

    /// The trajectories of one variant.
    pub fn variant(&self, v: Variant) -> &[Trajectory] {
        &self.trajectories[Variant::ALL
            .iter()
            .position(|&w| w == v)
            .expect("every variant is run")]
    }

    /// Quantile `p` over seeds of a per-seed series at each step.
    pub fn band(&self, v: Variant, series: fn(&Trajectory) -> &[f64], p: f64) -> Vec<f64> {
        let runs = self.variant(v);
        let len = series(&runs[0]).len();
        (0..len)
            .map(|k| {
                quantile(
                    &runs
                        .iter()
                        .map(|t| series(t)[k].max(FLOOR))
                        .collect::<Vec<_>>(),
                    p,
                )
            })
            .collect()
    }

    /// Test accuracy of architecture `a` after `step` Adam steps (an
    /// evaluation step of [`TRAIN_SCHEDULE`]), over the training seeds.
    pub fn trained_accuracy(&self, a: usize, step: usize) -> Summary {
        Summary::of(
            &self.trained[a]
                .iter()
                .map(|h| {
                    let k = h.steps.iter().position(|&s| s == step);
                    h.accuracy[k.expect("the step is an evaluation step")]
                })
                .collect::<Vec<_>>(),
        )
    }

    /// How many runs of the architectures `archs` end at test accuracy ≥ [`SOLVED`].
    pub fn trained_solved(&self, archs: impl IntoIterator<Item = usize>) -> usize {
        archs
            .into_iter()
            .flat_map(|a| &self.trained[a])
            .filter(|h| h.final_accuracy >= SOLVED)
            .count()
    }

    /// Accuracy of one mechanism over seeds.
    pub fn mechanism(&self, m: Mechanism) -> Summary {
        let i = Mechanism::ALL
            .iter()
            .position(|&w| w == m)
            .expect("every mechanism is built");
        Summary::of(
            &self
                .absorption
                .iter()
                .map(|a| a.constructed[i])
                .collect::<Vec<_>>(),
        )
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(BOOK, SEEDS))
}

fn sci(x: f64) -> String {
    format!("{x:.1e}")
}

fn share(xs: impl Iterator<Item = bool>) -> f64 {
    let v: Vec<bool> = xs.collect();
    v.iter().filter(|&&b| b).count() as f64 / v.len() as f64
}

/// The numbers chapter 5's prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let last = BOOK.steps - 1;
    let mut m = vec![
        Measure::new("seeds", SEEDS.to_string()),
        Measure::new("n", BOOK.n.to_string()),
        Measure::new("d", BOOK.d.to_string()),
        Measure::new("steps", BOOK.steps.to_string()),
        Measure::new("c", fixed(BOOK.contraction, 1)),
        Measure::new("hopfield_beta", fixed(HOPFIELD_BETA, 2)),
        Measure::new("hopfield_steps", HOPFIELD_STEPS.to_string()),
        Measure::new("successor_d", SUCCESSOR_D.to_string()),
    ];
    for v in Variant::ALL {
        let name = v.name();
        let runs = f.variant(v);
        let res = |p| {
            quantile(
                &runs
                    .iter()
                    .map(|t| t.residual[last].max(FLOOR))
                    .collect::<Vec<_>>(),
                p,
            )
        };
        let col = |p| {
            quantile(
                &runs
                    .iter()
                    .map(|t| t.collapse[BOOK.steps].max(FLOOR))
                    .collect::<Vec<_>>(),
                p,
            )
        };
        m.push(Measure::new(format!("residual_{name}"), sci(res(0.5))));
        m.push(Measure::new(
            format!("residual_{name}_range"),
            format!("{} – {}", sci(res(0.1)), sci(res(0.9))),
        ));
        m.push(Measure::new(format!("collapse_{name}"), sci(col(0.5))));
        m.push(Measure::new(
            format!("collapse_{name}_range"),
            format!("{} – {}", sci(col(0.1)), sci(col(0.9))),
        ));
        m.push(Measure::new(
            format!("converged_{name}"),
            fixed(share(runs.iter().map(|t| t.residual[last] < 1e-12)), 2),
        ));
    }
    // observed per-step rate of the injected residual, steps 5..20, against c
    let rates: Vec<f64> = f
        .variant(Variant::Injected)
        .iter()
        .map(|t| (t.residual[20] / t.residual[5]).powf(1.0 / 15.0))
        .collect();
    m.push(Measure::new("injected_rate", pm(Summary::of(&rates), 2)));
    let eq = &f.equilibria;
    m.push(Measure::new(
        "data_residual",
        pm(
            Summary::of(&eq.iter().map(|e| e.data_residual).collect::<Vec<_>>()),
            2,
        ),
    ));
    m.push(Measure::new(
        "distance",
        pm(
            Summary::of(&eq.iter().map(|e| e.distance).collect::<Vec<_>>()),
            2,
        ),
    ));
    m.push(Measure::new(
        "hidden_residual_max",
        sci(eq.iter().map(|e| e.hidden_residual).fold(0.0, f64::max)),
    ));
    m.push(Measure::new(
        "solve_steps",
        pm(
            Summary::of(&eq.iter().map(|e| e.steps as f64).collect::<Vec<_>>()),
            1,
        ),
    ));
    m.push(Measure::new(
        "constraint_max",
        fixed(eq.iter().map(|e| e.constraint).fold(0.0, f64::max), 2),
    ));
    m.push(Measure::new(
        "tied_max_rise",
        sci(f
            .tied_energy
            .iter()
            .map(EnergyRun::max_rise)
            .fold(f64::NEG_INFINITY, f64::max)),
    ));
    m.push(Measure::new(
        "untied_rises",
        fixed(
            share(f.untied_energy.iter().map(|r| r.max_rise() > 1e-9)),
            2,
        ),
    ));
    m.push(Measure::new(
        "tied_settled",
        fixed(share(f.tied_energy.iter().map(|r| r.last_step < 1e-6)), 2),
    ));
    m.push(Measure::new(
        "untied_settled",
        fixed(share(f.untied_energy.iter().map(|r| r.last_step < 1e-6)), 2),
    ));
    for mech in Mechanism::ALL {
        m.push(Measure::new(
            format!("acc_{}", mech.name()),
            pm(f.mechanism(mech), 2),
        ));
    }
    let ab = &f.absorption;
    m.push(Measure::new(
        "random_tied",
        pm(
            Summary::of(&ab.iter().map(|a| a.random_tied).collect::<Vec<_>>()),
            2,
        ),
    ));
    m.push(Measure::new(
        "random_untied",
        pm(
            Summary::of(&ab.iter().map(|a| a.random_untied).collect::<Vec<_>>()),
            2,
        ),
    ));
    m.push(Measure::new(
        "random_tied_solved",
        fixed(share(ab.iter().map(|a| a.random_tied == 1.0)), 2),
    ));
    m.push(Measure::new(
        "random_untied_solved",
        fixed(share(ab.iter().map(|a| a.random_untied == 1.0)), 2),
    ));
    m.push(Measure::new(
        "tied_asymmetry",
        sci(ab.iter().map(|a| a.tied_asymmetry).fold(0.0, f64::max)),
    ));
    m.push(Measure::new("train_seeds", TRAIN_SEEDS.to_string()));
    m.push(Measure::new(
        "train_steps",
        TRAIN_SCHEDULE.steps.to_string(),
    ));
    m.push(Measure::new(
        "train_batch",
        TRAIN_SCHEDULE.batch.to_string(),
    ));
    m.push(Measure::new("train_vocab", TRAIN_TASK.vocab.to_string()));
    m.push(Measure::new(
        "train_context",
        TRAIN_TASK.context.to_string(),
    ));
    m.push(Measure::new(
        "train_chance",
        fixed(1.0 / TRAIN_TASK.vocab as f64, 3),
    ));
    m.push(Measure::new("train_early", TRAIN_EARLY.to_string()));
    m.push(Measure::new("train_lr", TRAIN_SCHEDULE.lr.to_string()));
    m.push(Measure::new("solved", SOLVED.to_string()));
    for (a, key) in TRAINED_KEYS.iter().enumerate() {
        m.push(Measure::new(
            format!("trained_{key}"),
            pm(f.trained_accuracy(a, TRAIN_EARLY), 2),
        ));
        m.push(Measure::new(
            format!("trained_{key}_final"),
            pm(f.trained_accuracy(a, TRAIN_SCHEDULE.steps), 2),
        ));
    }
    m.push(Measure::new(
        "trained_tied_solved",
        f.trained_solved(TIED).to_string(),
    ));
    m.push(Measure::new(
        "trained_tied_runs",
        (TIED.len() as u64 * TRAIN_SEEDS).to_string(),
    ));
    m.push(Measure::new(
        "trained_untied_solved",
        f.trained_solved([UNTIED]).to_string(),
    ));
    m.extend(trained::measures());
    m
}

/// The tied architectures and the untied head, as indices into [`architectures`].
pub const TIED: [usize; 4] = [0, 1, 2, 3];
/// See [`TIED`].
pub const UNTIED: usize = 4;

/// Measure keys of the trained architectures, in [`architectures`] order.
const TRAINED_KEYS: [&str; 5] = [
    "tied_head",
    "tied_residual",
    "two_heads",
    "two_layers",
    "untied_head",
];

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<crate::claim::Claim> {
    trained::claims()
}
