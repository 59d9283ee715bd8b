//! One pre-norm residual block of the stacked model, built as fla builds its
//! layers (`fla/layers/gated_deltanet.py`, `delta_net.py`, `kda.py`): the
//! projections of the normed input, a short convolution on each
//! ([`super::conv`]), L2-normalised q and k for fla's recurrences
//! (`use_qk_l2norm_in_kernel`), `β = σ(n w_β)`, the decay gate, the mixer,
//! then the output RMSNorm times `SiLU` of an output gate
//! (`fla/modules/fused_norm_gate.py`, `FusedRMSNormGated`, `activation = 'swish'`).
//! Zoology's linear attention ([`Mixer::Normalised`], [`Mixer::Unnormalised`])
//! takes `φ(q), φ(k)` instead of the L2 normalisation and has no output
//! RMSNorm, as Zoology's `Based` (with one, the normaliser would cancel); it
//! keeps the SiLU output gate, its one departure from `Based`, so that it
//! differs from the linear arm only in the feature map, the normaliser and the norm.
//!
//! ```text
//! n = RMSNorm_in(h)                                        [T, d]
//! q = conv_q(n W_q), k = conv_k(n W_k), v = conv_v(n W_v)    [T, K], [T, K], [T, V]   (conv = SiLU ∘ causal depthwise, W = 4)
//! q̂, k̂ = l2(q), l2(k)   (fla's recurrences);   φ(q), φ(k)   (Zoology's linear attention)
//! β = σ(n w_β),  g = −e^{A_log} softplus(n W_f + dt_bias)  ([T, 1] Gated DeltaNet, [T, K] KDA)
//! o = mixer(q̂, k̂, v, β, g)                                  [T, V]
//! h' = h + (RMSNorm_o(o) ⊙ SiLU(n W_g)) W_o                  [T, d]   (Zoology's: o ⊙ SiLU(n W_g))
//! ```
//! Introduced in chapter 7.

use nalgebra::{DMatrix, Scalar};

use super::conv;
use crate::mixer::Mixer;
use crate::mixer::layer::{GateInit, rms_norm, rms_norm_backward};
use crate::mixer::mixing::{GateGrads, Gates, Mixing};
use crate::random::{Rng, projection};
use rand::RngExt;

/// The learned tensors of one block; a tensor the mixer does not use is empty `(0, 0)`.
/// `T` is `f64` for the reference pass, `f32` for [`crate::mixer::fast`].
#[derive(Clone, Debug, PartialEq)]
pub struct Block<T: Scalar = f64> {
    /// `[1, d]`: the input RMSNorm's scale.
    pub norm_in: DMatrix<T>,
    /// `[d, K]`, `[d, K]`, `[d, V]`
    pub w_q: DMatrix<T>,
    pub w_k: DMatrix<T>,
    pub w_v: DMatrix<T>,
    /// `[W, K]`, `[W, K]`, `[W, V]`: the depthwise kernels.
    pub conv_q: DMatrix<T>,
    pub conv_k: DMatrix<T>,
    pub conv_v: DMatrix<T>,
    /// `[d, 1]` (delta mixers).
    pub w_beta: DMatrix<T>,
    /// `[d, 1]` (Gated DeltaNet's `a_proj`) or `[d, K]` (KDA's `W_f`, full rank).
    pub w_gate: DMatrix<T>,
    /// `[1, 1]`
    pub a_log: DMatrix<T>,
    /// `[1, 1]` or `[1, K]`
    pub dt_bias: DMatrix<T>,
    /// `[1, V]`: the output RMSNorm's scale (none for Zoology's linear attention).
    pub norm_o: DMatrix<T>,
    /// `[d, V]`: the output gate's projection.
    pub w_g: DMatrix<T>,
    /// `[V, d]`
    pub w_o: DMatrix<T>,
}

/// What one block's forward pass keeps for its backward pass.
#[derive(Clone, Debug)]
pub struct BlockPass {
    h: DMatrix<f64>,
    n: DMatrix<f64>,
    r_in: Vec<f64>,
    /// `(projection, conv pre-activation)` of q, k, v.
    pre: [(DMatrix<f64>, DMatrix<f64>); 3],
    /// The mixer step: q, k as the mixer reads them, `β`, `g`, its output.
    pub mix: Mixing,
    r_o: Vec<f64>,
    y: DMatrix<f64>,
    gate: DMatrix<f64>,
    out: DMatrix<f64>,
}

