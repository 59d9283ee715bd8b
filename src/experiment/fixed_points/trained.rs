//! Chapter 5 on the trained encoder and its random-weight twin: the residual
//! stream across depth, and one layer (and the stack, looped) iterated on a real
//! hidden state with and without its residual paths. How much of a damage later
//! layers absorb is chapter 3's measurement
//! ([`crate::experiment::multi_head::repair`]), read here.
//! Introduced in chapter 5.

mod verdict;

pub use verdict::{claims, measures};

use std::sync::OnceLock;

use crate::experiment::cache;

use nalgebra::DMatrix;

use crate::experiment::relations::trained::{Clean, sentences};
use crate::fixed_point::{collapse, residual};
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::intervention::layer_parts;
use crate::pretrained::minilm::{D_K, LAYERS, Layer, gelu};
use crate::stats::Summary;

/// How many sentences and steps each experiment uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Sentences (the context pairs' A then B) behind the residual stream.
    pub stream_sentences: usize,
    /// Sentences on which layers are iterated.
    pub iterate_sentences: usize,
    /// Applications of one layer.
    pub steps: usize,
    /// Passes of the whole stack, looped.
    pub loops: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    stream_sentences: 20,
    iterate_sentences: 2,
    steps: 8,
    loops: 5,
};

/// Which skip connections a block keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paths {
    /// `a = LN₁(x + attn)`, `out = LN₂(a + FFN(a))`: the model as trained.
    Residual,
    /// `a = LN₁(attn)`, `out = LN₂(FFN(a))`: both skips removed.
    None,
}

/// The rest of a block from the attention sublayer's sum `u₁`:
/// `a = LN₁(u₁)`, `out = LN₂(FFN(a) + a)` (`Residual`) or `LN₂(FFN(a))` (`None`).
///
/// # Shapes
/// `u1: (n, 384)` → `(n, 384)`.
pub fn finish(layer: &Layer, u1: &DMatrix<f64>, paths: Paths) -> DMatrix<f64> {
    let mid = layer.attention_output.layer_norm.forward(u1);
    let ffn = layer
        .output
        .dense
        .forward(&layer.intermediate.forward(&mid).map(gelu));
    let u2 = match paths {
        Paths::Residual => ffn + mid,
        Paths::None => ffn,
    };
    layer.output.layer_norm.forward(&u2)
}

/// One application of `layer` to `x` with `paths`.
pub fn block(layer: &Layer, x: &DMatrix<f64>, paths: Paths) -> DMatrix<f64> {
    let p = layer_parts(layer, x, x.nrows(), &[vec![]]);
    match paths {
        Paths::Residual => p.output,
        Paths::None => finish(layer, &p.attn, Paths::None),
    }
}

/// A fixed-point iteration `Z_{k+1} = f(Z_k)` recorded step by step.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Iteration {
    /// `‖f(Z_k) − Z_k‖ / ‖Z_k‖`, `k = 0 … steps − 1`.
    pub residual: Vec<f64>,
    /// Distance from rank one (`fixed_point::collapse`), `k = 0 … steps`.
    pub collapse: Vec<f64>,
    /// `‖Z_steps − Z_0‖ / ‖Z_0‖`: how far the iteration moved from the real state.
    pub drift: f64,
}

/// Iterate `f` from `z0` for `steps` steps.
pub fn iterate(
    z0: &DMatrix<f64>,
    steps: usize,
    f: impl Fn(&DMatrix<f64>) -> DMatrix<f64>,
) -> Iteration {
    let mut z = z0.clone();
    let (mut res, mut col) = (vec![], vec![collapse(&z)]);
    for _ in 0..steps {
        let next = f(&z);
        res.push(residual(&next, &z));
        col.push(collapse(&next));
        z = next;
    }
    Iteration {
        residual: res,
        collapse: col,
        drift: (&z - z0).norm() / z0.norm(),
    }
}

/// Per token and layer `l = 0 … 5`: `‖h_{l+1} − h_l‖ / ‖h_l‖` and `cos(h_l, h_{l+1})`.
pub fn stream(clean: &Clean) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    stream_of(&clean.states, 0)
}

/// The same over any model's states `h_0, …, h_L` (one `(n, d)` matrix per
/// layer boundary), for tokens `from..n`: per layer `l = 0 … L − 1`,
/// `‖h_{l+1} − h_l‖ / ‖h_l‖` and `cos(h_l, h_{l+1})` of every token.
pub fn stream_of(s: &[DMatrix<f64>], from: usize) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let per = |f: &dyn Fn(usize, usize) -> f64| {
        (0..s.len() - 1)
            .map(|l| (from..s[l].nrows()).map(|i| f(l, i)).collect())
            .collect()
    };
    let update = per(&|l, i| (s[l + 1].row(i) - s[l].row(i)).norm() / s[l].row(i).norm());
    let cosine = per(&|l, i| {
        s[l + 1].row(i).dot(&s[l].row(i)) / (s[l + 1].row(i).norm() * s[l].row(i).norm())
    });
    (update, cosine)
}

