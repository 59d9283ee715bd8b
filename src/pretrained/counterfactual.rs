//! What "removing key j from query i's mixture" means: three counterfactuals a
//! referee would vary, and two places where their effect is measured.
//!
//! ```text
//! head output      o_i = Σ_j α_ij f_j,   f_j = v_j W_O,hᵀ          (n, 384)
//! knockout, renormalised   Δ_ij = α_ij / (1 − α_ij) · (o_i − f_j)   (softmax without key j)
//! value zeroing            Δ_ij = −α_ij f_j                           (Kobayashi et al.'s ‖α f‖)
//! mean-value ablation      Δ_ij = α_ij (f̄ − f_j),  f̄ = mean_k f_k
//! target: head             E_ij = ‖Δ_ij‖
//! target: attention block  E_ij = ‖LN₁(u_i + Δ_ij) − LN₁(u_i)‖,  u = x + Σ_h w_h + b_O
//! ```
//!
//! The attention block is Kobayashi et al. 2021's "whole attention block" (attention,
//! residual, LayerNorm); a change at query `i` stays in row `i` there.
//! Introduced in chapter 2.

use nalgebra::{DMatrix, DVector};

use super::minilm::weights::LayerNorm;

/// How key `j` is removed from query `i`'s mixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counterfactual {
    /// Weight `α_ij` set to 0 and the rest renormalised (softmax over the other keys).
    Knockout,
    /// `α_ij f_j` removed without renormalising: value zeroing.
    ValueZeroing,
    /// `f_j` replaced by the mean of `f` over the sentence's tokens.
    MeanValue,
}

impl Counterfactual {
    pub const ALL: [Counterfactual; 3] = [
        Counterfactual::Knockout,
        Counterfactual::ValueZeroing,
        Counterfactual::MeanValue,
    ];

    /// A label for cards and figures.
    pub fn name(self) -> &'static str {
        match self {
            Counterfactual::Knockout => "knockout, renormalised",
            Counterfactual::ValueZeroing => "value zeroing",
            Counterfactual::MeanValue => "mean-value ablation",
        }
    }
}

/// Where the change is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The head's own output `o_i`.
    Head,
    /// The attention block's output `LN₁(x + attn)` at token `i`.
    Block,
}

impl Target {
    pub const ALL: [Target; 2] = [Target::Head, Target::Block];

    /// A label for cards and figures.
    pub fn name(self) -> &'static str {
        match self {
            Target::Head => "the head's output",
            Target::Block => "the attention block's output (residual + LayerNorm)",
        }
    }
}

/// The change `Δ_ij` of `o_i` when key `j` is removed, every pair stacked row
/// `i·n + j`.
///
/// # Shapes
/// `alpha: (n, n)`, `f: (n, d)` → `(n², d)`.
pub fn head_changes(cf: Counterfactual, alpha: &DMatrix<f64>, f: &DMatrix<f64>) -> DMatrix<f64> {
    let n = alpha.nrows();
    let o = alpha * f;
    let mean: DVector<f64> = f.row_sum().transpose() / n as f64;
    let mut out = DMatrix::zeros(n * n, f.ncols());
    for i in 0..n {
        for j in 0..n {
            let a = alpha[(i, j)];
            let fj = f.row(j);
            let d = match cf {
                // α/(1 − α) (o_i − f_j)
                Counterfactual::Knockout => (o.row(i) - fj) * (a / (1.0 - a)),
                // −α f_j
                Counterfactual::ValueZeroing => -fj * a,
                // α (f̄ − f_j)
                Counterfactual::MeanValue => (mean.transpose() - fj) * a,
            };
            out.row_mut(i * n + j).copy_from(&d);
        }
    }
    out
}

/// The effect `E_ij` of every pair at `target`, `(n, n)`; `u` is the attention
/// block's pre-LayerNorm sum `x + attn` (only read for [`Target::Block`]).
///
/// # Shapes
/// `changes: (n², d)` from [`head_changes`], `u: (n, d)` → `(n, n)`.
pub fn effects(
    target: Target,
    changes: &DMatrix<f64>,
    u: &DMatrix<f64>,
    ln: &LayerNorm,
) -> DMatrix<f64> {
    let n = u.nrows();
    match target {
        Target::Head => DMatrix::from_fn(n, n, |i, j| changes.row(i * n + j).norm()),
        Target::Block => {
            // rows i·n + j: u_i + Δ_ij
            let moved = DMatrix::from_fn(n * n, u.ncols(), |r, c| u[(r / n, c)] + changes[(r, c)]);
            let (after, before) = (ln.forward(&moved), ln.forward(u));
            DMatrix::from_fn(n, n, |i, j| (after.row(i * n + j) - before.row(i)).norm())
        }
    }
}
