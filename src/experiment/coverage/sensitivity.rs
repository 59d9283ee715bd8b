//! Chapter 2's weight-versus-effect comparison under every choice a referee would
//! vary: the counterfactual that removes a key, the place its effect is measured,
//! and whether the head's sink is among the keys ranked.
//!
//! ```text
//! grid[target][counterfactual][keys] = (ρ(α, E), ρ(‖αf‖, E))
//!   keys: every key, or every key but the sink
//!   sink of a head on a sentence: argmax_j Σ_i α_ij, the key that receives most weight
//! Kobayashi et al. 2020, §4.2: ρ(α_ij, ‖f(x_j)‖) over keys, mean over queries
//! ```

use nalgebra::DMatrix;

use crate::pretrained::counterfactual::{Counterfactual, Target, effects, head_changes};
use crate::pretrained::minilm::weights::LayerNorm;
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
    WithoutSink,
}

impl Keys {
    pub const ALL: [Keys; 2] = [Keys::All, Keys::WithoutSink];

    pub fn name(self) -> &'static str {
        match self {
            Keys::All => "every key",
            Keys::WithoutSink => "every key but the head's sink",
        }
    }
}

/// `[target][counterfactual][keys]` → `[ρ(α, E), ρ(‖αf‖, E)]`.
pub type Grid = [[[[f64; 2]; 2]; 3]; 2];

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
        let k = Keys::ALL.iter().position(|&x| x == keys).unwrap_or(0);
        self.grid[t][c][k]
    }
}

/// Spearman over `keys` of rows of `a` and `b`, mean over rows (NaN rows skipped).
pub fn row_rho(a: &DMatrix<f64>, b: &DMatrix<f64>, keys: &[usize]) -> f64 {
    let rows: Vec<f64> = (0..a.nrows())
        .map(|i| {
            let r = |m: &DMatrix<f64>| keys.iter().map(|&j| m[(i, j)]).collect::<Vec<_>>();
            spearman(&r(a), &r(b))
        })
        .filter(|x| x.is_finite())
        .collect();
    mean(&rows)
}

/// Every choice for one head: weights `alpha (n, n)`, carried vectors `f (n, 384)`,
/// the block's pre-LayerNorm sum `u (n, 384)` and its LayerNorm, the tokens.
pub fn measure(
    alpha: &DMatrix<f64>,
    f: &DMatrix<f64>,
    u: &DMatrix<f64>,
    ln: &LayerNorm,
    tokens: &[String],
) -> Sensitivity {
    let n = alpha.nrows();
    // ‖α_ij f_j‖, (n, n)
    let norms = DMatrix::from_fn(n, n, |i, j| alpha[(i, j)] * f.row(j).norm());
    let sink = argmax(0..n, |j| alpha.column(j).sum()).expect("a sentence has tokens");
    let all: Vec<usize> = (0..n).collect();
    let rest: Vec<usize> = (0..n).filter(|&j| j != sink).collect();
    let mut grid = [[[[0.0; 2]; 2]; 3]; 2];
    for (c, &cf) in Counterfactual::ALL.iter().enumerate() {
        let changes = head_changes(cf, alpha, f);
        for (t, &target) in Target::ALL.iter().enumerate() {
            let e = effects(target, &changes, u, ln);
            for (k, keys) in [&all, &rest].into_iter().enumerate() {
                grid[t][c][k] = [row_rho(alpha, &e, keys), row_rho(&norms, &e, keys)];
            }
        }
    }
    let fnorm = DMatrix::from_fn(n, n, |_, j| f.row(j).norm());
    Sensitivity {
        grid,
        sink: Sink::of(&tokens[sink]),
        sink_weight: alpha.column(sink).sum() / n as f64,
        sink_norm: norms.column(sink).sum() / norms.sum(),
        rho_weight_fnorm: row_rho(alpha, &fnorm, &all),
    }
}