impl BlockPass {
    /// `g` as `[T, K]`: Gated DeltaNet's scalar broadcast over the key channels.
    pub fn decay(&self, kd: usize) -> Option<DMatrix<f64>> {
        self.mix.decay(kd)
    }
}

fn empty() -> DMatrix<f64> {
    DMatrix::zeros(0, 0)
}

/// PyTorch's `Conv1d` default: `U(±1/√fan_in)`, `fan_in = W` for a depthwise kernel.
fn kernel(rng: &mut Rng, width: usize, channels: usize) -> DMatrix<f64> {
    let b = 1.0 / (width as f64).sqrt();
    DMatrix::from_fn(width, channels, |_, _| rng.random_range(-b..b))
}

impl<T: Scalar> Block<T> {
    /// The tensors with their names, in a fixed order (empty ones left out).
    pub fn named_tensors(&self) -> Vec<(&'static str, &DMatrix<T>)> {
        [
            ("norm_in", &self.norm_in),
            ("w_q", &self.w_q),
            ("w_k", &self.w_k),
            ("w_v", &self.w_v),
            ("conv_q", &self.conv_q),
            ("conv_k", &self.conv_k),
            ("conv_v", &self.conv_v),
            ("w_beta", &self.w_beta),
            ("w_gate", &self.w_gate),
            ("a_log", &self.a_log),
            ("dt_bias", &self.dt_bias),
            ("norm_o", &self.norm_o),
            ("w_g", &self.w_g),
            ("w_o", &self.w_o),
        ]
        .into_iter()
        .filter(|(_, t)| !t.is_empty())
        .collect()
    }

    /// The same tensors, mutable, in the same order.
    pub fn tensors_mut(&mut self) -> Vec<&mut DMatrix<T>> {
        [
            &mut self.norm_in,
            &mut self.w_q,
            &mut self.w_k,
            &mut self.w_v,
            &mut self.conv_q,
            &mut self.conv_k,
            &mut self.conv_v,
            &mut self.w_beta,
            &mut self.w_gate,
            &mut self.a_log,
            &mut self.dt_bias,
            &mut self.norm_o,
            &mut self.w_g,
            &mut self.w_o,
        ]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect()
    }

    /// The block with `f` applied to every tensor (empty ones included).
    pub fn map<U: Scalar>(&self, f: impl Fn(&DMatrix<T>) -> DMatrix<U>) -> Block<U> {
        Block {
            norm_in: f(&self.norm_in),
            w_q: f(&self.w_q),
            w_k: f(&self.w_k),
            w_v: f(&self.w_v),
            conv_q: f(&self.conv_q),
            conv_k: f(&self.conv_k),
            conv_v: f(&self.conv_v),
            w_beta: f(&self.w_beta),
            w_gate: f(&self.w_gate),
            a_log: f(&self.a_log),
            dt_bias: f(&self.dt_bias),
            norm_o: f(&self.norm_o),
            w_g: f(&self.w_g),
            w_o: f(&self.w_o),
        }
    }
}

impl Block {
    /// A seeded block: projections N(0, 1/fan-in), kernels as PyTorch's `Conv1d`,
    /// norm scales 1, gates drawn as `gates` says.
    pub fn init(
        mixer: Mixer,
        (d, kd, vd, width): (usize, usize, usize, usize),
        gates: GateInit,
        rng: &mut Rng,
    ) -> Block {
        let gate_width = if mixer == Mixer::Kda { kd } else { 1 };
        let (a_log, dt_bias) = if mixer.decays() {
            gates.draw(rng, gate_width)
        } else {
            (empty(), empty())
        };
        Block {
            norm_in: DMatrix::from_element(1, d, 1.0),
            w_q: projection(rng, d, kd),
            w_k: projection(rng, d, kd),
            w_v: projection(rng, d, vd),
            conv_q: kernel(rng, width, kd),
            conv_k: kernel(rng, width, kd),
            conv_v: kernel(rng, width, vd),
            w_beta: if mixer.writes_delta() {
                projection(rng, d, 1)
            } else {
                empty()
            },
            w_gate: if mixer.decays() {
                projection(rng, d, gate_width)
            } else {
                empty()
            },
            a_log,
            dt_bias,
            norm_o: if mixer.norms_output() {
                DMatrix::from_element(1, vd, 1.0)
            } else {
                empty()
            },
            w_g: projection(rng, d, vd),
            w_o: projection(rng, vd, d),
        }
    }

