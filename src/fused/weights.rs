//! One block's tensors in the fused pass's `f32` layout: the six projections
//! side by side (one product computes them all), the three convolution
//! kernels side by side (one convolution runs them all). The same layout
//! holds their gradients, which go back to a [`Block`] at the end.
//!
//! ```text
//! w      [d, P] column-major    P = 2K + 2V + (1: β) + (1 or K: W_f)    [W_q | W_k | W_v | W_g | w_β | W_f]
//! conv   [W, 2K + V] row-major                                         [conv_q | conv_k | conv_v]
//! w_o    [V, d] column-major
//! ```
//! Introduced in chapter 7.

use crate::mixer::Mixer;
use crate::mixer::stack::Block;

/// One block's tensors in `f32`, laid out for the pass; the same layout
/// holds their gradients.
#[derive(Clone, Debug)]
pub struct Weights {
    pub(super) mixer: Mixer,
    /// `d, K, V`, and the widths of `w_β` (0 or 1) and `W_f` (0, 1 or `K`).
    pub(super) d: usize,
    pub(super) k: usize,
    pub(super) v: usize,
    pub(super) beta: usize,
    pub(super) f: usize,
    pub(super) norm_in: Vec<f32>,
    /// `[d, P]` column-major: the six projections side by side.
    pub(super) w: Vec<f32>,
    /// `[W, 2K + V]` row-major: the three kernels side by side.
    pub(super) conv: Vec<f32>,
    pub(super) dt_bias: Vec<f32>,
    /// `A_log`: one number (mixers that decay) or none.
    pub(super) a_log: Vec<f32>,
    pub(super) norm_o: Vec<f32>,
    /// `[V, d]` column-major.
    pub(super) w_o: Vec<f32>,
}

/// `m`'s numbers as `f32`, in `nalgebra`'s (column-major) order.
pub(super) fn numbers(m: &nalgebra::DMatrix<f64>) -> Vec<f32> {
    m.as_slice().iter().map(|&x| x as f32).collect()
}

/// `m`'s numbers as `f32`, row by row (row-major).
pub(super) fn rows(m: &nalgebra::DMatrix<f64>) -> Vec<f32> {
    let (r, c, x) = (m.nrows(), m.ncols(), m.as_slice());
    let mut out = vec![0.0; r * c];
    for (j, column) in x.chunks_exact(r.max(1)).enumerate() {
        for (i, &e) in column.iter().enumerate() {
            out[i * c + j] = e as f32;
        }
    }
    out
}

/// [`rows`]' inverse: `m`'s numbers from `x`, row by row.
pub(super) fn fill_rows(m: &mut nalgebra::DMatrix<f64>, x: &[f32]) {
    let (r, c) = (m.nrows(), m.ncols());
    for (j, column) in m.as_mut_slice().chunks_exact_mut(r.max(1)).enumerate() {
        for (i, o) in column.iter_mut().enumerate() {
            *o = f64::from(x[i * c + j]);
        }
    }
}

/// [`numbers`]' inverse: `m`'s numbers from `x`, in the same order.
pub(super) fn fill(m: &mut nalgebra::DMatrix<f64>, x: &[f32]) {
    m.as_mut_slice()
        .iter_mut()
        .zip(x)
        .for_each(|(o, &a)| *o = f64::from(a));
}

impl Weights {
    /// `b`'s tensors, for `mixer`.
    pub fn of(b: &Block, mixer: Mixer) -> Self {
        let (d, k, v) = (b.w_q.nrows(), b.w_q.ncols(), b.w_v.ncols());
        let parts = [&b.w_q, &b.w_k, &b.w_v, &b.w_g, &b.w_beta, &b.w_gate];
        let mut w = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
        for p in parts {
            w.extend(p.as_slice().iter().map(|&x| x as f32));
        }
        // row i of the three kernels side by side: [W, 2K + V]
        let kernels = [&b.conv_q, &b.conv_k, &b.conv_v];
        let taps = b.conv_q.nrows();
        let mut conv = Vec::with_capacity(kernels.iter().map(|c| c.len()).sum());
        for i in 0..taps {
            for c in kernels {
                conv.extend(c.row(i).iter().map(|&x| x as f32));
            }
        }
        Self {
            mixer,
            d,
            k,
            v,
            beta: b.w_beta.ncols(),
            f: b.w_gate.ncols(),
            norm_in: numbers(&b.norm_in),
            w,
            conv,
            dt_bias: numbers(&b.dt_bias),
            a_log: numbers(&b.a_log),
            norm_o: numbers(&b.norm_o),
            w_o: numbers(&b.w_o),
        }
    }

    /// These numbers as a [`Block`] shaped like `like`: the block's tensors,
    /// or the gradient they hold.
    pub fn to_block(&self, like: &Block) -> Block {
        let mut g = like.zeros_like();
        let mut at = 0;
        for m in [
            &mut g.w_q,
            &mut g.w_k,
            &mut g.w_v,
            &mut g.w_g,
            &mut g.w_beta,
            &mut g.w_gate,
        ] {
            fill(m, &self.w[at..at + m.len()]);
            at += m.len();
        }
        let c = self.conv.len() / like.conv_q.nrows().max(1);
        let mut at = 0;
        for m in [&mut g.conv_q, &mut g.conv_k, &mut g.conv_v] {
            let (taps, width) = (m.nrows(), m.ncols());
            // m[i, j] (column-major) = conv[i, at + j] (row-major)
            for (j, column) in m.as_mut_slice().chunks_exact_mut(taps.max(1)).enumerate() {
                for (i, o) in column.iter_mut().enumerate() {
                    *o = f64::from(self.conv[i * c + at + j]);
                }
            }
            at += width;
        }
        fill(&mut g.norm_in, &self.norm_in);
        fill(&mut g.dt_bias, &self.dt_bias);
        fill(&mut g.a_log, &self.a_log);
        fill(&mut g.norm_o, &self.norm_o);
        fill(&mut g.w_o, &self.w_o);
        g
    }

    /// The tensors, in one fixed order.
    pub(super) fn tensors(&self) -> [&[f32]; 7] {
        [
            &self.norm_in,
            &self.w,
            &self.conv,
            &self.dt_bias,
            &self.a_log,
            &self.norm_o,
            &self.w_o,
        ]
    }

    /// The same tensors, mutable, in the same order.
    pub(super) fn tensors_mut(&mut self) -> [&mut [f32]; 7] {
        [
            &mut self.norm_in,
            &mut self.w,
            &mut self.conv,
            &mut self.dt_bias,
            &mut self.a_log,
            &mut self.norm_o,
            &mut self.w_o,
        ]
    }

    /// `e^{A_log}` (0 for a mixer that does not decay).
    pub(super) fn a(&self) -> f32 {
        self.a_log.first().map_or(0.0, |x| x.exp())
    }

    /// `P`, the width of all projections.
    pub(super) fn p(&self) -> usize {
        2 * self.k + 2 * self.v + self.beta + self.f
    }

    /// The columns of the output gate, `β` and `W_f` in `a`.
    pub(super) fn at_gate(&self) -> usize {
        2 * self.k + self.v
    }
}
