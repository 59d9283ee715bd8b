//! Chapter 2: what an attention pattern does and does not tell — weights
//! against carried norms and leave-one-out effects, swapping the OV circuit,
//! and visibly different patterns with the same output.

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use crate::attention::{Head, Mask};
use crate::attribution::{carried_norms, equivalent_weights, leave_one_out, swap_ov};
use crate::measure::{Measure, pm, sci};
use crate::parallel;
use crate::random::seeded;
use crate::relation::total_variation;
use crate::stats::{Summary, argmax, mean, spearman};

use super::head::{self, Tokens, relative, sample};

/// The head's size and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub head: head::Setup,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    head: head::BOOK,
    seeds: super::SEEDS,
};

/// What one seed measures about a single head.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// Spearman ρ over keys `j` between `α_ij` and `‖α_ij v_j‖`, mean over queries `i`.
    pub weight_norm: f64,
    /// … between `α_ij` and the leave-one-out effect.
    pub weight_loo: f64,
    /// … between `‖α_ij v_j‖` and the leave-one-out effect.
    pub norm_loo: f64,
    /// Fraction of queries whose heaviest-weighted token is also the one whose removal moves the output most.
    pub top_agree: f64,
    /// Largest `|α − α'|` change of pattern (swap OV): exactly 0.
    pub swap_pattern: f64,
    /// `‖o' − o‖_F / ‖o‖_F` after swapping OV with an independent head.
    pub swap_output: f64,
    /// Mean over queries of the total variation `½‖α_i − α'_i‖₁` to an equivalent pattern.
    pub equivalent_tv: f64,
    /// Largest output change `max |α'ᵀV − αᵀV|` between the equivalent patterns.
    pub equivalent_output: f64,
    /// Fraction of queries whose heaviest token differs in the equivalent pattern.
    pub equivalent_top_moved: f64,
}

/// One measured field of a [`Trial`], e.g. `|t| t.weight_loo`.
pub type TrialField = fn(&Trial) -> f64;

/// Mean over rows `i` of Spearman ρ between rows of `a` and `b`.
fn row_spearman(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    let rows: Vec<f64> = (0..a.nrows())
        .map(|i| {
            spearman(
                &a.row(i).iter().cloned().collect::<Vec<_>>(),
                &b.row(i).iter().cloned().collect::<Vec<_>>(),
            )
        })
        .collect();
    mean(&rows)
}

/// One head (non-causal) on one prompt, from one seed.
pub fn trial(setup: head::Setup, tokens: Tokens, seed: u64) -> Trial {
    let (head, x) = sample(setup, tokens, seed);
    let other = Head::random(
        &mut seeded(seed + 5000),
        setup.d,
        setup.d_head,
        setup.d_head,
    );
    let pass = head.forward(&x, Mask::Full);
    let v = &x * &head.w_v;
    let norms = carried_norms(&pass.weights, &v);
    let loo = leave_one_out(&head, &x, Mask::Full);
    let n = setup.n;
    let top_agree = (0..n)
        .filter(|&i| argmax(0..n, |j| pass.weights[(i, j)]) == argmax(0..n, |j| loo[(i, j)]))
        .count() as f64
        / n as f64;
    let swapped = swap_ov(&head, &other).forward(&x, Mask::Full);
    let (mut tv, mut out, mut moved) = (0.0, 0.0f64, 0.0);
    for i in 0..n {
        let alpha = DVector::from_iterator(n, pass.weights.row(i).iter().cloned());
        let other = equivalent_weights(&alpha, &v);
        tv += total_variation(&other.transpose(), &alpha.transpose()) / n as f64;
        out = out.max((v.transpose() * (&other - &alpha)).abs().max());
        moved += f64::from(other.argmax().0 != alpha.argmax().0) / n as f64;
    }
    Trial {
        weight_norm: row_spearman(&pass.weights, &norms),
        weight_loo: row_spearman(&pass.weights, &loo),
        norm_loo: row_spearman(&norms, &loo),
        top_agree,
        swap_pattern: (&swapped.weights - &pass.weights).abs().max(),
        swap_output: relative(&swapped.output, &pass.output),
        equivalent_tv: tv,
        equivalent_output: out,
        equivalent_top_moved: moved,
    }
}

