//! What a token does to a later state: a clean run, mean ablation of one
//! position, the leave-one-out effect at every layer, and its first-order
//! (Jacobian) estimate.

use nalgebra::DMatrix;

use crate::pretrained::intervention::{Parts, layer_parts, run_parts};
use crate::pretrained::jacobian;
use crate::pretrained::minilm::forward::{embed, run_from};
use crate::pretrained::minilm::{HEADS, LAYERS, Weights};
use crate::stats::{mean, spearman};

/// A clean run: states `h_0 … h_6` and each layer's head-mean attention.
#[derive(Clone, Debug)]
pub struct Clean {
    /// `h_l (n, 384)`, `l = 0 … 6`; `h_0` is the embeddings' output.
    pub states: Vec<DMatrix<f64>>,
    /// Layer `l`'s attention, every head: `heads[l][h] (n, n)`.
    pub heads: Vec<Vec<DMatrix<f64>>>,
}

impl Clean {
    /// Run `w` on `ids`.
    pub fn run(w: &Weights, ids: &[u32]) -> Clean {
        let t = run_from(w, 0, embed(w, ids), &[]);
        let mut states: Vec<DMatrix<f64>> = t.layers.iter().map(|l| l.input.clone()).collect();
        states.push(t.output);
        let heads = t
            .layers
            .into_iter()
            .map(|l| l.heads.into_iter().map(|h| h.weights).collect())
            .collect();
        Clean { states, heads }
    }

    /// Layer `l`'s attention averaged over heads, `(n, n)`.
    pub fn mean_attention(&self, l: usize) -> DMatrix<f64> {
        let sum = self.heads[l]
            .iter()
            .skip(1)
            .fold(self.heads[l][0].clone(), |s, a| s + a);
        sum / HEADS as f64
    }
}

/// `x` with row `j` replaced by the mean row (mean ablation of token `j`).
/// Introduced in chapter 4.
///
/// ```
/// use attention_geometry::experiment::relations::trained::mean_ablate;
/// use nalgebra::dmatrix;
/// let y = mean_ablate(&dmatrix![1.0, 2.0; 3.0, 6.0], 0);
/// assert_eq!(y, dmatrix![2.0, 4.0; 3.0, 6.0]);
/// ```
pub fn mean_ablate(x: &DMatrix<f64>, j: usize) -> DMatrix<f64> {
    let mut y = x.clone();
    y.set_row(j, &x.row_mean());
    y
}

/// `e` with each row divided by its sum: an arrow of FinStoch for `e ≥ 0`.
///
/// ```
/// use attention_geometry::experiment::relations::trained::row_normalise;
/// use attention_geometry::relation::is_stochastic;
/// use nalgebra::dmatrix;
/// let p = row_normalise(&dmatrix![1.0, 3.0; 2.0, 2.0]);
/// assert!(is_stochastic(&p, 1e-12) && (p[(0, 1)] - 0.75).abs() < 1e-12);
/// ```
pub fn row_normalise(e: &DMatrix<f64>) -> DMatrix<f64> {
    let mut p = e.clone();
    for mut r in p.row_iter_mut() {
        let s = r.sum();
        r /= s;
    }
    p
}

/// `n` copies of `x` stacked, copy `j` with token `j` mean-ablated: `(n·n, 384)`.
pub fn ablations(x: &DMatrix<f64>) -> DMatrix<f64> {
    let n = x.nrows();
    let mut stack = DMatrix::zeros(n * n, x.ncols());
    for j in 0..n {
        stack.rows_mut(j * n, n).copy_from(&mean_ablate(x, j));
    }
    stack
}

/// Column `j` of the effect: `‖clean_i − copy j of stacked_i‖` for every row `i`.
fn effect(clean: &DMatrix<f64>, stacked: &DMatrix<f64>) -> DMatrix<f64> {
    let n = clean.nrows();
    DMatrix::from_fn(n, n, |i, j| (clean.row(i) - stacked.row(j * n + i)).norm())
}

