//! Chapter 2: physical coverage — one head with fixed weights on two
//! prompts: each forward pass exposes its own pattern and its own local
//! linear map.

use nalgebra::DMatrix;

use crate::attention::Mask;
use crate::coverage::{head_jacobian, influence};
use crate::measure::{Measure, pm};
use crate::parallel;
use crate::random::seeded;
use crate::relation::total_variation;
use crate::stats::Summary;

use super::head::{self, Tokens, prompt, relative, sample};

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

/// One head, fixed weights, two prompts: the physical coverage of each pass.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoPrompts {
    /// Attention weights of each prompt, `(n, n)`.
    pub weights: [DMatrix<f64>; 2],
    /// Token-to-output influence `‖∂o_i/∂x_m‖_F` of each prompt, `(n, n)`.
    pub influence: [DMatrix<f64>; 2],
}

/// The head of `seed` on two prompts (causal), the second from `seed + 1000`.
pub fn two_prompts(setup: head::Setup, seed: u64) -> TwoPrompts {
    let (head, x) = sample(setup, Tokens::Isotropic, seed);
    let y = prompt(&mut seeded(seed + 1000), setup, Tokens::Isotropic);
    let weights = [
        head.forward(&x, Mask::Causal).weights,
        head.forward(&y, Mask::Causal).weights,
    ];
    let influence = [
        influence(&head_jacobian(&head, &x, Mask::Causal), setup.n),
        influence(&head_jacobian(&head, &y, Mask::Causal), setup.n),
    ];
    TwoPrompts { weights, influence }
}

/// The head of `seed` and its second prompt: the relative change of the
/// local linear map `‖J(y) − J(x)‖/‖J(x)‖`, and the mean row total variation
/// between the two patterns.
pub fn change(setup: head::Setup, seed: u64) -> (f64, f64) {
    let (head, x) = sample(setup, Tokens::Isotropic, seed);
    let y = prompt(&mut seeded(seed + 1000), setup, Tokens::Isotropic);
    let (px, py) = (
        head.forward(&x, Mask::Causal).weights,
        head.forward(&y, Mask::Causal).weights,
    );
    (
        relative(
            &head_jacobian(&head, &y, Mask::Causal),
            &head_jacobian(&head, &x, Mask::Causal),
        ),
        total_variation(&px, &py),
    )
}

/// How much the local map and the pattern change between two prompts, per seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// Relative difference `‖J(x) − J(y)‖/‖J(x)‖` between two prompts under fixed weights.
    pub prompt_change: Vec<f64>,
    /// Mean total variation between the two prompts' patterns.
    pub pattern_change: Vec<f64>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let changes = parallel::map(0..setup.seeds, |s| change(setup.head, s));
        Findings {
            prompt_change: changes.iter().map(|c| c.0).collect(),
            pattern_change: changes.iter().map(|c| c.1).collect(),
        }
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 2 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    vec![
        Measure::new("small_n", BOOK.head.n.to_string()),
        Measure::new("small_d", BOOK.head.d.to_string()),
        Measure::new("prompt_change", pm(Summary::of(&f.prompt_change), 2)),
        Measure::new("pattern_change", pm(Summary::of(&f.pattern_change), 2)),
    ]
}
