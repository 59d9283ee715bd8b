//! Chapter 2's three readings of one pass — the weight, the norm it carries,
//! the effect of removing the key — for every head of any [`Transformer`]:
//! written once, asked of the encoder and of the decoder.
//!
//! ```text
//! carried norm   ‖α_ij f(x_j)‖,  f(x_j) = v_j W_O,h                  (Kobayashi et al. 2020)
//! leave-one-out  ‖o_i − o_i^(−j)‖ = α_ij ‖f(x_j) − o_i‖ / (1 − α_ij),  o_i = Σ_j α_ij f(x_j)
//! ρ              Spearman over the keys j query i sees, mean over queries that see ≥ 3
//! special share  Σ_{i ∈ Q} Σ_{j special} α_ij / |Q|,   Q = queries with more than one key
//! ```
//!
//! Where the two models differ in kind the trait says so and this code asks:
//! the mask ([`Transformer::mask`]: a causal query ranks only its prefix, and
//! query 0, which sees only itself, has no choice and is left out), the
//! special keys ([`Transformer::special`]: `[CLS]`, `[SEP]`, punctuation; the
//! first token) and what the FFN reads after attention ([`Transformer::block_norm`]:
//! post-LN against pre-RMSNorm).
//!
//! Introduced in chapter 2.

use nalgebra::DMatrix;

use super::sensitivity::{self, Head, Sensitivity, row_rho_under};
use crate::attribution::carried_norms;
use crate::pretrained::corpus::Model;
use crate::pretrained::transformer::{Architecture, Transformer};
use crate::pretrained::value_zeroing::layer_effects;

/// What sits at position 0 of a decoder's sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Start {
    /// The sentence as the model tokenises it (`[CLS]` first in the encoder).
    Own,
    /// A newline token `Ċ` prepended (Xiao et al.'s content-free start).
    Newline,
}

impl Start {
    pub const ALL: [Start; 2] = [Start::Own, Start::Newline];

    pub fn name(self) -> &'static str {
        match self {
            Start::Own => "the sentence's own first token",
            Start::Newline => "a newline token (Ċ) prepended",
        }
    }
}

/// One head on one sentence.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeadStats {
    pub layer: usize,
    /// ρ(α, ‖αf‖), ρ(α, LOO), ρ(‖αf‖, LOO), every key.
    pub rho: [f64; 3],
    /// The same over keys that are not special.
    pub rho_plain: [f64; 3],
    /// Mean over queries with a choice of the weight on the special keys.
    pub special_weight: f64,
    /// Their share of the carried norm, `Σ_{i ∈ Q, j special} ‖α_ij f_j‖ / Σ_{i ∈ Q, j} ‖α_ij f_j‖`.
    pub special_norm: f64,
    /// Their share of the tokens.
    pub special_tokens: f64,
    /// The comparison under every counterfactual, target and key set.
    pub sensitivity: Sensitivity,
}

/// Weight, carried norm and effect of every head of `arch` with `model`'s
/// weights on one sentence, `tokens` as encoded (and prepended to) and
/// `trace` its clean pass.
pub fn head_stats(
    arch: Architecture,
    model: Model,
    tokens: &[String],
    trace: &crate::pretrained::trace::Trace,
) -> Vec<HeadStats> {
    let m = arch.with(model);
    let n = tokens.len();
    let mask = m.mask();
    let special = m.special(tokens);
    let all: Vec<usize> = (0..n).collect();
    let plain: Vec<usize> = (0..n).filter(|&j| !special[j]).collect();
    let specials: Vec<usize> = (0..n).filter(|&j| special[j]).collect();
    let mut out = Vec::new();
    for layer in &trace.layers {
        let l = layer.layer;
        // u = x + Σ_h α_h f_h + b_O, (n, d): what the block's norm reads
        let u = &layer.input + m.attention(layer);
        let norm = |x: &DMatrix<f64>| m.block_norm(l, x);
        // (α_h, f_h) of every head; v_j zeroed in all of them (Mohebbi et al.)
        let carried: Vec<_> = (layer.heads.iter().enumerate())
            .map(|(h, head)| (&head.weights, m.value_out(l, h, &head.v)))
            .collect();
        let zeroed = layer_effects(arch, model, l, &u, &carried);
        for (h, (a, f)) in carried.iter().enumerate() {
            let (a, f) = (*a, f.clone());
            // f(x_j) = v_j W_O,h, (n, d); o = α f
            let o = a * &f;
            let norms = carried_norms(a, &f);
            // ‖f_j − o_i‖², (n, n), summed column by column
            let mut gap = DMatrix::<f64>::zeros(n, n);
            for c in 0..f.ncols() {
                for j in 0..n {
                    for i in 0..n {
                        gap[(i, j)] += (f[(j, c)] - o[(i, c)]).powi(2);
                    }
                }
            }
            let loo = DMatrix::from_fn(n, n, |i, j| {
                a[(i, j)] * gap[(i, j)].sqrt() / (1.0 - a[(i, j)])
            });
            let rho = |keys: &[usize]| {
                [
                    row_rho_under(mask, a, &norms, keys),
                    row_rho_under(mask, a, &loo, keys),
                    row_rho_under(mask, &norms, &loo, keys),
                ]
            };
            let head = Head {
                alpha: a,
                f: &f,
                u: &u,
                norm: &norm,
                tokens,
                special: &special,
                mask,
                layer: &zeroed,
                seed: (l * 64 + h) as u64,
            };
            let queries = head.queries();
            // Σ_{j special} Σ_{i ∈ Q} m_ij
            let on = |m: &DMatrix<f64>| {
                specials
                    .iter()
                    .map(|&j| queries.iter().map(|&i| m[(i, j)]).sum::<f64>())
                    .sum::<f64>()
            };
            let total: f64 = queries.iter().map(|&i| norms.row(i).sum()).sum();
            out.push(HeadStats {
                layer: l,
                rho: rho(&all),
                rho_plain: rho(&plain),
                special_weight: on(a) / queries.len() as f64,
                special_norm: on(&norms) / total,
                special_tokens: specials.len() as f64 / n as f64,
                sensitivity: sensitivity::measure(&head),
            });
        }
    }
    out
}

/// `text` encoded by `m`, with a newline token first under [`Start::Newline`]:
/// the ids and the tokens.
///
/// # Panics
/// If `m` cannot encode `text`, or a newline is not one token.
pub fn encode(m: &dyn Transformer, text: &str, start: Start) -> (Vec<u32>, Vec<String>) {
    let e = m.encode(text).unwrap_or_else(|e| panic!("{e}"));
    let (mut ids, mut tokens) = (e.ids, e.tokens);
    if start == Start::Newline {
        let nl = m.encode("\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(nl.ids.len(), 1, "a newline is one token");
        ids.insert(0, nl.ids[0]);
        tokens.insert(0, nl.tokens[0].clone());
    }
    (ids, tokens)
}

/// Every head of `arch` with `model`'s weights on `text`, its start set by `start`.
pub fn sentence(arch: Architecture, model: Model, text: &str, start: Start) -> Vec<HeadStats> {
    let m = arch.with(model);
    let (ids, tokens) = encode(m, text, start);
    head_stats(arch, model, &tokens, &m.run(&ids))
}
