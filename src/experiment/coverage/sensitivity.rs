//! Chapter 2's weight-versus-effect comparison under every choice a referee would
//! vary: the counterfactual that removes a key, the place its effect is measured,
//! and whether the head's sink is among the keys ranked. Written once for a
//! bidirectional and a causal head: a causal query ranks only the keys it sees.
//!
//! ```text
//! grid[target][counterfactual][keys] = (ρ(α, E), ρ(‖αf‖, E))
//!   keys: every key, every key but the head's sink, every key but the model's special ones
//!   sink of a head on a sentence: argmax_j Σ_{i ∈ Q} α_ij, the key that receives most weight
//!   Q: the queries with a choice (more than one visible key; all of them in an encoder)
//!   ρ: Spearman over the visible keys of each query with at least three, mean over queries
//! Kobayashi et al. 2020, §4.2: ρ(α_ij, ‖f(x_j)‖) over keys, mean over queries
//! ```

use nalgebra::DMatrix;

use crate::pretrained::counterfactual::{
    Counterfactual, Target, effects_normed, head_changes_masked,
};
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

/// `[target][counterfactual][keys]` → `[ρ(α, E), ρ(‖αf‖, E)]`.
pub type Grid = [[[[f64; 2]; 3]; 3]; 2];

/// One head on one sentence under every choice.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sensitivity {
    pub grid: Grid,
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
    /// The cell of one choice.
    pub fn rho(&self, target: Target, cf: Counterfactual, keys: Keys) -> [f64; 2] {
        let t = Target::ALL.iter().position(|&x| x == target).unwrap_or(0);
        let c = Counterfactual::ALL
            .iter()
            .position(|&x| x == cf)
            .unwrap_or(0);
        let k = Keys::EVERY.iter().position(|&x| x == keys).unwrap_or(0);
        self.grid[t][c][k]
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
}

impl Head<'_> {
    /// The queries with a choice: more than one visible key.
    pub fn queries(&self) -> Vec<usize> {
        let n = self.alpha.nrows();
        (0..n)
            .filter(|&i| visible(self.mask, n, i) > 1)
            .collect()
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
    let mut grid = [[[[0.0; 2]; 3]; 3]; 2];
    for (c, &cf) in Counterfactual::ALL.iter().enumerate() {
        let changes = head_changes_masked(cf, alpha, f, mask);
        for (t, &target) in Target::ALL.iter().enumerate() {
            let e = effects_normed(target, &changes, head.u, head.norm);
            for (k, keys) in [&all, &rest, &plain].into_iter().enumerate() {
                grid[t][c][k] = [
                    row_rho_under(mask, alpha, &e, keys),
                    row_rho_under(mask, &norms, &e, keys),
                ];
            }
        }
    }
    let fnorm = DMatrix::from_fn(n, n, |_, j| f.row(j).norm());
    let total: f64 = queries.iter().map(|&i| norms.row(i).sum()).sum();
    Sensitivity {
        grid,
        sink: Sink::of(&head.tokens[sink]),
        sink_weight: received(alpha, sink) / queries.len() as f64,
        sink_norm: received(&norms, sink) / total,
        rho_weight_fnorm: row_rho_under(mask, alpha, &fnorm, &all),
    }
}
