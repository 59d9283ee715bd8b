//! The mixer step that the one-layer [`crate::mixer::Model`] and the stacked
//! model's blocks ([`crate::mixer::stack::Block`]) share: from the layer's
//! input `x` and its q, k, v projections, the write strengths, the decay gate,
//! the L2 normalisation of q and k (fla's recurrences) or the feature map
//! (Zoology's linear attention), and the mixer itself; and the way back.
//!
//! ```text
//! β = σ(x w_β)                                   [T]       (delta mixers)
//! z = x W_f + dt_bias,  g = −e^{A_log} softplus(z)  [T, 1] or [T, K]   (decaying mixers)
//! q̂, k̂ = l2(q), l2(k)                            (fla's recurrences)
//! q̂, k̂ = φ(q), φ(k),  φ(x) = elu(x) + 1          (Zoology's linear attention)
//! o = mixer(q̂, k̂, v, β, g),  s = K^{−1/2}           [T, V]
//! ```
//! Introduced in chapter 7.

use nalgebra::{DMatrix, DVector};

use super::gate::{decay_backward, features, features_backward, l2_rows, l2_rows_backward};
use super::recurrence::{self, Inputs, Trace};
use super::{Mixer, softmax};
use crate::delta::{kda_gate, sigmoid};

/// The tensors of the write strength and the decay gate (empty when unused).
#[derive(Clone, Copy, Debug)]
pub struct Gates<'a> {
    /// `[w, 1]`
    pub w_beta: &'a DMatrix<f64>,
    /// `[w, 1]` or `[w, K]`
    pub w_gate: &'a DMatrix<f64>,
    /// `[1, 1]`
    pub a_log: &'a DMatrix<f64>,
    /// `[1, 1]` or `[1, K]`
    pub dt_bias: &'a DMatrix<f64>,
}

/// Their gradients, to add into.
#[derive(Debug)]
pub struct GateGrads<'a> {
    pub w_beta: &'a mut DMatrix<f64>,
    pub w_gate: &'a mut DMatrix<f64>,
    pub a_log: &'a mut DMatrix<f64>,
    pub dt_bias: &'a mut DMatrix<f64>,
}

/// What the mixer step keeps for its backward pass.
#[derive(Clone, Debug)]
pub struct Mixing {
    /// `[T, K]`: the queries and keys the mixer uses (L2-normalised or
    /// feature-mapped, raw for softmax).
    pub q: DMatrix<f64>,
    pub k: DMatrix<f64>,
    q_norm: Vec<f64>,
    k_norm: Vec<f64>,
    pub(crate) v: DMatrix<f64>,
    /// `[T]`, the write strengths (delta mixers).
    pub beta: Option<DVector<f64>>,
    /// `[T, 1]` or `[T, K]`: the gate's softplus input `z = x w + dt_bias`.
    z: Option<DMatrix<f64>>,
    /// `[T, 1]` or `[T, K]`: the natural-log decay `g`.
    pub g: Option<DMatrix<f64>>,
    /// `[T, V]`: the mixer's output.
    pub o: DMatrix<f64>,
    trace: Option<Trace>,
    attn: Option<DMatrix<f64>>,
}

/// The gradients of the mixer step's inputs: `q`, `k` before the L2
/// normalisation or the feature map, `v`, and `β`, `g` (for [`Mixing::gates_backward`]).
pub struct MixingGrads {
    pub q: DMatrix<f64>,
    pub k: DMatrix<f64>,
    pub v: DMatrix<f64>,
    beta: Option<DVector<f64>>,
    g: Option<DMatrix<f64>>,
}

impl Mixing {
    /// The mixer step of `mixer` on the layer input `x: [T, w]` and its
    /// projections `q, k: [T, K]`, `v: [T, V]`.
    pub fn forward(
        mixer: Mixer,
        x: &DMatrix<f64>,
        (q, k, v): (DMatrix<f64>, DMatrix<f64>, DMatrix<f64>),
        gates: Gates,
    ) -> Mixing {
        let (t_len, kd) = (x.nrows(), q.ncols());
        let scale = 1.0 / (kd as f64).sqrt();
        let beta = mixer
            .writes_delta()
            .then(|| (x * gates.w_beta).column(0).map(sigmoid));
        let (z, g) = if mixer.decays() {
            let f = x * gates.w_gate;
            let bias = gates.dt_bias.row(0).transpose();
            let z = DMatrix::from_fn(t_len, f.ncols(), |t, c| f[(t, c)] + bias[c]);
            (Some(z), Some(kda_gate(&f, gates.a_log[0], &bias)))
        } else {
            (None, None)
        };
        let mut m = Mixing {
            q,
            k,
            q_norm: Vec::new(),
            k_norm: Vec::new(),
            v,
            beta,
            z,
            g,
            o: DMatrix::zeros(0, 0),
            trace: None,
            attn: None,
        };
        if mixer == Mixer::Softmax {
            let (o, a) = softmax::forward(&m.q, &m.k, &m.v, scale);
            (m.o, m.attn) = (o, Some(a));
        } else {
            if mixer.maps_features() {
                (m.q, m.k) = (features(&m.q), features(&m.k));
            } else {
                (m.q, m.q_norm) = l2_rows(&m.q);
                (m.k, m.k_norm) = l2_rows(&m.k);
            }
            let g = m.decay(kd);
            let (o, trace) = recurrence::forward(m.inputs(mixer, g.as_ref(), scale));
            (m.o, m.trace) = (o, Some(trace));
        }
        m
    }

