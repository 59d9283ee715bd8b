//! Chapter 2's weight-versus-effect comparison under every choice a referee would
//! vary: the counterfactual that removes a key, the place its effect is measured,
//! and whether the head's sink is among the keys ranked. Written once for a
//! bidirectional and a causal head: a causal query ranks only the keys it sees.
//!
//! ```text
//! grid[target][counterfactual][keys] = (ρ(α, E), ρ(‖αf‖, E), ρ(α‖f_π‖, E))
//!   ρ(α‖f_π‖, E): the permuted-norm null, super::permuted
//! mohebbi[keys]: the same against Mohebbi et al. 2023's value zeroing (v_j zeroed in
//!   every head of the layer, cosine distance of the layer's output), super::super::
//!   pretrained::value_zeroing; E is the layer's, α and f the head's
//!   keys: every key, every key but the head's sink, every key but the model's special ones
//!   sink of a head on a sentence: argmax_j Σ_{i ∈ Q} α_ij, the key that receives most weight
//!   Q: the queries with a choice (more than one visible key; all of them in an encoder)
//!   ρ: Spearman over the visible keys of each query with at least three, mean over queries
//! Kobayashi et al. 2020, §4.2: ρ(α_ij, ‖f(x_j)‖) over keys, mean over queries
//! ```

use nalgebra::DMatrix;

use super::permuted::permuted_rho;
use crate::pretrained::counterfactual::{Counterfactual, Target};
use crate::pretrained::transformer::Mask;
use crate::stats::{argmax, mean, spearman};

/// The token a sink is, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Sink {
    Cls,
    Sep,
    Punctuation,
    Word,
}

impl Sink {
    pub const ALL: [Sink; 4] = [Sink::Cls, Sink::Sep, Sink::Punctuation, Sink::Word];

    /// The kind of `token`.
    pub fn of(token: &str) -> Sink {
        match token {
            "[CLS]" => Sink::Cls,
            "[SEP]" => Sink::Sep,
            t if t.chars().all(|c| c.is_ascii_punctuation()) => Sink::Punctuation,
            _ => Sink::Word,
        }
    }

    /// A label for prose and measures.
    pub fn name(self) -> &'static str {
        match self {
            Sink::Cls => "[CLS]",
            Sink::Sep => "[SEP]",
            Sink::Punctuation => "punctuation",
            Sink::Word => "a word",
        }
    }
}

/// Which keys a correlation ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    All,
    /// Every key but the one that receives most weight (found from the data).
    WithoutSink,
    /// Every key but those the model names as sinks ([`Transformer::special`]).
    ///
    /// [`Transformer::special`]: crate::pretrained::transformer::Transformer::special
    WithoutSpecial,
}

impl Keys {
    /// The key sets the encoder's grid reports.
    pub const ALL: [Keys; 2] = [Keys::All, Keys::WithoutSink];
    /// Every key set measured.
    pub const EVERY: [Keys; 3] = [Keys::All, Keys::WithoutSink, Keys::WithoutSpecial];

    pub fn name(self) -> &'static str {
        match self {
            Keys::All => "every key",
            Keys::WithoutSink => "every key but the head's sink",
            Keys::WithoutSpecial => "every key but the model's special ones",
        }
    }
}

/// `[target][counterfactual][keys]` → `[ρ(α, E), ρ(‖αf‖, E), ρ(α‖f_π‖, E)]`.
pub type Grid = [[[[f64; 3]; 3]; 3]; 2];

/// One head on one sentence under every choice.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sensitivity {
    pub grid: Grid,
    /// `[keys]` → the same three against the layer's value zeroing (Mohebbi et al.).
    pub mohebbi: [[f64; 3]; 3],
    /// The kind of the key that receives most weight.
    pub sink: Sink,
    /// The sink's share of the weight, `Σ_i α_i,sink / n`.
    pub sink_weight: f64,
    /// Its share of the carried norm, `Σ_i ‖α_i,sink f_sink‖ / Σ_ij ‖α_ij f_j‖`.
    pub sink_norm: f64,
    /// ρ(α_ij, ‖f(x_j)‖) over keys, mean over queries (Kobayashi et al. §4.2).
    pub rho_weight_fnorm: f64,
}

impl Sensitivity {
    /// The cell of one choice, `[ρ(α, E), ρ(‖αf‖, E)]`.
    pub fn rho(&self, target: Target, cf: Counterfactual, keys: Keys) -> [f64; 2] {
        let [w, n, _] = self.cell(Effect::Head(target, cf), keys);
        [w, n]
    }

