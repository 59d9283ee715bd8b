//! Chapter 5: the data-level fixed point the essay's Lagrangian asks for
//! against the hidden-state fixed point that the injected layer reaches.

use crate::fixed_point::{Variant, lagrangian, residual, solve};
use crate::measure::{Measure, fixed, pm, sci};
use crate::parallel;
use crate::stats::Summary;

use super::collapse;

/// The layers of the collapse experiment, and the solver's tolerance and step budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub layer: collapse::Setup,
    pub tolerance: f64,
    pub max_steps: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    layer: collapse::BOOK,
    tolerance: 1e-13,
    max_steps: 500,
};

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
    let (x, layer) = collapse::sample(setup.layer, seed);
    let (fit, constraint, _) = lagrangian(&layer, Variant::Injected, std::slice::from_ref(&x), 1.0);
    let (z, steps) = solve(
        &layer,
        Variant::Injected,
        &x,
        setup.tolerance,
        setup.max_steps,
    );
    Equilibrium {
        data_residual: fit.sqrt() / x.norm(),
        distance: (&z - &x).norm() / x.norm(),
        hidden_residual: residual(&layer.apply(Variant::Injected, &z, &x), &z),
        steps,
        constraint,
    }
}

/// One equilibrium per seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub equilibria: Vec<Equilibrium>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            equilibria: parallel::map(0..setup.layer.seeds, |s| equilibrium(setup, s)),
        }
    }

    /// Summary of one field over the seeds.
    pub fn summary(&self, field: fn(&Equilibrium) -> f64) -> Summary {
        Summary::over(self.equilibria.iter().map(field))
    }

    /// The largest value of one field over the seeds (0 when all are ≤ 0).
    pub fn largest(&self, field: fn(&Equilibrium) -> f64) -> f64 {
        self.equilibria.iter().map(field).fold(0.0, f64::max)
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
        Measure::new("data_residual", pm(f.summary(|e| e.data_residual), 2)),
        Measure::new("distance", pm(f.summary(|e| e.distance), 2)),
        Measure::new(
            "hidden_residual_max",
            sci(f.largest(|e| e.hidden_residual), 1),
        ),
        Measure::new("solve_steps", pm(f.summary(|e| e.steps as f64), 1)),
        Measure::new("constraint_max", fixed(f.largest(|e| e.constraint), 2)),
    ]
}
