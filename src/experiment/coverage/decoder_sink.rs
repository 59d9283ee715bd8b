//! Chapter 2's sink question asked of a causal decoder (SmolLM2-135M-Instruct)
//! against the same architecture at Llama's initialisation: how much weight
//! the first token takes (Xiao et al. 2023), how much it carries, and whether
//! the weight or the carried norm ranks the effect of removing a key.
//!
//! ```text
//! f_j = v_j W_O,h             W_O,h = rows 64h..64h+64 of w_o (in, out)     (n, 576)
//! weight on token 0           mean_{i ≥ 1} α_i0
//! its carried-norm share      Σ_{i≥1} ‖α_i0 f_0‖ / Σ_{i≥1} Σ_{j≤i} ‖α_ij f_j‖
//! knockout, renormalised      Δ_ij = α_ij / (1 − α_ij) · (o_i − f_j)
//! value zeroing               Δ_ij = −α_ij f_j
//! target: head                E_ij = ‖Δ_ij‖
//! target: block               E_ij = ‖rms(u_i + Δ_ij) ⊙ g − rms(u_i) ⊙ g‖,
//!                             u = x + Σ_h o_h (the stream the FFN's norm reads)
//! ρ                           Spearman over the visible keys j ≤ i, rows with ≥ 3 of them
//! ```
//!
//! Query 0 of a causal model sees only itself: α_00 = 1 by the mask, so it
//! is left out of every mean, and knocking out its only key is undefined.
//! Rows with one or two visible keys give no ranking, so ρ starts at query 2.
//!
//! Introduced in chapter 2.

use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};

use crate::experiment::cache;
use crate::experiment::relations::trained::pairs;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::counterfactual::{Counterfactual, Target};
use crate::pretrained::transformer::{Architecture, Mask};
use crate::stats::{Summary, mean, spearman};

/// Which sentences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The first context sentences (every pair's A, then every B).
    pub sentences: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup { sentences: 8 };

/// What sits at position 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum First {
    /// The sentence's own first token.
    Own,
    /// A newline token `Ċ` prepended (Xiao et al.'s content-free start).
    Newline,
}

impl First {
    pub const ALL: [First; 2] = [First::Own, First::Newline];

    pub fn name(self) -> &'static str {
        match self {
            First::Own => "the sentence's own first token",
            First::Newline => "a newline token (Ċ) prepended",
        }
    }
}

/// The counterfactuals defined for a causal head (mean-value ablation is left out).
pub const COUNTERFACTUALS: [Counterfactual; 2] =
    [Counterfactual::Knockout, Counterfactual::ValueZeroing];

/// Which keys a correlation ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    All,
    /// Every visible key but token 0.
    WithoutFirst,
}

impl Keys {
    pub const ALL: [Keys; 2] = [Keys::All, Keys::WithoutFirst];

    pub fn name(self) -> &'static str {
        match self {
            Keys::All => "every visible key",
            Keys::WithoutFirst => "every visible key but the first token",
        }
    }
}

/// One head on one sentence.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeadSink {
    pub layer: usize,
    /// Mean over queries (with more than one visible key) of the weight on token 0.
    pub weight: f64,
    /// Token 0's share of the carried norm over the same queries.
    pub norm: f64,
    /// `[target][counterfactual][keys]` → `[ρ(α, E), ρ(‖αf‖, E)]`.
    pub grid: [[[[f64; 2]; 2]; 2]; 2],
}

impl HeadSink {
    /// The cell of one choice.
    pub fn rho(&self, target: Target, cf: Counterfactual, keys: Keys) -> [f64; 2] {
        let t = usize::from(target == Target::Block);
        let c = usize::from(cf == Counterfactual::ValueZeroing);
        let k = usize::from(keys == Keys::WithoutFirst);
        self.grid[t][c][k]
    }
}

/// Keys row `i` sees under `mask`, `n` tokens.
fn visible(mask: Mask, n: usize, i: usize) -> usize {
    match mask {
        Mask::Causal => i + 1,
        Mask::Bidirectional => n,
    }
}

