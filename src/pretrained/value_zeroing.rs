//! Value zeroing as Mohebbi et al. 2023 define it: key `j`'s value vector
//! zeroed in every head of a layer, its effect read at the layer's output.
//!
//! ```text
//! u      = x + Σ_h α_h f_h + b_O                 the stream after attention    (n, d)
//! u⁽ʲ⁾_i = u_i − Σ_h α_h,ij f_h,j                 v_j zeroed in every head (f_h,j = v_h,j W_O,h)
//! y      = LN₂(LN₁(u) + FFN(LN₁(u)))              the encoder's layer output (post-LN)
//!          u + FFN(rms(u) ⊙ g)                    the decoder's (pre-RMSNorm)
//! E_ij   = 1 − cos(y(u⁽ʲ⁾)_i, y(u)_i)             for every key j query i sees
//! ```
//!
//! Every part after attention acts row by row, so zeroing `v_j` changes row `i`
//! by exactly `−Σ_h α_h,ij f_h,j` before the FFN. Introduced in chapter 2.

use nalgebra::DMatrix;

use super::corpus::Model;
use super::smollm2::SmolLm2;
use super::smollm2::forward::{rms_norm, silu};
use super::smollm2::linear::project;
use super::transformer::{Architecture, Mask};

/// The decoder's block `l` after attention, `u + FFN(rms(u) ⊙ g)`, row by row.
///
/// ```text
/// FFN(z) = (silu(z W_gate) ⊙ z W_up) W_down
/// ```
///
/// # Shapes
/// `u: (n, 576)` → `(n, 576)`.
pub fn decoder_finish(m: &SmolLm2, l: usize, u: &DMatrix<f64>) -> DMatrix<f64> {
    let b = &m.weights.blocks[l];
    let x = u.map(|v| v as f32);
    let f = rms_norm(&x, &b.ffn_norm, m.config.rms_eps);
    let mut gate = project(&f, &b.w_gate);
    gate.zip_apply(&project(&f, &b.w_up), |g, u| *g = silu(*g) * u);
    (x + project(&gate, &b.w_down)).map(f64::from)
}

/// Layer `l`'s output from its stream after attention `u`, row by row.
///
/// # Shapes
/// `u: (n, d)` → `(n, d)`.
pub fn layer_output(arch: Architecture, model: Model, l: usize, u: &DMatrix<f64>) -> DMatrix<f64> {
    match arch {
        Architecture::Minilm => {
            super::minilm::forward::finish(&model.minilm().weights.layers[l], u, true)
        }
        Architecture::Smollm2 => decoder_finish(model.smollm2(), l, u),
    }
}

/// `E_ij`, the cosine distance of layer `l`'s output at query `i` when `v_j`
/// is zeroed in every head, `(n, n)` (zero where the mask hides `j`).
///
/// # Shapes
/// `u: (n, d)`; `heads`: each head's `(α_h, f_h)`, `(n, n)` and `(n, d)`.
pub fn layer_effects(
    arch: Architecture,
    model: Model,
    l: usize,
    u: &DMatrix<f64>,
    heads: &[(&DMatrix<f64>, DMatrix<f64>)],
) -> DMatrix<f64> {
    let (n, d) = (u.nrows(), u.ncols());
    let mask = arch.with(model).mask();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..seen(mask, n, i)).map(move |j| (i, j)))
        .collect();
    // u_i − Σ_h α_h,ij f_h,j, one row per visible pair
    let mut moved = DMatrix::zeros(pairs.len(), d);
    for (p, &(i, j)) in pairs.iter().enumerate() {
        let mut row = u.row(i).into_owned();
        for (alpha, f) in heads {
            row -= f.row(j) * alpha[(i, j)];
        }
        moved.row_mut(p).copy_from(&row);
    }
    let (after, before) = (
        layer_output(arch, model, l, &moved),
        layer_output(arch, model, l, u),
    );
    let mut e = DMatrix::zeros(n, n);
    for (p, &(i, j)) in pairs.iter().enumerate() {
        let (a, b) = (after.row(p), before.row(i));
        e[(i, j)] = 1.0 - a.dot(&b) / (a.norm() * b.norm());
    }
    e
}

/// Keys query `i` of `n` sees under `mask`.
fn seen(mask: Mask, n: usize, i: usize) -> usize {
    match mask {
        Mask::Causal => i + 1,
        Mask::Bidirectional => n,
    }
}