    /// A block of zeros of the same shapes (a gradient accumulator).
    pub fn zeros_like(&self) -> Block {
        let mut z = self.clone();
        for t in z.tensors_mut() {
            t.fill(0.0);
        }
        z
    }

    fn gates(&self) -> Gates<'_> {
        Gates {
            w_beta: &self.w_beta,
            w_gate: &self.w_gate,
            a_log: &self.a_log,
            dt_bias: &self.dt_bias,
        }
    }

    /// `(h', pass)` for the residual stream `h: [T, d]` (see the module docs).
    pub fn forward(&self, mixer: Mixer, h: &DMatrix<f64>) -> (DMatrix<f64>, BlockPass) {
        let (n, r_in) = rms_norm(h, &self.norm_in);
        let project = |w: &DMatrix<f64>, c: &DMatrix<f64>| {
            let p = &n * w;
            let (y, z) = conv::forward(&p, c);
            (y, (p, z))
        };
        let (q, pre_q) = project(&self.w_q, &self.conv_q);
        let (k, pre_k) = project(&self.w_k, &self.conv_k);
        let (v, pre_v) = project(&self.w_v, &self.conv_v);
        let mix = Mixing::forward(mixer, &n, (q, k, v), self.gates());
        // out = RMSNorm_o(o) ⊙ SiLU(n W_g), or o ⊙ SiLU(n W_g) for Zoology's arms   [T, V]
        let (y, r_o) = if mixer.norms_output() {
            rms_norm(&mix.o, &self.norm_o)
        } else {
            (mix.o.clone(), Vec::new())
        };
        let gate = &n * &self.w_g;
        let out = y.component_mul(&conv::silu(&gate));
        let h_next = h + &out * &self.w_o;
        let pass = BlockPass {
            h: h.clone(),
            n,
            r_in,
            pre: [pre_q, pre_k, pre_v],
            mix,
            r_o,
            y,
            gate,
            out,
        };
        (h_next, pass)
    }

    /// `h̄` from `h̄' = ∂L/∂h'`; adds the tensors' gradients into `grad`.
    pub fn backward(
        &self,
        mixer: Mixer,
        pass: &BlockPass,
        dh_next: &DMatrix<f64>,
        grad: &mut Block,
    ) -> DMatrix<f64> {
        let nt = pass.n.transpose();
        grad.w_o += pass.out.transpose() * dh_next;
        let d_out = dh_next * self.w_o.transpose();
        // out = y ⊙ silu(gate)
        let dy = d_out.component_mul(&conv::silu(&pass.gate));
        let dgate = conv::silu_backward(&pass.gate, &d_out.component_mul(&pass.y));
        grad.w_g += &nt * &dgate;
        let mut dn = &dgate * self.w_g.transpose();
        let d_o = if mixer.norms_output() {
            let (d_o, dnorm_o) = rms_norm_backward(&pass.mix.o, &self.norm_o, &pass.r_o, &dy);
            grad.norm_o += dnorm_o;
            d_o
        } else {
            dy
        };
        let gr = pass.mix.backward(mixer, &d_o);
        let convs = [&self.conv_q, &self.conv_k, &self.conv_v];
        let projections = [&self.w_q, &self.w_k, &self.w_v];
        for (i, dc) in [&gr.q, &gr.k, &gr.v].into_iter().enumerate() {
            let (p, z) = &pass.pre[i];
            let (dp, dw) = conv::backward(p, convs[i], z, dc);
            dn += &dp * projections[i].transpose();
            let dproj = &nt * &dp;
            match i {
                0 => (grad.conv_q += dw, grad.w_q += dproj),
                1 => (grad.conv_k += dw, grad.w_k += dproj),
                _ => (grad.conv_v += dw, grad.w_v += dproj),
            };
        }
        let into = GateGrads {
            w_beta: &mut grad.w_beta,
            w_gate: &mut grad.w_gate,
            a_log: &mut grad.a_log,
            dt_bias: &mut grad.dt_bias,
        };
        pass.mix
            .gates_backward(gr, &nt, self.gates(), into, &mut dn);
        let (dh, dnorm_in) = rms_norm_backward(&pass.h, &self.norm_in, &pass.r_in, &dn);
        grad.norm_in += dnorm_in;
        dh + dh_next
    }
}
