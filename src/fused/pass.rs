//! What one block's forward pass keeps for its backward pass ([`Pass`]),
//! and the mixer kernels' inputs read from it. Introduced in chapter 7.

use super::attention;
use super::recurrence::Trace;
use super::spare;
use super::weights::Weights;
use crate::mixer::fast::recurrence::Lanes;

/// How the mixer ran: the recurrence's trace or softmax's weights.
#[derive(Clone, Debug)]
pub(super) enum Kernel {
    Recurrence(Trace),
    /// `[B, T, T]`
    Softmax(Vec<f32>),
}

/// What one block's forward pass keeps for its backward pass (all row-major).
#[derive(Clone, Debug)]
pub struct Pass {
    pub(super) n: Vec<f32>,
    pub(super) inv_in: Vec<f32>,
    /// `[rows, P]`
    pub(super) a: Vec<f32>,
    /// `[rows, 2K + V]`: the convolution's pre-activation and its `σ`.
    pub(super) z: Vec<f32>,
    pub(super) sz: Vec<f32>,
    /// q, k as the mixer reads them, and v; the norms of q and k (L2 only).
    pub(super) q: Vec<f32>,
    pub(super) k: Vec<f32>,
    pub(super) v: Vec<f32>,
    pub(super) q_norm: Vec<f32>,
    pub(super) k_norm: Vec<f32>,
    /// `[rows]` (delta mixers)
    pub(super) beta: Vec<f32>,
    /// `[rows, 1 or K]`: `σ(z_f)` of the decay gate's `z_f = a_f + dt_bias`
    /// (mixers that decay), the derivative of its softplus.
    pub(super) sf: Vec<f32>,
    /// `[rows, K]`: `g` over every key channel (mixers that decay).
    pub(super) g: Vec<f32>,
    pub(super) kernel: Kernel,
    /// The rows read after the block (none: all of them). From here on the
    /// pass keeps only these rows.
    pub(super) kept: Option<Vec<usize>>,
    pub(super) o: Vec<f32>,
    pub(super) inv_o: Vec<f32>,
    pub(super) y: Vec<f32>,
    /// `[rows, V]`: `a_g` and `σ(a_g)`.
    pub(super) gate: Vec<f32>,
    pub(super) s_gate: Vec<f32>,
    pub(super) out: Vec<f32>,
}

/// A pass's buffers go back to [`spare`] when it ends.
impl Drop for Pass {
    fn drop(&mut self) {
        let buffers = [
            &mut self.n,
            &mut self.inv_in,
            &mut self.a,
            &mut self.z,
            &mut self.sz,
            &mut self.q,
            &mut self.k,
            &mut self.v,
            &mut self.q_norm,
            &mut self.k_norm,
            &mut self.beta,
            &mut self.sf,
            &mut self.g,
            &mut self.o,
            &mut self.inv_o,
            &mut self.y,
            &mut self.gate,
            &mut self.s_gate,
            &mut self.out,
        ];
        for b in buffers {
            spare::give(std::mem::take(b));
        }
        if let Kernel::Softmax(weights) = &mut self.kernel {
            spare::give(std::mem::take(weights));
        }
    }
}

/// The recurrence's inputs from the pass's rows.
pub(super) fn lanes<'a>(w: &Weights, p: &'a Pass, t_len: usize) -> Lanes<'a> {
    Lanes {
        q: &p.q,
        k: &p.k,
        v: &p.v,
        beta: w.mixer.writes_delta().then_some(&p.beta[..]),
        g: w.mixer.decays().then_some(&p.g[..]),
        scale: 1.0 / (w.k as f32).sqrt(),
        normaliser: w.mixer.normaliser().map(|e| e as f32),
        t_len,
        kd: w.k,
    }
}

/// Attention's inputs from the pass's rows.
pub(super) fn inputs(p: &Pass, kd: usize, t_len: usize) -> attention::Inputs<'_> {
    attention::Inputs {
        q: &p.q,
        k: &p.k,
        v: &p.v,
        kd,
        t_len,
        read: p.kept.as_deref(),
    }
}