/// Head `h`'s attention with `W_QK = W_qᵀ W_k` replaced by its symmetric part
/// (biases kept): `s' = s − ½ (q₀k₀ᵀ − k₀q₀ᵀ)/√32`, `q₀ = x W_qᵀ`, `k₀ = x W_kᵀ`.
pub fn symmetric_weights(layer: &Layer, x: &DMatrix<f64>, h: usize) -> DMatrix<f64> {
    let rows = |m: &DMatrix<f64>| m.rows(h * D_K, D_K).transpose();
    let (q0, k0) = (x * rows(&layer.query.weight), x * rows(&layer.key.weight));
    let (bq, bk) = (
        layer.query.bias.rows(h * D_K, D_K),
        layer.key.bias.rows(h * D_K, D_K),
    );
    let mut q = q0.clone();
    let mut k = k0.clone();
    for mut r in q.row_iter_mut() {
        r += bq.transpose();
    }
    for mut r in k.row_iter_mut() {
        r += bk.transpose();
    }
    let anti = (&q0 * k0.transpose() - &k0 * q0.transpose()) * 0.5;
    let s = (q * k.transpose() - anti) / (D_K as f64).sqrt();
    crate::attention::softmax_rows(&s)
}

/// One model's findings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    /// `update[l]`, `cosine[l]`: every token of every stream sentence, layer `l → l + 1`.
    pub update: Vec<Vec<f64>>,
    pub cosine: Vec<Vec<f64>>,
    /// `layer[paths][l][sentence]`: layer `l` iterated on its real input (`paths`: 0 residual, 1 none).
    pub layer: Vec<Vec<Vec<Iteration>>>,
    /// `stack[paths][sentence]`: the six layers looped from `h_0`.
    pub stack: Vec<Vec<Iteration>>,
}

/// The two skip settings, in the order of [`ModelFindings::layer`].
pub const PATHS: [Paths; 2] = [Paths::Residual, Paths::None];

impl ModelFindings {
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let w = model.weights();
        let all = sentences();
        let texts: Vec<&[u32]> = all
            .iter()
            .map(|p| &p.0.ids[..])
            .chain(all.iter().map(|p| &p.1.ids[..]))
            .collect();
        let cleans: Vec<Clean> = texts[..setup.stream_sentences]
            .iter()
            .map(|ids| Clean::run(w, ids))
            .collect();
        let (mut update, mut cosine) = (vec![vec![]; LAYERS], vec![vec![]; LAYERS]);
        for c in &cleans {
            let (u, k) = stream(c);
            for l in 0..LAYERS {
                update[l].extend(&u[l]);
                cosine[l].extend(&k[l]);
            }
        }
        let it = &cleans[..setup.iterate_sentences];
        let layer = PATHS
            .iter()
            .map(|&p| {
                (0..LAYERS)
                    .map(|l| {
                        it.iter()
                            .map(|c| {
                                iterate(&c.states[l], setup.steps, |z| block(&w.layers[l], z, p))
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let stack = PATHS
            .iter()
            .map(|&p| {
                let pass = |z: &DMatrix<f64>| {
                    w.layers
                        .iter()
                        .fold(z.clone(), |z, layer| block(layer, &z, p))
                };
                it.iter()
                    .map(|c| iterate(&c.states[0], setup.loops, pass))
                    .collect()
            })
            .collect();
        ModelFindings {
            update,
            cosine,
            layer,
            stack,
        }
    }

    /// Summary of one series over the iterated sentences at step `k`.
    pub fn at(runs: &[Iteration], f: impl Fn(&Iteration) -> f64) -> Summary {
        Summary::of(&runs.iter().map(f).collect::<Vec<_>>())
    }
}

/// Chapter 5's trained-model findings, trained and random.
pub type Findings = ByModel<ModelFindings>;

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| {
        cache::load_or_run(module_path!(), &BOOK, || {
            ByModel::run(|model| ModelFindings::run(model, BOOK))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pretrained::minilm::forward::{embed, layer_forward};

    #[test]
    fn block_with_residual_paths_is_the_models_layer() {
        let w = Model::Trained.weights();
        let x = embed(w, &sentences()[0].0.ids);
        let (out, _) = layer_forward(&w.layers[0], 0, &x, &[]);
        assert!((block(&w.layers[0], &x, Paths::Residual) - out).abs().max() < 1e-12);
    }

    #[test]
    fn a_symmetric_head_has_symmetric_bilinear_scores() {
        // with x = I the bias-free scores are W_QK itself; its symmetric part is symmetric
        let w = Model::Trained.weights();
        let mut layer = w.layers[1].clone();
        layer.query.bias.fill(0.0);
        layer.key.bias.fill(0.0);
        let x = DMatrix::identity(6, crate::pretrained::minilm::D);
        let a = symmetric_weights(&layer, &x, 3);
        // softmax of a symmetric S: a_ij / a_ji = Z_j / Z_i, so a_ij a_jk a_ki = a_ik a_kj a_ji
        let cyc = |i: usize, j: usize, k: usize| a[(i, j)] * a[(j, k)] * a[(k, i)];
        assert!((cyc(0, 1, 2) / cyc(0, 2, 1) - 1.0).abs() < 1e-9);
    }
}