/// One row's pattern and an equivalent one, for the figure: `(α_i, α'_i, α_iᵀV, α'_iᵀV)`.
pub fn equivalent_example(
    setup: head::Setup,
    seed: u64,
    i: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let (head, x) = sample(setup, Tokens::Isotropic, seed);
    let w = head.forward(&x, Mask::Full).weights;
    let v = &x * &head.w_v;
    let alpha = DVector::from_iterator(setup.n, w.row(i).iter().cloned());
    let other = equivalent_weights(&alpha, &v);
    let (o, o2) = (v.transpose() * &alpha, v.transpose() * &other);
    (
        alpha.iter().cloned().collect(),
        other.iter().cloned().collect(),
        o.iter().cloned().collect(),
        o2.iter().cloned().collect(),
    )
}

/// Weights, carried norms and leave-one-out effects of every pair of one
/// seed, for the scatter figure: `(α, ‖αv‖, loo)` pooled over queries.
pub fn attribution_pairs(
    setup: head::Setup,
    tokens: Tokens,
    seed: u64,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (head, x) = sample(setup, tokens, seed);
    let w = head.forward(&x, Mask::Full).weights;
    let norms = carried_norms(&w, &(&x * &head.w_v));
    let loo = leave_one_out(&head, &x, Mask::Full);
    (
        w.iter().cloned().collect(),
        norms.iter().cloned().collect(),
        loo.iter().cloned().collect(),
    )
}

/// Single-head trials for both token distributions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    /// `[tokens][seed]` for [`Tokens::ALL`].
    pub trials: Vec<Vec<Trial>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            trials: Tokens::ALL
                .iter()
                .map(|&t| parallel::map(0..setup.seeds, |s| trial(setup.head, t, s)))
                .collect(),
        }
    }

    /// The trials of one token distribution.
    pub fn of(&self, tokens: Tokens) -> &[Trial] {
        let k = Tokens::ALL
            .iter()
            .position(|&t| t == tokens)
            .expect("every distribution is run");
        &self.trials[k]
    }

    /// Summary of one trial field over seeds for one token distribution.
    pub fn summary(&self, tokens: Tokens, field: TrialField) -> Summary {
        Summary::over(self.of(tokens).iter().map(field))
    }

    /// The largest value of one trial field over seeds (0 when all are ≤ 0).
    pub fn largest(&self, tokens: Tokens, field: TrialField) -> f64 {
        self.of(tokens).iter().map(field).fold(0.0, f64::max)
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}

/// The numbers chapter 2 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("n", BOOK.head.n.to_string()),
        Measure::new("d", BOOK.head.d.to_string()),
        Measure::new("d_head", BOOK.head.d_head.to_string()),
    ];
    let fields: [(&str, TrialField); 7] = [
        ("rho_weight_norm", |t| t.weight_norm),
        ("rho_weight_loo", |t| t.weight_loo),
        ("rho_norm_loo", |t| t.norm_loo),
        ("top_agree", |t| t.top_agree),
        ("swap_output", |t| t.swap_output),
        ("equivalent_tv", |t| t.equivalent_tv),
        ("equivalent_top_moved", |t| t.equivalent_top_moved),
    ];
    // largest over seeds, in scientific notation; exactly zero is written 0
    let largest = |tokens: Tokens, field: TrialField| {
        let x = f.largest(tokens, field);
        if x == 0.0 { "0".to_string() } else { sci(x, 0) }
    };
    for tokens in Tokens::ALL {
        for (name, field) in fields {
            m.push(Measure::new(
                format!("{name}_{}", tokens.name()),
                pm(f.summary(tokens, field), 2),
            ));
        }
        m.push(Measure::new(
            format!("swap_pattern_{}", tokens.name()),
            largest(tokens, |t| t.swap_pattern),
        ));
        m.push(Measure::new(
            format!("equivalent_output_{}", tokens.name()),
            largest(tokens, |t| t.equivalent_output),
        ));
    }
    m
}