/// Leave-one-out effects of the input tokens: `effect[m − 1][(i, j)] =
/// ‖h_m(i) − h_m(i | h_0(j) ← mean)‖`, `m = 1 … 6`, diagonal included; the `n`
/// ablations run as one stack.
pub fn input_effects(w: &Weights, clean: &Clean) -> Vec<DMatrix<f64>> {
    effects_of(clean, &ablation_parts(w, clean))
}

/// The mean-ablation stack of [`ablations`] run through every layer.
pub fn ablation_parts(w: &Weights, clean: &Clean) -> Vec<Parts> {
    let n = clean.states[0].nrows();
    run_parts(w, 0, ablations(&clean.states[0]), n, &vec![vec![]; n])
}

/// [`input_effects`] read off the ablation stack's layers.
pub fn effects_of(clean: &Clean, parts: &[Parts]) -> Vec<DMatrix<f64>> {
    parts
        .iter()
        .enumerate()
        .map(|(m, p)| effect(&clean.states[m + 1], &p.output))
        .collect()
}

/// The input effects of [`input_effects`] carried instead by the composite
/// linearisation at the clean states, `J_m ⋯ J_1 (h̄_0 − h_0(j))`:
/// `(effect[m − 1], relative error[m − 1])`, the error being
/// `‖δ_lin − δ_true‖ / ‖δ_true‖` over every row of every ablation; `parts`:
/// the mean-ablation stack run through every layer.
pub fn linearised_effects(w: &Weights, clean: &Clean, parts: &[Parts]) -> Vec<(DMatrix<f64>, f64)> {
    let x0 = &clean.states[0];
    let n = x0.nrows();
    // v: copy j is zero but for row j, h̄_0 − h_0(j)
    let mut v = ablations(x0);
    for j in 0..n {
        let mut copy = v.rows_mut(j * n, n);
        copy -= x0;
    }
    jacobian::composed(w, &clean.states, &v)
        .into_iter()
        .zip(parts)
        .enumerate()
        .map(|(m, (lin, p))| {
            let h = &clean.states[m + 1];
            let mut truth = p.output.clone();
            for j in 0..n {
                let mut copy = truth.rows_mut(j * n, n);
                copy -= h;
            }
            let e = DMatrix::from_fn(n, n, |i, j| lin.row(j * n + i).norm());
            (e, (&lin - &truth).norm() / truth.norm())
        })
        .collect()
}

/// One-layer effects: `step[l][(i, j)] = ‖h_{l+1}(i) − layer_l(h_l, j ← mean)(i)‖`.
pub fn layer_effects(w: &Weights, clean: &Clean) -> Vec<DMatrix<f64>> {
    (0..LAYERS)
        .map(|l| {
            let n = clean.states[l].nrows();
            let p = layer_parts(
                &w.layers[l],
                &ablations(&clean.states[l]),
                n,
                &vec![vec![]; n],
            );
            effect(&clean.states[l + 1], &p.output)
        })
        .collect()
}

/// Mean over query rows `i` (words, not `[CLS]`/`[SEP]`) of Spearman ρ
/// between row `i` of `a` and of `b` over keys `j ≠ i` (`sinks`: with the
/// specials among the keys).
pub fn row_agreement(a: &DMatrix<f64>, b: &DMatrix<f64>, sinks: bool) -> f64 {
    let n = a.nrows();
    let word = |j: usize| j != 0 && j != n - 1;
    let rhos: Vec<f64> = (0..n)
        .filter(|&i| word(i))
        .map(|i| {
            let keys: Vec<usize> = (0..n).filter(|&j| j != i && (sinks || word(j))).collect();
            let pick = |m: &DMatrix<f64>| keys.iter().map(|&j| m[(i, j)]).collect::<Vec<_>>();
            spearman(&pick(a), &pick(b))
        })
        .collect();
    mean(&rhos)
}