    /// The cell of one choice, `[ρ(α, E), ρ(‖αf‖, E), ρ(α‖f_π‖, E)]`.
    pub fn cell(&self, effect: Effect, keys: Keys) -> [f64; 3] {
        let k = Keys::EVERY.iter().position(|&x| x == keys).unwrap_or(0);
        match effect {
            Effect::Head(target, cf) => {
                let t = Target::ALL.iter().position(|&x| x == target).unwrap_or(0);
                let c = Counterfactual::ALL
                    .iter()
                    .position(|&x| x == cf)
                    .unwrap_or(0);
                self.grid[t][c][k]
            }
            Effect::Layer => self.mohebbi[k],
        }
    }
}

/// What defines a key's effect `E`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// One head's counterfactual, read at `target`.
    Head(Target, Counterfactual),
    /// `v_j` zeroed in every head of the layer, the cosine distance of the
    /// layer's output (Mohebbi et al. 2023).
    Layer,
}

impl Effect {
    /// The counterfactual, as choices name it.
    pub fn counterfactual(self) -> &'static str {
        match self {
            Effect::Head(_, cf) => cf.name(),
            Effect::Layer => "value zeroing in every head of the layer (Mohebbi et al. 2023)",
        }
    }

    /// The target, as choices name it.
    pub fn target(self) -> &'static str {
        match self {
            Effect::Head(t, _) => t.name(),
            Effect::Layer => "the layer's output (after the FFN and LayerNorm), cosine distance",
        }
    }
}

/// Keys query `i` sees under `mask`, of `n`.
pub fn visible(mask: Mask, n: usize, i: usize) -> usize {
    match mask {
        Mask::Causal => i + 1,
        Mask::Bidirectional => n,
    }
}

/// Spearman over `keys` of rows of `a` and `b`, mean over rows (NaN rows skipped).
pub fn row_rho(a: &DMatrix<f64>, b: &DMatrix<f64>, keys: &[usize]) -> f64 {
    row_rho_under(Mask::Bidirectional, a, b, keys)
}

/// [`row_rho`] under `mask`: each row ranks the keys of `keys` it sees, and
/// only rows that see at least three keys count.
pub fn row_rho_under(mask: Mask, a: &DMatrix<f64>, b: &DMatrix<f64>, keys: &[usize]) -> f64 {
    let n = a.ncols();
    let rows: Vec<f64> = (0..a.nrows())
        .filter(|&i| visible(mask, n, i) >= 3)
        .map(|i| {
            let seen = visible(mask, n, i);
            let r = |m: &DMatrix<f64>| {
                keys.iter()
                    .filter(|&&j| j < seen)
                    .map(|&j| m[(i, j)])
                    .collect::<Vec<_>>()
            };
            spearman(&r(a), &r(b))
        })
        .filter(|x| x.is_finite())
        .collect();
    mean(&rows)
}

/// One head's weights and what its keys carry, with what the block reads.
///
/// # Shapes
/// `alpha: (n, n)`, `f, u: (n, d)` (`u = x + attn`), `special: n`.
pub struct Head<'a> {
    pub alpha: &'a DMatrix<f64>,
    /// `f(x_j) = v_j W_O,h`.
    pub f: &'a DMatrix<f64>,
    /// The stream after attention.
    pub u: &'a DMatrix<f64>,
    /// What the FFN reads from `u`, row by row.
    pub norm: &'a dyn Fn(&DMatrix<f64>) -> DMatrix<f64>,
    pub tokens: &'a [String],
    /// The keys the model names as sinks.
    pub special: &'a [bool],
    pub mask: Mask,
    /// The layer's value-zeroing effect `(n, n)` ([`crate::pretrained::value_zeroing`]).
    pub layer: &'a DMatrix<f64>,
    /// Seeds the permuted-norm null.
    pub seed: u64,
}

impl Head<'_> {
    /// The queries with a choice: more than one visible key.
    pub fn queries(&self) -> Vec<usize> {
        let n = self.alpha.nrows();
        (0..n).filter(|&i| visible(self.mask, n, i) > 1).collect()
    }
}