    /// `g` as `[T, K]`: Gated DeltaNet's scalar broadcast over the key channels.
    pub fn decay(&self, kd: usize) -> Option<DMatrix<f64>> {
        self.g
            .as_ref()
            .map(|g| DMatrix::from_fn(g.nrows(), kd, |t, c| g[(t, c.min(g.ncols() - 1))]))
    }

    fn inputs<'a>(&'a self, mixer: Mixer, g: Option<&'a DMatrix<f64>>, scale: f64) -> Inputs<'a> {
        Inputs {
            q: &self.q,
            k: &self.k,
            v: &self.v,
            beta: self.beta.as_ref(),
            g,
            scale,
            normaliser: mixer.normaliser(),
        }
    }

    /// The gradients of the step's inputs from `d_o = ∂L/∂o: [T, V]`.
    pub fn backward(&self, mixer: Mixer, d_o: &DMatrix<f64>) -> MixingGrads {
        let kd = self.q.ncols();
        let scale = 1.0 / (kd as f64).sqrt();
        if mixer == Mixer::Softmax {
            let a = self.attn.as_ref().expect("softmax keeps its weights");
            let (q, k, v) = softmax::backward(&self.q, &self.k, &self.v, a, scale, d_o);
            MixingGrads {
                q,
                k,
                v,
                beta: None,
                g: None,
            }
        } else {
            let g = self.decay(kd);
            let trace = self.trace.as_ref().expect("a recurrence keeps its trace");
            let gr = recurrence::backward(self.inputs(mixer, g.as_ref(), scale), trace, d_o);
            let (q, k) = if mixer.maps_features() {
                (
                    features_backward(&self.q, &gr.q),
                    features_backward(&self.k, &gr.k),
                )
            } else {
                (
                    l2_rows_backward(&self.q, &self.q_norm, &gr.q),
                    l2_rows_backward(&self.k, &self.k_norm, &gr.k),
                )
            };
            MixingGrads {
                q,
                k,
                v: gr.v,
                beta: Some(gr.beta),
                g: Some(gr.g),
            }
        }
    }

    /// Add the gradients of the write strength and the gate, from `grads`,
    /// into `into`, and their part of `x̄` into `dx`; `xt = xᵀ`.
    pub fn gates_backward(
        &self,
        grads: MixingGrads,
        xt: &DMatrix<f64>,
        gates: Gates,
        into: GateGrads,
        dx: &mut DMatrix<f64>,
    ) {
        let t_len = xt.ncols();
        if let (Some(beta), Some(db)) = (&self.beta, grads.beta) {
            // b̄ = β̄ β (1 − β)  [T, 1]
            let dlogit = DMatrix::from_fn(t_len, 1, |t, _| db[t] * beta[t] * (1.0 - beta[t]));
            *into.w_beta += xt * &dlogit;
            *dx += &dlogit * gates.w_beta.transpose();
        }
        if let (Some(z), Some(g), Some(dg_wide)) = (&self.z, &self.g, grads.g) {
            // Gated DeltaNet's scalar gate collects the gradient of every channel
            let dg = DMatrix::from_fn(t_len, g.ncols(), |t, c| match g.ncols() {
                1 => dg_wide.row(t).sum(),
                _ => dg_wide[(t, c)],
            });
            let (dz, da) = decay_backward(z, g, gates.a_log[0], &dg);
            into.a_log[0] += da;
            *into.dt_bias += DMatrix::from_fn(1, g.ncols(), |_, c| dz.column(c).sum());
            *into.w_gate += xt * &dz;
            *dx += &dz * gates.w_gate.transpose();
        }
    }
}