/// Weight, carried norm and effect ranking of one head, from plain matrices
/// either model feeds: weights `alpha (n, n)`, carried vectors `f (n, d)`, the
/// stream after attention `u (n, d)` and the gain `g (d)` of the norm that reads it.
pub fn head_sink(
    layer: usize,
    alpha: &DMatrix<f64>,
    f: &DMatrix<f64>,
    u: &DMatrix<f64>,
    g: &DVector<f64>,
    mask: Mask,
) -> HeadSink {
    let n = alpha.nrows();
    // ‖α_ij f_j‖, (n, n); zero where masked
    let norms = crate::attribution::carried_norms(alpha, f);
    let queries: Vec<usize> = (0..n).filter(|&i| visible(mask, n, i) > 1).collect();
    let weight = mean(&queries.iter().map(|&i| alpha[(i, 0)]).collect::<Vec<_>>());
    let on_first: f64 = queries.iter().map(|&i| norms[(i, 0)]).sum();
    let total: f64 = queries.iter().map(|&i| norms.row(i).sum()).sum();
    let mut grid = [[[[f64::NAN; 2]; 2]; 2]; 2];
    for (c, &cf) in COUNTERFACTUALS.iter().enumerate() {
        let e = effects(cf, alpha, f, u, g, mask);
        for (t, e) in e.iter().enumerate() {
            for (k, skip) in [None, Some(0)].into_iter().enumerate() {
                let per_row: Vec<[f64; 2]> = (0..n)
                    .filter(|&i| visible(mask, n, i) >= 3)
                    .map(|i| {
                        let keys: Vec<usize> = (0..visible(mask, n, i))
                            .filter(|&j| Some(j) != skip)
                            .collect();
                        let pick =
                            |m: &DMatrix<f64>| keys.iter().map(|&j| m[(i, j)]).collect::<Vec<_>>();
                        [
                            spearman(&pick(alpha), &pick(e)),
                            spearman(&pick(&norms), &pick(e)),
                        ]
                    })
                    .collect();
                let avg = |x: usize| {
                    let v: Vec<f64> = per_row
                        .iter()
                        .map(|r| r[x])
                        .filter(|v| v.is_finite())
                        .collect();
                    mean(&v)
                };
                grid[t][c][k] = [avg(0), avg(1)];
            }
        }
    }
    HeadSink {
        layer,
        weight,
        norm: on_first / total,
        grid,
    }
}

/// The effect `E_ij` of removing key `j` from query `i` under `cf`, at the
/// head's output and at the normalised stream the next sublayer reads; zero
/// where masked and in rows with fewer than three visible keys.
///
/// # Shapes
/// `alpha: (n, n)`, `f, u: (n, d)`, `g: (d)` → two `(n, n)`.
pub fn effects(
    cf: Counterfactual,
    alpha: &DMatrix<f64>,
    f: &DMatrix<f64>,
    u: &DMatrix<f64>,
    g: &DVector<f64>,
    mask: Mask,
) -> [DMatrix<f64>; 2] {
    let n = alpha.nrows();
    // rows as contiguous slices: f_j, o_i = Σ_j α_ij f_j, u_i
    let rows = |m: &DMatrix<f64>| -> Vec<Vec<f64>> {
        m.row_iter().map(|r| r.iter().copied().collect()).collect()
    };
    let (fr, or, ur) = (rows(f), rows(&(alpha * f)), rows(u));
    let d = f.ncols() as f64;
    let scale =
        |x: &mut dyn Iterator<Item = f64>| (x.map(|v| v * v).sum::<f64>() / d + 1e-5).sqrt();
    // E[t][(i, j)]: the change of the head's output (t = 0) and of the
    // normalised stream the FFN reads (t = 1) when key j leaves query i
    let mut e = [DMatrix::zeros(n, n), DMatrix::zeros(n, n)];
    for i in (0..n).filter(|&i| visible(mask, n, i) >= 3) {
        let su = scale(&mut ur[i].iter().copied());
        for j in 0..visible(mask, n, i) {
            let a = alpha[(i, j)];
            // Δ_ij = α/(1 − α) (o_i − f_j) or −α f_j
            let delta: Vec<f64> = match cf {
                Counterfactual::Knockout => (0..fr[j].len())
                    .map(|k| a / (1.0 - a) * (or[i][k] - fr[j][k]))
                    .collect(),
                _ => fr[j].iter().map(|v| -a * v).collect(),
            };
            let moved: Vec<f64> = ur[i].iter().zip(&delta).map(|(x, y)| x + y).collect();
            let sm = scale(&mut moved.iter().copied());
            e[0][(i, j)] = delta.iter().map(|v| v * v).sum::<f64>().sqrt();
            e[1][(i, j)] = moved
                .iter()
                .zip(&ur[i])
                .zip(g.iter())
                .map(|((m, x), g)| (g * (m / sm - x / su)).powi(2))
                .sum::<f64>()
                .sqrt();
        }
    }
    e
}

