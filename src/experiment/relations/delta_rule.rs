//! Where the picture of composable relations breaks: the delta rule's
//! token weights are signed and its rows do not sum to one, unlike linear
//! attention's on non-negative features.
//!
//! ```text
//! linear:  w_tj = q_t · k_j,  j ≤ t          (≥ 0 on non-negative unit features)
//! delta:   w_tj = effective weight of k_j in S_t (chapter 7), any sign
//! ```
//!
//! Introduced in chapter 4.

use nalgebra::{DMatrix, DVector};

use super::{DELTA_K, DELTA_T, trained};
use crate::delta::{beta_from_logits, effective_weights, l2_normalize};
use crate::random::{gaussian, seeded};
use crate::relation::is_stochastic;

/// Signed weights of the delta rule against linear attention, on
/// non-negative unit features (so linear attention's weights are all ≥ 0).
#[derive(Clone, Debug, PartialEq)]
pub struct DeltaTrial {
    /// Every `w_tj, j ≤ t` of the delta rule.
    pub delta: Vec<f64>,
    /// Fraction of them that are negative.
    pub delta_negative: f64,
    /// Fraction of linear attention's `q_t·k_j, j ≤ t` that are negative.
    pub linear_negative: f64,
    /// Mean `|Σ_j w_tj − 1|` of the delta rule's rows.
    pub row_sum_gap: f64,
    /// The same for linear attention's rows `Σ_j q_t·k_j` (unnormalised, so not stochastic either).
    pub linear_row_sum_gap: f64,
    /// Share of the delta rule's rows that are stochastic once divided by
    /// their sum (the normaliser of Katharopoulos et al.'s linear attention).
    pub delta_normalised: f64,
    /// The same share for linear attention's rows.
    pub linear_normalised: f64,
}

/// Non-negative unit queries and keys `(T, K)` and gates `β ∈ (0, 1)`, from one seed.
pub fn delta_sample(seed: u64) -> (DMatrix<f64>, DMatrix<f64>, DVector<f64>) {
    let mut rng = seeded(seed);
    let q = l2_normalize(&gaussian(&mut rng, DELTA_T, DELTA_K, 1.0).abs());
    let k = l2_normalize(&gaussian(&mut rng, DELTA_T, DELTA_K, 1.0).abs());
    let beta = beta_from_logits(&gaussian(&mut rng, DELTA_T, 1, 1.0).column(0).into_owned());
    (q, k, beta)
}

/// The token weights of one sample: linear attention's `q_t · k_j` (causal)
/// and the delta rule's effective weights `w_tj` (DeltaNet, scale 1; see
/// chapter 7's [`effective_weights`]), both `(T, T)` lower triangular.
pub fn delta_weights(seed: u64) -> (DMatrix<f64>, DMatrix<f64>) {
    let (q, k, beta) = delta_sample(seed);
    let linear = (&q * k.transpose()).lower_triangle();
    let delta = effective_weights(&q, &k, &DMatrix::zeros(DELTA_T, DELTA_K), &beta, 1.0);
    (linear, delta)
}

/// One seed of the delta-rule comparison.
pub fn delta_trial(seed: u64) -> DeltaTrial {
    let (linear_w, w) = delta_weights(seed);
    let lower = |m: &DMatrix<f64>| {
        (0..DELTA_T)
            .flat_map(|t| (0..=t).map(move |j| (t, j)))
            .map(|ix| m[ix])
            .collect::<Vec<_>>()
    };
    let delta = lower(&w);
    let linear = lower(&linear_w);
    let neg = |xs: &[f64]| xs.iter().filter(|&&x| x < 0.0).count() as f64 / xs.len() as f64;
    let gap = |m: &DMatrix<f64>| {
        m.row_iter().map(|r| (r.sum() - 1.0).abs()).sum::<f64>() / DELTA_T as f64
    };
    // share of rows r / Σ r that are stochastic (a row summing to 0 is not)
    let normalised = |m: &DMatrix<f64>| {
        let rows = trained::row_normalise(m);
        let ok = rows
            .row_iter()
            .filter(|r| is_stochastic(&DMatrix::from_iterator(1, r.len(), r.iter().cloned()), 1e-9))
            .count();
        ok as f64 / DELTA_T as f64
    };
    DeltaTrial {
        delta_normalised: normalised(&w),
        linear_normalised: normalised(&linear_w),
        row_sum_gap: gap(&w),
        linear_row_sum_gap: gap(&linear_w),
        delta_negative: neg(&delta),
        linear_negative: neg(&linear),
        delta,
    }
}
