//! Two accounts of what a trained stack reads, and the intervention that
//! decides between them. For a write at position `j` (a value token) and a
//! query at `p`, in block `l`:
//!
//! ```text
//! similarity  |s q̂_p · k̂_j|                                   (softmax: its weight a_pj)
//! operator    |s q̂_pᵀ (Π_{t=j+1..p} A_t) β_j k̂_j|,  A_t = Diag(α_t)(I − β_t k̂_t k̂_tᵀ)
//!             (linear attention: A_t = I, β = 1, so the operator is the similarity; softmax: the same weight)
//! effect      ln p(y_p) − ln p'(y_p)   and   TV(p_p, p'_p)     p' after the value at j is replaced by an unused value
//! ```
//! The operator is [`crate::delta::effective_weights`]; softmax's weights
//! are [`crate::delta::softmax_attention`] with the values `V = I_T`.
//! Magnitudes, since a weight's sign is the readout's to choose. The short
//! convolution carries token `j` into the writes at `j .. j + W − 1`, so each
//! account is also summed over that window (`Σ_{t=j}^{j+W−1} |·_pt|`, the
//! default span), beside its value at `j` alone.

use nalgebra::DMatrix;
use rand::RngExt;

use crate::delta::{effective_weights, softmax_attention};
use crate::mixer::Mixer;
use crate::mixer::stack::{BlockPass, Stack};
use crate::random::seeded;
use crate::recall::{Sequence, Updates};
use crate::relation::total_variation;

/// What the write at `j` is to the key queried at `p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Role {
    /// The latest write of the queried key: the answer.
    Answer,
    /// An earlier write of the queried key, overwritten since.
    Stale,
    /// A write of another key.
    Other,
}

/// One (write, query) pair: both accounts per block and the measured effects.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pair {
    /// Which query of the run: `sequence · queries + i`.
    pub query: usize,
    pub role: Role,
    /// `[block][span]`: `|s q̂_p · k̂_t|` (softmax: `a_pt`) summed over the window, and at `t = j` alone.
    pub similarity: Vec<[f64; 2]>,
    /// `[block][span]`: the composed transition's weight `|W[p, t]|`, likewise.
    pub operator: Vec<[f64; 2]>,
    /// `ln p(y_p) − ln p'(y_p)`: how much the intervention lowers the answer.
    pub drop: f64,
    /// Total variation between the output distributions at `p` before and after.
    pub tv: f64,
}

/// `(similarity, operator)`, `[T, T]` each, of one block's mixer on one sequence.
pub fn weights(mixer: Mixer, pass: &BlockPass, kd: usize) -> (DMatrix<f64>, DMatrix<f64>) {
    let (q, k) = (&pass.mix.q, &pass.mix.k);
    let t = q.nrows();
    let scale = 1.0 / (kd as f64).sqrt();
    if mixer == Mixer::Softmax {
        let a = softmax_attention(q, k, &DMatrix::identity(t, t), scale);
        return (a.clone(), a);
    }
    let similarity = (q * k.transpose() * scale).lower_triangle();
    let operator = match &pass.mix.beta {
        Some(beta) => {
            let g = pass.decay(kd).unwrap_or_else(|| DMatrix::zeros(t, kd));
            effective_weights(q, k, &g, beta, scale)
        }
        None => similarity.clone(),
    };
    (similarity, operator)
}

/// Every (value write, query) pair of `seqs` under `model`: both accounts per
/// block and the effect of replacing the write's value by a value the
/// sequence does not use (drawn from `seed`).
pub fn pairs(model: &Stack, task: Updates, seqs: &[Sequence], seed: u64) -> Vec<Pair> {
    let (mixer, kd, width) = (model.config.mixer, model.config.k, model.config.conv);
    let mut rng = seeded(seed);
    let mut out = Vec::new();
    for (n, s) in seqs.iter().enumerate() {
        let pass = model.forward(s);
        let accounts: Vec<_> = pass.blocks.iter().map(|b| weights(mixer, b, kd)).collect();
        let unused: Vec<usize> = (task.vocab / 2..task.vocab)
            .filter(|v| !s.tokens.contains(v))
            .collect();
        for j in (1..2 * task.writes()).step_by(2) {
            let mut tokens = s.tokens.clone();
            tokens[j] = unused[rng.random_range(0..unused.len())];
            let after = model.forward(&Sequence {
                tokens,
                queries: s.queries.clone(),
            });
            for (i, &(p, y)) in s.queries.iter().enumerate() {
                let writes = task.writes_of(s, p);
                let role = match writes.iter().position(|&w| w == j) {
                    Some(w) if w + 1 == writes.len() => Role::Answer,
                    Some(_) => Role::Stale,
                    None => Role::Other,
                };
                out.push(Pair {
                    query: n * s.queries.len() + i,
                    role,
                    similarity: accounts
                        .iter()
                        .map(|(a, _)| spans(a, p, j, width))
                        .collect(),
                    operator: accounts
                        .iter()
                        .map(|(_, w)| spans(w, p, j, width))
                        .collect(),
                    drop: ln(pass.probs[(i, y)]) - ln(after.probs[(i, y)]),
                    tv: total_variation(&pass.probs.row(i), &after.probs.row(i)),
                });
            }
        }
    }
    out
}

/// `ln p`, floored at the smallest positive `f64`.
fn ln(p: f64) -> f64 {
    p.max(f64::MIN_POSITIVE).ln()
}

/// `[Σ_{t=j}^{min(j+W−1, p)} |m_pt|, |m_pj|]`: the window span and the own span.
fn spans(m: &DMatrix<f64>, p: usize, j: usize, width: usize) -> [f64; 2] {
    let window = (j..(j + width).min(p + 1)).map(|t| m[(p, t)].abs()).sum();
    [window, m[(p, j)].abs()]
}