/// Every choice for one head.
pub fn measure(head: &Head) -> Sensitivity {
    let (alpha, f, mask) = (head.alpha, head.f, head.mask);
    let n = alpha.nrows();
    // ‖α_ij f_j‖, (n, n)
    let norms = DMatrix::from_fn(n, n, |i, j| alpha[(i, j)] * f.row(j).norm());
    let queries = head.queries();
    let received = |m: &DMatrix<f64>, j: usize| queries.iter().map(|&i| m[(i, j)]).sum::<f64>();
    let sink = argmax(0..n, |j| received(alpha, j)).expect("a sentence has tokens");
    let all: Vec<usize> = (0..n).collect();
    let rest: Vec<usize> = (0..n).filter(|&j| j != sink).collect();
    let plain: Vec<usize> = (0..n).filter(|&j| !head.special[j]).collect();
    let fnorm: Vec<f64> = (0..n).map(|j| f.row(j).norm()).collect();
    // [counterfactual][target], then the layer's: E in the order of the null's list
    let each = Counterfactual::ALL.map(|cf| pair_effects(cf, head));
    let effects: Vec<&DMatrix<f64>> = each.iter().flatten().chain([head.layer]).collect();
    let mut grid = [[[[0.0; 3]; 3]; 3]; 2];
    let mut mohebbi = [[0.0; 3]; 3];
    for (k, keys) in [&all, &rest, &plain].into_iter().enumerate() {
        let null = permuted_rho(mask, alpha, &fnorm, keys, &effects, head.seed);
        let cell = |e: usize| {
            [
                row_rho_under(mask, alpha, effects[e], keys),
                row_rho_under(mask, &norms, effects[e], keys),
                null[e],
            ]
        };
        for (t, by_cf) in grid.iter_mut().enumerate() {
            for (c, by_keys) in by_cf.iter_mut().enumerate() {
                by_keys[k] = cell(c * 2 + t);
            }
        }
        mohebbi[k] = cell(6);
    }
    let fnorm = DMatrix::from_fn(n, n, |_, j| fnorm[j]);
    let total: f64 = queries.iter().map(|&i| norms.row(i).sum()).sum();
    Sensitivity {
        grid,
        mohebbi,
        sink: Sink::of(&head.tokens[sink]),
        sink_weight: received(alpha, sink) / queries.len() as f64,
        sink_norm: received(&norms, sink) / total,
        rho_weight_fnorm: row_rho_under(mask, alpha, &fnorm, &all),
    }
}

/// The effect `E_ij` of removing key `j` from query `i` under `cf`, at the
/// head's output and at what the block's FFN reads, for every visible pair
/// (zero where masked): [`crate::pretrained::counterfactual::head_changes`] and
/// [`crate::pretrained::counterfactual::effects`] fused, column by column over
/// the visible pairs only, with the model's own norm. A causal query's
/// mean-value ablation replaces `f_j` by the mean over the keys it sees (the
/// mean over every token would hand it keys the mask hides).
///
/// ```text
/// Δ_ij   α/(1 − α) (o_i − f_j) | −α f_j | α (f̄_i − f_j)      f̄_i: mean over the keys i sees
/// E_ij   ‖Δ_ij‖  and  ‖N(u_i + Δ_ij) − N(u_i)‖
/// ```
///
/// # Shapes
/// `head.alpha: (n, n)`, `head.f, head.u: (n, d)` → `[(n, n); 2]`, `[head, block]`.
pub fn pair_effects(cf: Counterfactual, head: &Head) -> [DMatrix<f64>; 2] {
    let (alpha, f, u) = (head.alpha, head.f, head.u);
    let (n, d) = (alpha.nrows(), f.ncols());
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..visible(head.mask, n, i)).map(move |j| (i, j)))
        .collect();
    let o = alpha * f;
    // f̄_i, (n, d): every key's mean, or the mean of the prefix i sees
    let mean = match head.mask {
        Mask::Bidirectional => {
            let m = f.row_sum() / n as f64;
            DMatrix::from_fn(n, d, |_, c| m[c])
        }
        Mask::Causal => {
            let mut m = DMatrix::zeros(n, d);
            for c in 0..d {
                let mut sum = 0.0;
                for i in 0..n {
                    sum += f[(i, c)];
                    m[(i, c)] = sum / (i + 1) as f64;
                }
            }
            m
        }
    };
    // Δ and u + Δ, (pairs, d), filled column by column
    let mut delta = DMatrix::zeros(pairs.len(), d);
    let mut moved = DMatrix::zeros(pairs.len(), d);
    for c in 0..d {
        for (p, &(i, j)) in pairs.iter().enumerate() {
            let a = alpha[(i, j)];
            let x = match cf {
                Counterfactual::Knockout => (o[(i, c)] - f[(j, c)]) * (a / (1.0 - a)),
                Counterfactual::ValueZeroing => -f[(j, c)] * a,
                Counterfactual::MeanValue => (mean[(i, c)] - f[(j, c)]) * a,
            };
            delta[(p, c)] = x;
            moved[(p, c)] = u[(i, c)] + x;
        }
    }
    let (after, before) = ((head.norm)(&moved), (head.norm)(u));
    let (mut head_sq, mut block_sq) = (vec![0.0; pairs.len()], vec![0.0; pairs.len()]);
    for c in 0..d {
        for (p, &(i, _)) in pairs.iter().enumerate() {
            head_sq[p] += delta[(p, c)] * delta[(p, c)];
            let y = after[(p, c)] - before[(i, c)];
            block_sq[p] += y * y;
        }
    }
    let mut e = [DMatrix::zeros(n, n), DMatrix::zeros(n, n)];
    for (p, &(i, j)) in pairs.iter().enumerate() {
        e[0][(i, j)] = head_sq[p].sqrt();
        e[1][(i, j)] = block_sq[p].sqrt();
    }
    e
}
