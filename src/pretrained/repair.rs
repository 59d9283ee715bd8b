//! Direct against total effect of one change written into the residual stream of
//! MiniLM, with the direct path's LayerNorms frozen or recomputed: the one
//! measurement behind chapter 3's self-repair and chapter 5's absorption
//! (after McGrath et al. 2023, "The Hydra Effect", arXiv:2307.15771).
//!
//! ```text
//! change δ enters layer ℓ's attention sum   u₁ = x + attn + δ
//! total        Δ_tot = x⁶(every later sublayer recomputes) − x⁶
//! direct, LN°  Δ_dir = LN°₂⁵ LN°₁⁵ ⋯ LN°₂^ℓ LN°₁^ℓ δ         (scales frozen at the clean run)
//! direct, LN   h ← LN₂(LN₁(h + attn_clean) + ffn_clean) per layer, Δ_dir = h⁶ − x⁶
//!              (sublayer outputs frozen, every LayerNorm recomputed)
//! kept         κ = ⟨Δ_tot, Δ_dir⟩ / ‖Δ_dir‖²     κ < 1: later layers cancel part of δ
//! ```
//! Introduced in chapter 3; chapter 5 reads the same numbers.

use nalgebra::{DMatrix, DVector};

use super::intervention::{Parts, Stage, propagate, run_parts, value_out};
use super::minilm::{HEADS, LAYERS, Layer, Weights, gelu};

/// The three effects of one change, each on the last hidden states `(n, 384)`.
#[derive(Clone, Debug)]
pub struct Effects {
    pub total: DMatrix<f64>,
    /// Direct, LayerNorm scales frozen.
    pub frozen: DMatrix<f64>,
    /// Direct, LayerNorms recomputed.
    pub recomputed: DMatrix<f64>,
}

/// The rest of a block from its attention sum `u₁`: `LN₂(FFN(a) + a)`, `a = LN₁(u₁)`.
fn finish(layer: &Layer, u1: &DMatrix<f64>) -> DMatrix<f64> {
    let mid = layer.attention_output.layer_norm.forward(u1);
    let ffn = layer
        .output
        .dense
        .forward(&layer.intermediate.forward(&mid).map(gelu));
    layer.output.layer_norm.forward(&(ffn + mid))
}

/// `δ` entering layer `layer`'s attention sum carried to the last hidden states with
/// every later sublayer output at its clean value and every LayerNorm recomputed.
///
/// # Shapes
/// `delta: (n, 384)`, `clean`: all six layers of one variant → `(n, 384)`.
pub fn direct_recomputed(
    w: &Weights,
    clean: &[Parts],
    layer: usize,
    delta: &DMatrix<f64>,
) -> DMatrix<f64> {
    let mut h = &clean[layer].input + delta;
    for (l, p) in clean.iter().enumerate().skip(layer) {
        let ln = &w.layers[l];
        // h ← LN₂(LN₁(h + attn) + ffn)
        let mid = ln.attention_output.layer_norm.forward(&(h + &p.attn));
        h = ln.output.layer_norm.forward(&(mid + &p.ffn));
    }
    h - &clean[LAYERS - 1].output
}

/// Total and direct effects of each change in `deltas`, all entering layer `layer`'s
/// attention sum in the clean run `clean` (the totals from one stacked run).
///
/// # Shapes
/// Each delta `(n, 384)`; `clean`: all six layers of one variant.
///
/// # Panics
/// If `deltas` is empty.
pub fn effects(
    w: &Weights,
    clean: &[Parts],
    layer: usize,
    deltas: &[DMatrix<f64>],
) -> Vec<Effects> {
    assert!(!deltas.is_empty(), "effects: no change to measure");
    let (p, b) = (&clean[layer], deltas.len());
    let n = p.input.nrows();
    // b variants of u₁ stacked: (b·n, 384)
    let mut u1 = DMatrix::zeros(b * n, p.input.ncols());
    for (k, d) in deltas.iter().enumerate() {
        u1.rows_mut(k * n, n).copy_from(&(&p.input + &p.attn + d));
    }
    let out = finish(&w.layers[layer], &u1);
    let last = match run_parts(w, layer + 1, out.clone(), n, &vec![vec![]; b]).last() {
        Some(q) => q.output.clone(),
        None => out,
    };
    let clean_out = &clean[LAYERS - 1].output;
    deltas
        .iter()
        .enumerate()
        .map(|(k, d)| Effects {
            total: last.rows(k * n, n) - clean_out,
            frozen: propagate(w, clean, layer, Stage::Attention, d.clone()),
            recomputed: direct_recomputed(w, clean, layer, d),
        })
        .collect()
}

/// Head `h` of layer `layer`'s write `w_h = (α_h v_h) W_O,hᵀ` in a clean run, `(n, 384)`.
pub fn write(w: &Weights, clean: &[Parts], layer: usize, h: usize) -> DMatrix<f64> {
    let p = &clean[layer];
    &p.weights[0][h] * value_out(&w.layers[layer], &p.values[0][h], h)
}

/// Mean over every token of `runs` of each head's write, `[layer·12 + head]`, and of
/// each layer's whole attention output (bias included), `[layer]`: what mean
/// ablation puts in their place.
pub fn mean_writes(w: &Weights, runs: &[&[Parts]]) -> (Vec<DVector<f64>>, Vec<DVector<f64>>) {
    let d = w.layers[0].query.weight.ncols();
    let (mut heads, mut layers) = (
        vec![DVector::zeros(d); LAYERS * HEADS],
        vec![DVector::zeros(d); LAYERS],
    );
    let mut tokens = 0.0;
    for clean in runs {
        tokens += clean[0].input.nrows() as f64;
        for l in 0..LAYERS {
            layers[l] += clean[l].attn.row_sum().transpose();
            for h in 0..HEADS {
                heads[l * HEADS + h] += write(w, clean, l, h).row_sum().transpose();
            }
        }
    }
    for v in heads.iter_mut().chain(layers.iter_mut()) {
        *v /= tokens;
    }
    (heads, layers)
}

/// `κ = ⟨total, direct⟩ / ‖direct‖²`.
pub fn kept(total: &DMatrix<f64>, direct: &DMatrix<f64>) -> f64 {
    total.dot(direct) / direct.norm_squared()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pretrained::corpus::{Model, run};

    #[test]
    fn a_zero_change_has_no_effect_and_zero_ablation_matches_the_stacked_run() {
        let w = Model::Trained.weights();
        let run = &run(
            Model::Trained,
            "The quick brown fox jumps over the lazy dog.",
        );
        let n = run.n();
        let z = DMatrix::zeros(n, 384);
        let e = &effects(w, &run.clean, 2, &[z.clone(), -write(w, &run.clean, 2, 5)]);
        assert!(e[0].total.abs().max() < 1e-9 && e[0].recomputed.abs().max() < 1e-9);
        let ablated = run_parts(w, 0, run.clean[0].input.clone(), n, &[vec![(2, 5)]]);
        let t = &ablated[LAYERS - 1].output - &run.clean[LAYERS - 1].output;
        assert!((&e[1].total - t).abs().max() < 1e-9);
        // to first order the two direct paths agree
        assert!((&e[1].frozen - &e[1].recomputed).norm() < 0.5 * e[1].frozen.norm());
    }
}
