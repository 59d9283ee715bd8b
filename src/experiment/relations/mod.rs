//! Chapter 4: attention matrices as composable relations — the category
//! laws, rollout against leave-one-out, the prompt as boundary condition,
//! and the two places the picture breaks (input-dependent arrows, signed
//! delta-rule weights).

pub mod claims;

/// Chapter 4's claims: the chapter's own, then "flexible, but costly".
pub fn claims() -> Vec<crate::claim::Claim> {
    let mut c = claims::claims();
    c.extend(flexible::claims());
    c
}

use nalgebra::DMatrix;

use crate::attention::Mask;

use crate::measure::{Measure, fixed, pm, sci, share_over};
use crate::parallel;
use crate::random::{gaussian, seeded};
use crate::relation::{
    Stack, compose, identity, is_stochastic, leave_one_out, random_stochastic, rollout, strongest,
    total_variation,
};
use crate::stats::{Summary, spearman};

pub mod cost;
mod cost_report;
pub mod delta_rule;
pub mod flexible;
pub use delta_rule::{DeltaTrial, delta_sample, delta_trial, delta_weights};
pub mod decoder_verdict;
pub mod trained;

/// Sizes of the stacked model: `n` tokens of width `d`, `layers` layers,
/// query sharpness, and the split of a prompt into prefix and suffix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub d: usize,
    pub layers: usize,
    pub sharpness: f64,
    pub prefix: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    n: 12,
    d: 16,
    layers: 3,
    sharpness: 2.0,
    prefix: 6,
};

/// The referee's variant of [`BOOK`]: unsharpened queries (`W_Q` not scaled),
/// so attention is as flat as the random projections make it.
pub const FLAT: Setup = Setup {
    sharpness: 1.0,
    ..BOOK
};

/// Seeds behind every summary of the stacked model.
pub const SEEDS: u64 = 200;

/// Random instances behind each category law.
pub const INSTANCES: u64 = 1000;

/// Tolerance the category laws are checked to.
pub const TOLERANCE: f64 = 1e-12;

/// Sizes of the delta-rule example: sequence length and key width.
pub const DELTA_T: usize = 12;
pub const DELTA_K: usize = 4;

/// Largest deviations from the category laws over random arrows
/// `f: 4 → 6`, `g: 6 → 5`, `h: 5 → 3`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Laws {
    /// `max |id ∘ f − f|, |f ∘ id − f|`.
    pub identity: f64,
    /// `max |row sum of g ∘ f − 1|`.
    pub row_sum: f64,
    /// Smallest entry of any composite (must be ≥ 0).
    pub min_entry: f64,
    /// `max |(h ∘ g) ∘ f − h ∘ (g ∘ f)|`.
    pub associativity: f64,
    /// Instances for which every composite passed `is_stochastic` at [`TOLERANCE`].
    pub closed: u64,
}

/// Check the laws on `instances` random triples (seeds `0..instances`).
pub fn laws(instances: u64) -> Laws {
    let mut l = Laws {
        identity: 0.0,
        row_sum: 0.0,
        min_entry: f64::INFINITY,
        associativity: 0.0,
        closed: 0,
    };
    let max_abs = |m: DMatrix<f64>| m.abs().max();
    for seed in 0..instances {
        let mut rng = seeded(seed);
        let spread = 0.5 + 3.0 * (seed % 4) as f64;
        let f = random_stochastic(&mut rng, 4, 6, spread);
        let g = random_stochastic(&mut rng, 6, 5, spread);
        let h = random_stochastic(&mut rng, 5, 3, spread);
        l.identity = l
            .identity
            .max(max_abs(compose(&identity(4), &f) - &f))
            .max(max_abs(compose(&f, &identity(6)) - &f));
        let (gf, hg) = (compose(&f, &g), compose(&g, &h));
        let (left, right) = (compose(&gf, &h), compose(&f, &hg));
        for c in [&gf, &hg, &left] {
            l.row_sum = c
                .row_iter()
                .fold(l.row_sum, |m, r| m.max((r.sum() - 1.0).abs()));
            l.min_entry = l.min_entry.min(c.min());
        }
        l.associativity = l.associativity.max(max_abs(&left - right));
        l.closed += u64::from(
            [&gf, &hg, &left]
                .iter()
                .all(|c| is_stochastic(c, TOLERANCE)),
        );
    }
    l
}

/// Tokens `(n, d)` and a stack, from one seed.
pub fn sample(setup: Setup, seed: u64) -> (DMatrix<f64>, Stack) {
    let mut rng = seeded(seed);
    let stack = Stack::random(&mut rng, setup.layers, setup.d, setup.sharpness);
    (gaussian(&mut rng, setup.n, setup.d, 1.0), stack)
}