/// Every head of the decoder with `model`'s weights on `text`, its start set by `first`.
pub fn sentence(model: Model, text: &str, first: First) -> Vec<HeadSink> {
    let m = model.smollm2();
    let arch = Architecture::Smollm2.with(model);
    let mut ids = arch.encode(text).unwrap_or_else(|e| panic!("{e}")).ids;
    if first == First::Newline {
        let nl = arch.encode("\n").unwrap_or_else(|e| panic!("{e}")).ids;
        assert_eq!(nl.len(), 1, "a newline is one token");
        ids.insert(0, nl[0]);
    }
    let trace = arch.run(&ids);
    let r = m.config.head_dim;
    let mut out = Vec::new();
    for (l, layer) in trace.layers.iter().enumerate() {
        let block = &m.weights.blocks[l];
        // f_h = v_{kv(h)} W_O,h, (n, 576) per head
        let fs: Vec<DMatrix<f64>> = (0..arch.heads())
            .map(|h| &layer.heads[h].v * block.w_o.rows(h * r, r).map(f64::from))
            .collect();
        let mut u = layer.input.clone();
        for (h, f) in fs.iter().enumerate() {
            u += &layer.heads[h].weights * f;
        }
        let g = block.ffn_norm.map(f64::from);
        for (h, f) in fs.iter().enumerate() {
            out.push(head_sink(
                l,
                &layer.heads[h].weights,
                f,
                &u,
                &g,
                arch.mask(),
            ));
        }
    }
    out
}

/// One model's heads, every sentence, each start.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Side {
    pub own: Vec<HeadSink>,
    pub newline: Vec<HeadSink>,
}

impl Side {
    pub fn run(model: Model, setup: Setup) -> Side {
        let p = pairs();
        let texts: Vec<&String> = p
            .iter()
            .map(|p| &p.a)
            .chain(p.iter().map(|p| &p.b))
            .collect();
        let per = crate::parallel::map(0..2 * setup.sentences as u64, |k| {
            let first = First::ALL[(k % 2) as usize];
            sentence(model, texts[(k / 2) as usize], first)
        });
        let pick = |r: u64| {
            per.iter()
                .skip(r as usize)
                .step_by(2)
                .flatten()
                .copied()
                .collect()
        };
        Side {
            own: pick(0),
            newline: pick(1),
        }
    }

    /// The heads with `first` at position 0.
    pub fn heads(&self, first: First) -> &[HeadSink] {
        match first {
            First::Own => &self.own,
            First::Newline => &self.newline,
        }
    }

    /// Summary of `g` over heads and sentences of layers in `layers`.
    pub fn summary(
        &self,
        first: First,
        layers: std::ops::Range<usize>,
        g: impl Fn(&HeadSink) -> f64,
    ) -> Summary {
        let xs: Vec<f64> = self
            .heads(first)
            .iter()
            .filter(|s| layers.contains(&s.layer))
            .map(g)
            .collect();
        Summary::of(&xs)
    }
}

/// The decoder's sinks, trained and random.
pub type Findings = ByModel<Side>;

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| {
        cache::load_or_run(module_path!(), &BOOK, || {
            ByModel::run(|model| Side::run(model, BOOK))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_zero_is_left_out_and_value_zeroing_on_the_head_is_the_norm() {
        let alpha = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.2, 0.3, 0.5]);
        let f = DMatrix::from_row_slice(3, 2, &[1.0, 0.0, 0.0, 2.0, 1.0, 1.0]);
        let u = DMatrix::from_element(3, 2, 1.0);
        let g = DVector::from_element(2, 1.0);
        let s = head_sink(0, &alpha, &f, &u, &g, Mask::Causal);
        assert!((s.weight - 0.35).abs() < 1e-12);
        let vz = s.rho(Target::Head, Counterfactual::ValueZeroing, Keys::All);
        assert!((vz[1] - 1.0).abs() < 1e-12);
        let ko =
            crate::pretrained::counterfactual::head_changes(Counterfactual::Knockout, &alpha, &f);
        let e = effects(Counterfactual::Knockout, &alpha, &f, &u, &g, Mask::Causal);
        for j in 0..3 {
            assert!((e[0][(2, j)] - ko.row(6 + j).norm()).abs() < 1e-12);
        }
    }

    #[test]
    fn thirty_layers_of_nine_heads_per_sentence() {
        let f = book();
        assert_eq!(f.trained.own.len(), 270 * BOOK.sentences);
        assert!(
            f.random
                .newline
                .iter()
                .all(|s| (0.0..=1.0).contains(&s.weight))
        );
    }
}
