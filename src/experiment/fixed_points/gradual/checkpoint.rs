//! What one checkpoint of an untied model measures: per head, how far its
//! scores are from the raw similarity of the tokens it compares, and how
//! much of the model's accuracy is owed to that mismatch — the accuracy
//! again with every `W_QK` swapped for a form without it.
//!
//! ```text
//! ρ_h     = Spearman over (query, context position) pairs of  z_q · z_j  and  z_q W_QK z_jᵀ   (z = the head's layer input)
//! share_h = ‖sym(W_QK)‖²_F / ‖W_QK‖²_F,        sym(W) = (W + Wᵀ)/2
//! swap    W_QK ← sym(W_QK)   or   W_QK ← (‖W_QK‖_F / √d) I      (every head at once)
//! owed    = accuracy − accuracy after the swap
//! ```
//! Introduced in chapter 5.

use nalgebra::DMatrix;

use crate::projection::{split_symmetric, symmetric_share};
use crate::stats::spearman;
use crate::train::{Example, Model, Qk, evaluate};

/// A form of `W_QK` without the coordinate mismatch, put in place of the learned one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Swap {
    /// The symmetric part `(W + Wᵀ)/2`: the tied form nearest to `W`.
    Symmetric,
    /// Raw similarity, `c I` with `c = ‖W‖_F / √d` (the same Frobenius size as `W`).
    Identity,
}

impl Swap {
    /// Both, in the book's order.
    pub const ALL: [Swap; 2] = [Swap::Symmetric, Swap::Identity];

    /// Lower-case name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Swap::Symmetric => "symmetric",
            Swap::Identity => "identity",
        }
    }

    /// The form put in place of `w_qk`, `(d, d)`.
    pub fn form(self, w_qk: &DMatrix<f64>) -> DMatrix<f64> {
        match self {
            Swap::Symmetric => split_symmetric(w_qk).0,
            Swap::Identity => {
                let d = w_qk.nrows();
                DMatrix::identity(d, d) * (w_qk.norm() / (d as f64).sqrt())
            }
        }
    }
}

/// The same model with every head's `W_QK` replaced by `swap`'s form
/// (`W_Q ← form`, `W_K ← I`, so that `W_Q W_Kᵀ = form`).
///
/// # Panics
/// If the model is not untied with `d_k = d`.
pub fn swapped(model: &Model, swap: Swap) -> Model {
    let c = model.config;
    assert!(
        c.qk == Qk::Untied && c.d_k == c.d,
        "gradual::swapped: needs untied heads of full width, got {:?} with d_k = {} and d = {}",
        c.qk,
        c.d_k,
        c.d
    );
    let mut m = model.clone();
    for l in 0..c.layers {
        for h in 0..c.heads {
            let form = swap.form(&model.w_qk(l, h));
            let p = &mut m.heads[l][h];
            p.w_q = form;
            p.w_k = DMatrix::identity(c.d, c.d);
        }
    }
    m
}

/// Per head (layer-major), Spearman ρ between the raw similarity `z_q · z_j`
/// of the query row and each context row of the head's layer input and the
/// head's score `z_q W_QK z_jᵀ`, pooled over `examples`.
///
/// # Panics
/// If `examples` is empty.
pub fn agreement(model: &Model, examples: &[Example]) -> Vec<f64> {
    assert!(!examples.is_empty(), "gradual::agreement: no examples");
    let xs: Vec<&DMatrix<f64>> = examples.iter().map(|e| &e.x).collect();
    let fwd = model.forward_batch(&xs);
    let t = fwd.t;
    let c = model.config;
    let mut out = Vec::with_capacity(c.layers * c.heads);
    for l in 0..c.layers {
        let z = &fwd.z[l];
        for h in 0..c.heads {
            let w = model.w_qk(l, h);
            let (mut raw, mut score) = (Vec::new(), Vec::new());
            for b in 0..examples.len() {
                let zq = z.row(b * t + t - 1);
                let zw = zq * &w;
                for j in 0..t - 1 {
                    let zj = z.row(b * t + j);
                    raw.push(zq.dot(&zj));
                    score.push(zw.dot(&zj));
                }
            }
            out.push(spearman(&raw, &score));
        }
    }
    out
}

/// What one checkpoint measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    pub step: usize,
    /// Test accuracy of the model as trained.
    pub accuracy: f64,
    /// [`agreement`] per head.
    pub rho: Vec<f64>,
    /// `symmetric_share(W_QK)` per head.
    pub share: Vec<f64>,
    /// Test accuracy after each [`Swap`], in [`Swap::ALL`] order.
    pub swapped: [f64; 2],
}

impl Checkpoint {
    /// Measure `model` at `step` on `examples`.
    pub fn of(step: usize, model: &Model, examples: &[Example]) -> Checkpoint {
        let c = model.config;
        let share = (0..c.layers)
            .flat_map(|l| (0..c.heads).map(move |h| (l, h)))
            .map(|(l, h)| symmetric_share(&model.w_qk(l, h)))
            .collect();
        Checkpoint {
            step,
            accuracy: evaluate(model, examples).1,
            rho: agreement(model, examples),
            share,
            swapped: Swap::ALL.map(|s| evaluate(&swapped(model, s), examples).1),
        }
    }

    /// Mean ρ over heads.
    pub fn mean_rho(&self) -> f64 {
        self.rho.iter().sum::<f64>() / self.rho.len() as f64
    }

    /// Mean symmetric share over heads.
    pub fn mean_share(&self) -> f64 {
        self.share.iter().sum::<f64>() / self.share.len() as f64
    }

    /// Accuracy owed to the mismatch: as trained minus after `swap`.
    pub fn owed(&self, swap: Swap) -> f64 {
        let k = Swap::ALL.iter().position(|&s| s == swap).expect("a swap");
        self.accuracy - self.swapped[k]
    }
}