/// One sample's layer attentions and their rollout, as Figure 4.1 shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct Composition {
    /// Each layer's attention `A_l`, `(n, n)`.
    pub weights: Vec<DMatrix<f64>>,
    /// Their rollout `(½I + ½A_L) ⋯ (½I + ½A_1)`.
    pub rollout: DMatrix<f64>,
}

/// The stack of `seed` run on its tokens.
pub fn composition(setup: Setup, seed: u64) -> Composition {
    let (x, stack) = sample(setup, seed);
    let weights = stack.forward(&x).weights;
    let rollout = crate::relation::rollout(&weights);
    Composition { weights, rollout }
}

/// The last token's relation to each earlier token, three ways.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribution {
    /// Last layer's attention, row `n − 1`, columns `0..n−1`.
    pub raw: Vec<f64>,
    /// Rollout, row `n − 1`, columns `0..n−1`.
    pub rollout: Vec<f64>,
    /// Leave-one-out effect on the last output.
    pub leave_one_out: Vec<f64>,
    /// The objects alone: raw similarity `x_{n−1} · x_j` of the input tokens.
    pub similarity: Vec<f64>,
    /// The objects alone: each token's first-layer value norm `‖x_j W_V‖`.
    pub value_norm: Vec<f64>,
}

/// The three attributions for one seed.
pub fn attribution(setup: Setup, seed: u64) -> Attribution {
    let (x, stack) = sample(setup, seed);
    let t = stack.forward(&x);
    let last = setup.n - 1;
    let row = |m: &DMatrix<f64>| (0..last).map(|j| m[(last, j)]).collect::<Vec<_>>();
    Attribution {
        raw: row(t.weights.last().expect("at least one layer")),
        rollout: row(&rollout(&t.weights)),
        leave_one_out: leave_one_out(&stack, &x),
        similarity: (0..last).map(|j| x.row(last).dot(&x.row(j))).collect(),
        value_norm: (0..last)
            .map(|j| (x.row(j) * &stack.heads[0].w_v).norm())
            .collect(),
    }
}

/// What one seed measures on the stacked model.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// Spearman ρ of raw last-layer attention with leave-one-out.
    pub rho_raw: f64,
    /// Spearman ρ of rollout with leave-one-out.
    pub rho_rollout: f64,
    /// Spearman ρ of the objects' raw similarity to the last token with leave-one-out.
    pub rho_similarity: f64,
    /// Spearman ρ of the objects' value norms with leave-one-out.
    pub rho_value_norm: f64,
    /// For each layer, then rollout: fraction of suffix tokens whose
    /// strongest suffix partner changes when the prefix changes.
    pub turnover: Vec<f64>,
    /// For layers `2..=L`: mean row TV between the layer's attention along
    /// the path (on its own input) and on the prompt itself.
    pub path_tv: Vec<f64>,
}

/// One seed: attribution, and a second prompt with the same suffix and a new prefix.
pub fn trial(setup: Setup, seed: u64) -> Trial {
    let a = attribution(setup, seed);
    let (x, stack) = sample(setup, seed);
    let mut y = x.clone();
    let fresh = gaussian(&mut seeded(seed + 1_000_000), setup.prefix, setup.d, 1.0);
    y.rows_mut(0, setup.prefix).copy_from(&fresh);
    let (tx, ty) = (stack.forward(&x), stack.forward(&y));
    let suffix = setup.prefix..setup.n;
    let changed = |p: &DMatrix<f64>, q: &DMatrix<f64>| {
        let rows = |m: &DMatrix<f64>| {
            strongest(
                &m.rows(setup.prefix, setup.n - setup.prefix).into_owned(),
                suffix.clone(),
            )
        };
        let (sp, sq) = (rows(p), rows(q));
        sp.iter().zip(&sq).filter(|(a, b)| a != b).count() as f64 / sp.len() as f64
    };
    let mut turnover: Vec<f64> = tx
        .weights
        .iter()
        .zip(&ty.weights)
        .map(|(p, q)| changed(p, q))
        .collect();
    turnover.push(changed(&rollout(&tx.weights), &rollout(&ty.weights)));
    let path_tv = (1..setup.layers)
        .map(|l| {
            total_variation(
                &tx.weights[l],
                &stack.heads[l].forward(&x, Mask::Full).weights,
            )
        })
        .collect();
    Trial {
        rho_raw: spearman(&a.raw, &a.leave_one_out),
        rho_rollout: spearman(&a.rollout, &a.leave_one_out),
        rho_similarity: spearman(&a.similarity, &a.leave_one_out),
        rho_value_norm: spearman(&a.value_norm, &a.leave_one_out),
        turnover,
        path_tv,
    }
}

