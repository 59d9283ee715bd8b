//! Chapter 5: the Hopfield energy along a retrieval run — never rising with
//! a tied form `W Wᵀ`, free to rise with an untied one `W_Q W_Kᵀ`.

use nalgebra::DVector;

use crate::fixed_point::{hopfield_energy, hopfield_update};
use crate::measure::{Measure, fixed, sci};
use crate::parallel;
use crate::random::{gaussian, projection, seeded};
use crate::stats::share;

/// `n` stored patterns of width `d`, inverse temperature `beta`, `steps`
/// updates, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub d: usize,
    pub beta: f64,
    pub steps: usize,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    n: 12,
    d: 16,
    beta: 0.25,
    steps: 30,
    seeds: super::SEEDS,
};

/// The bilinear form `M` of the energy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `M = W Wᵀ`.
    Tied,
    /// `M = W_Q W_Kᵀ`, independent projections.
    Untied,
}

/// Energy along one retrieval run.
#[derive(Clone, Debug, PartialEq)]
pub struct EnergyRun {
    /// `E(ξ_k)`, `k = 0 … steps`.
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

/// Patterns `(n, d)`, a form, and a start state, from one seed.
pub fn energy_run(setup: Setup, form: Form, seed: u64) -> EnergyRun {
    let mut rng = seeded(seed);
    let x = gaussian(&mut rng, setup.n, setup.d, 1.0);
    let w_q = projection(&mut rng, setup.d, setup.d);
    let w_k = match form {
        Form::Tied => w_q.clone(),
        Form::Untied => projection(&mut rng, setup.d, setup.d),
    };
    let m = &w_q * w_k.transpose();
    let mut xi: DVector<f64> = gaussian(&mut rng, setup.d, 1, 1.0).column(0).into_owned();
    let mut energy = vec![hopfield_energy(&x, &m, &xi, setup.beta)];
    let mut last_step = 0.0;
    for _ in 0..setup.steps {
        let next = hopfield_update(&x, &m, &xi, setup.beta);
        last_step = (&next - &xi).norm();
        xi = next;
        energy.push(hopfield_energy(&x, &m, &xi, setup.beta));
    }
    EnergyRun { energy, last_step }
}

/// Runs with both forms, one per seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub tied: Vec<EnergyRun>,
    pub untied: Vec<EnergyRun>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let runs = |form| parallel::map(0..setup.seeds, |s| energy_run(setup, form, s));
        Findings {
            tied: runs(Form::Tied),
            untied: runs(Form::Untied),
        }
    }

    /// The largest rise of the tied energy over every seed.
    pub fn tied_max_rise(&self) -> f64 {
        self.tied
            .iter()
            .map(EnergyRun::max_rise)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The share of untied runs whose energy rises somewhere (by more than 10⁻⁹).
    pub fn untied_rises(&self) -> f64 {
        share(self.untied.iter().map(|r| r.max_rise() > 1e-9))
    }

    /// The share of runs whose last step moved less than 10⁻⁶.
    pub fn settled(runs: &[EnergyRun]) -> f64 {
        share(runs.iter().map(|r| r.last_step < 1e-6))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    vec![
        Measure::new("hopfield_beta", fixed(BOOK.beta, 2)),
        Measure::new("hopfield_steps", BOOK.steps.to_string()),
        Measure::new("tied_max_rise", sci(f.tied_max_rise(), 1)),
        Measure::new("untied_rises", fixed(f.untied_rises(), 2)),
        Measure::new("tied_settled", fixed(Findings::settled(&f.tied), 2)),
        Measure::new("untied_settled", fixed(Findings::settled(&f.untied), 2)),
    ]
}
