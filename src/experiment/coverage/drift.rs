//! Chapter 2: how the local linear map changes under a small move of the
//! input — not at all inside a ReLU piece, always for an attention head.

use crate::attention::Mask;
use crate::coverage::{ReluNet, head_jacobian};
use crate::measure::{Measure, pm, share_of};
use crate::parallel;
use crate::random::{gaussian, seeded};
use crate::stats::Summary;

use super::head::{self, Tokens, relative, sample};
use super::pieces::widths;

/// The head's size and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub head: head::Setup,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    head: head::SMALL,
    seeds: super::SEEDS,
};

/// Perturbation sizes `ε` for the drift of the local linear map.
pub fn epsilons() -> Vec<f64> {
    (0..13)
        .map(|k| 10f64.powf(-3.0 + 0.25 * k as f64))
        .collect()
}

/// The drift of one seed.
pub fn drift(setup: head::Setup, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = seeded(seed);
    let net = ReluNet::random(&mut rng, &widths(&[16, 16]));
    let p = gaussian(&mut rng, 1, 2, 1.0);
    let dp = gaussian(&mut rng, 1, 2, 1.0);
    let (head, x) = sample(setup, Tokens::Isotropic, seed);
    let dx = gaussian(&mut rng, setup.n, setup.d, 1.0);
    let (j0, h0) = (net.jacobian(&p), head_jacobian(&head, &x, Mask::Causal));
    let eps = epsilons();
    let relu = eps
        .iter()
        .map(|&e| relative(&net.jacobian(&(&p + &dp * e)), &j0))
        .collect();
    let head = eps
        .iter()
        .map(|&e| relative(&head_jacobian(&head, &(&x + &dx * e), Mask::Causal), &h0))
        .collect();
    (relu, head)
}

/// How the local linear map changes under a perturbation `ε z` of the input
/// (`z` one fixed Gaussian direction): relative change
/// `‖J(x + εz) − J(x)‖_F / ‖J(x)‖_F` for a ReLU net `[2, 16, 16, 1]` at a
/// point of `N(0, I)` and for one causal head on a prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// `[seed][ε]` for the ReLU net.
    pub relu: Vec<Vec<f64>>,
    /// `[seed][ε]` for the head.
    pub head: Vec<Vec<f64>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let drifts = parallel::map(0..setup.seeds, |s| drift(setup.head, s));
        Findings {
            relu: drifts.iter().map(|d| d.0.clone()).collect(),
            head: drifts.into_iter().map(|d| d.1).collect(),
        }
    }

    /// Fraction of seeds whose local linear map changed at all at `ε` index `e`, ReLU and head.
    pub fn changed(&self, e: usize) -> (f64, f64) {
        let frac = |runs: &Vec<Vec<f64>>| {
            runs.iter().filter(|r| r[e] > 1e-12).count() as f64 / runs.len() as f64
        };
        (frac(&self.relu), frac(&self.head))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 2 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let eps = epsilons();
    let small = 4; // ε = 10^-2
    let (relu_small, head_small) = f.changed(small);
    vec![
        Measure::new("eps_small", format!("{}", eps[small])),
        Measure::new("relu_changed_small", share_of(relu_small, "seeds")),
        Measure::new("head_changed_small", share_of(head_small, "seeds")),
        Measure::new(
            "head_drift_small",
            pm(Summary::over(f.head.iter().map(|r| r[small])), 3),
        ),
    ]
}