/// Everything chapter 4 reports, at book size.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub laws: Laws,
    pub trials: Vec<Trial>,
    pub delta: Vec<DeltaTrial>,
}

impl Findings {
    /// Run the chapter's experiments over `seeds` seeds.
    pub fn run(setup: Setup, seeds: u64, instances: u64) -> Findings {
        let trials = parallel::map(0..seeds, |seed| trial(setup, seed));
        Findings {
            laws: laws(instances),
            trials,
            delta: (0..seeds).map(delta_trial).collect(),
        }
    }

    /// Summary of one number per trial.
    pub fn summary(&self, field: impl Fn(&Trial) -> f64) -> Summary {
        Summary::over(self.trials.iter().map(field))
    }

    /// Summary of one number per delta trial.
    pub fn delta_summary(&self, field: impl Fn(&DeltaTrial) -> f64) -> Summary {
        Summary::over(self.delta.iter().map(field))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK, SEEDS, INSTANCES)
}

findings! {
    /// The stacked model's trials at [`FLAT`], computed once per process.
    pub fn flat() -> Vec<Trial> = parallel::map(0..SEEDS, |seed| trial(FLAT, seed))
}

/// The numbers chapter 4's prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let l = f.laws;
    let layers = BOOK.layers;
    let mut m = vec![
        Measure::new("instances", INSTANCES.to_string()),
        Measure::new("tolerance", sci(TOLERANCE, 1)),
        Measure::new("law_identity", sci(l.identity, 1)),
        Measure::new("law_rowsum", sci(l.row_sum, 1)),
        Measure::new("law_assoc", sci(l.associativity, 1)),
        Measure::new("law_min", sci(l.min_entry, 1)),
        Measure::new("law_closed", l.closed.to_string()),
        Measure::new("seeds", SEEDS.to_string()),
        Measure::new("n", BOOK.n.to_string()),
        Measure::new("d", BOOK.d.to_string()),
        Measure::new("layers", layers.to_string()),
        Measure::new("sharpness", fixed(BOOK.sharpness, 0)),
        Measure::new("prefix", BOOK.prefix.to_string()),
        Measure::new("suffix", (BOOK.n - BOOK.prefix).to_string()),
        Measure::new("rho_raw", pm(f.summary(|t| t.rho_raw), 2)),
        Measure::new("rho_rollout", pm(f.summary(|t| t.rho_rollout), 2)),
        Measure::new(
            "rollout_wins",
            fixed(
                f.trials
                    .iter()
                    .filter(|t| t.rho_rollout > t.rho_raw)
                    .count() as f64
                    / f.trials.len() as f64,
                2,
            ),
        ),
        Measure::new(
            "turnover_chance",
            fixed(1.0 - 1.0 / (BOOK.n - BOOK.prefix) as f64, 2),
        ),
        Measure::new("turnover_rollout", pm(f.summary(|t| t.turnover[layers]), 2)),
        Measure::new("delta_t", DELTA_T.to_string()),
        Measure::new("delta_k", DELTA_K.to_string()),
        Measure::new(
            "delta_negative",
            pm(f.delta_summary(|t| t.delta_negative), 2),
        ),
        Measure::new(
            "linear_negative",
            pm(f.delta_summary(|t| t.linear_negative), 2),
        ),
        Measure::new(
            "delta_min",
            fixed(
                f.delta
                    .iter()
                    .flat_map(|t| t.delta.iter().cloned())
                    .fold(f64::INFINITY, f64::min),
                2,
            ),
        ),
        Measure::new(
            "delta_rowsum_gap",
            pm(f.delta_summary(|t| t.row_sum_gap), 2),
        ),
        Measure::new(
            "linear_rowsum_gap",
            pm(f.delta_summary(|t| t.linear_row_sum_gap), 2),
        ),
        Measure::new(
            "delta_normalised",
            share_over(f.delta_summary(|t| t.delta_normalised), "rows"),
        ),
        Measure::new(
            "linear_normalised",
            share_over(f.delta_summary(|t| t.linear_normalised), "rows"),
        ),
    ];
    for l in 0..layers {
        m.push(Measure::new(
            format!("turnover_layer{}", l + 1),
            pm(f.summary(|t| t.turnover[l]), 2),
        ));
    }
    for l in 1..layers {
        m.push(Measure::new(
            format!("path_tv_layer{}", l + 1),
            pm(f.summary(|t| t.path_tv[l - 1]), 2),
        ));
    }
    m.extend(cost_report::measures());
    m.extend(flexible::measures());
    m.extend(trained::measures());
    m.extend(decoder_verdict::measures());
    m
}
