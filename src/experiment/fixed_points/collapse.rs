//! Chapter 5: fixed-point iteration of a weight-tied attention layer in three
//! variants — how fast the residual falls, and whether the tokens collapse
//! to rank one on the way.

use nalgebra::DMatrix;

use crate::attention::Head;
use crate::fixed_point::{TiedLayer, Variant, collapse, residual};
use crate::measure::{Measure, between, fixed, pm, sci};
use crate::parallel;
use crate::random::{gaussian, seeded};
use crate::stats::{Summary, quantile, share};

/// Sizes: `n` tokens of width `d`, `steps` iterations, the injected
/// variant's contraction factor `c = γ ‖W_V‖₂`, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub d: usize,
    pub steps: usize,
    pub contraction: f64,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    n: 12,
    d: 16,
    steps: 40,
    contraction: 0.5,
    seeds: super::SEEDS,
};

/// Residuals below this are drawn and counted as converged.
pub const FLOOR: f64 = 1e-15;

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

/// Every variant's trajectories.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub setup: Setup,
    /// For each variant (in `Variant::ALL` order), one trajectory per seed.
    pub trajectories: Vec<Vec<Trajectory>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            setup,
            trajectories: Variant::ALL
                .iter()
                .map(|&v| parallel::map(0..setup.seeds, |s| trajectory(setup, v, s)))
                .collect(),
        }
    }

    /// The trajectories of one variant.
    pub fn variant(&self, v: Variant) -> &[Trajectory] {
        &self.trajectories[Variant::ALL
            .iter()
            .position(|&w| w == v)
            .expect("every variant is run")]
    }

    /// Quantile `p` over seeds of a per-seed series at each step (floored at [`FLOOR`]).
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

    /// The residual of every seed after the last step.
    pub fn last_residuals(&self, v: Variant) -> Vec<f64> {
        let last = self.setup.steps - 1;
        self.variant(v).iter().map(|t| t.residual[last]).collect()
    }

    /// The distance from rank one of every seed after the last step.
    pub fn last_collapse(&self, v: Variant) -> Vec<f64> {
        let last = self.setup.steps;
        self.variant(v).iter().map(|t| t.collapse[last]).collect()
    }

    /// Per seed, the observed per-step rate of the injected residual over
    /// steps 5 to 20, `(r₂₀ / r₅)^(1/15)`, to compare with `c`.
    pub fn injected_rates(&self) -> Vec<f64> {
        self.variant(Variant::Injected)
            .iter()
            .map(|t| (t.residual[20] / t.residual[5]).powf(1.0 / 15.0))
            .collect()
    }
}

/// The sizes a referee would vary for the standard layer: four times the
/// iterations, and twice the tokens and the width.
pub const LONGER: Setup = Setup {
    steps: 4 * BOOK.steps,
    ..BOOK
};
/// See [`LONGER`].
pub const WIDER: Setup = Setup {
    n: 2 * BOOK.n,
    d: 2 * BOOK.d,
    ..BOOK
};

/// Median over seeds of `variant`'s residual after the last step, at `setup`.
pub fn median_last_residual(setup: Setup, variant: Variant) -> f64 {
    let last = parallel::map(0..setup.seeds, |s| {
        *trajectory(setup, variant, s)
            .residual
            .last()
            .expect("at least one step")
    });
    crate::stats::median(&last)
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("n", BOOK.n.to_string()),
        Measure::new("d", BOOK.d.to_string()),
        Measure::new("steps", BOOK.steps.to_string()),
        Measure::new("c", fixed(BOOK.contraction, 1)),
    ];
    for v in Variant::ALL {
        let name = v.name();
        let (residuals, collapses) = (f.last_residuals(v), f.last_collapse(v));
        let floored =
            |xs: &[f64], p| quantile(&xs.iter().map(|x| x.max(FLOOR)).collect::<Vec<_>>(), p);
        let (res, col) = (|p| floored(&residuals, p), |p| floored(&collapses, p));
        m.push(Measure::new(format!("residual_{name}"), sci(res(0.5), 1)));
        m.push(Measure::new(
            format!("residual_{name}_range"),
            between(sci(res(0.1), 1), sci(res(0.9), 1)),
        ));
        m.push(Measure::new(format!("collapse_{name}"), sci(col(0.5), 1)));
        m.push(Measure::new(
            format!("collapse_{name}_range"),
            between(sci(col(0.1), 1), sci(col(0.9), 1)),
        ));
        m.push(Measure::new(
            format!("converged_{name}"),
            fixed(share(residuals.iter().map(|&r| r < 1e-12)), 2),
        ));
    }
    m.push(Measure::new(
        "injected_rate",
        pm(Summary::of(&f.injected_rates()), 2),
    ));
    m
}
