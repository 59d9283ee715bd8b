//! The recall model: embedding, one mixer layer, linear readout; its forward
//! and backward passes by hand.
//!
//! ```text
//! x_t = [E[tok_t], E[tok_{t−1}]]                              [2d]   (a kernel-2 shift)
//! q = x W_q, k = x W_k, v = x W_v                               [K], [K], [V]
//! o = mixer(q, k, v, β, g)                                      [V]
//! logits_t = (E[tok_t] + o_t W_o) W_r                           [vocab], at query positions
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;

use super::layer::{Layer, OutNorm, rms_norm, rms_norm_backward};
use super::mixing::{GateGrads, Gates, Mixing};
use super::objective::{self, Recaller};
use super::{Config, Mixer};
use crate::attention::softmax_rows;
use crate::random::{Rng, gaussian, projection};
use crate::recall::Sequence;

/// The learned tensors. A tensor the mixer does not use is empty `(0, 0)`;
/// gradients have the same type.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub config: Config,
    /// How the layer is built: gate initialisation, output norm.
    pub layer: Layer,
    /// `[vocab, d]`
    pub emb: DMatrix<f64>,
    /// `[2d, K]`
    pub w_q: DMatrix<f64>,
    /// `[2d, K]`
    pub w_k: DMatrix<f64>,
    /// `[2d, V]`
    pub w_v: DMatrix<f64>,
    /// `[V, d]`
    pub w_o: DMatrix<f64>,
    /// `[d, vocab]`
    pub w_r: DMatrix<f64>,
    /// `[2d, 1]`: `β = sigmoid(x w_β)` (delta mixers).
    pub w_beta: DMatrix<f64>,
    /// `[2d, 1]` (Gated DeltaNet's `a`) or `[2d, K]` (KDA's full-rank `W_f`).
    pub w_gate: DMatrix<f64>,
    /// `[1, 1]`: `A_log`.
    pub a_log: DMatrix<f64>,
    /// `[1, 1]` or `[1, K]`: `dt_bias`.
    pub dt_bias: DMatrix<f64>,
    /// `[1, V]`: the output RMSNorm's scale γ ([`OutNorm::Rms`]).
    pub norm_w: DMatrix<f64>,
}

/// What one sequence's forward pass keeps for its backward pass.
#[derive(Clone, Debug)]
pub struct Pass {
    /// `[T, 2d]`
    pub x: DMatrix<f64>,
    /// The mixer step: q, k as the mixer uses them, `β`, `g`, its output.
    pub mix: Mixing,
    /// `[T, V]`: what goes to `W_o` (the mixer's output, RMS-normalised under [`OutNorm::Rms`]).
    o: DMatrix<f64>,
    /// The RMSNorm's `r` (empty without it).
    rms: Vec<f64>,
    /// `[queries, vocab]` probabilities at the query positions.
    pub probs: DMatrix<f64>,
}

impl Pass {
    /// `g` as `[T, K]`: Gated DeltaNet's scalar broadcast over the key channels.
    pub fn decay(&self, kd: usize) -> Option<DMatrix<f64>> {
        self.mix.decay(kd)
    }
}

fn empty() -> DMatrix<f64> {
    DMatrix::zeros(0, 0)
}

impl Model {
    /// A seeded model: projections N(0, 1/fan-in), embeddings N(0, 1); the
    /// gates as fla initialises them: `A_log = ln U(1, 16)`, `dt_bias` the inverse
    /// softplus of `dt ~ logU(10⁻³, 0.1)`; no output norm ([`Layer::BOOK`]).
    pub fn init(config: Config, rng: &mut Rng) -> Model {
        Model::init_with(config, Layer::BOOK, rng)
    }

    /// [`Model::init`] with the layer built as `layer` says.
    pub fn init_with(config: Config, layer: Layer, rng: &mut Rng) -> Model {
        let Config {
            vocab,
            d,
            k,
            v,
            mixer,
        } = config;
        let w = 2 * d;
        let gate_width = if mixer == Mixer::Kda { k } else { 1 };
        let (a_log, dt_bias) = if mixer.decays() {
            layer.gates.draw(rng, gate_width)
        } else {
            (empty(), empty())
        };
        Model {
            config,
            layer,
            emb: gaussian(rng, vocab, d, 1.0),
            w_q: projection(rng, w, k),
            w_k: projection(rng, w, k),
            w_v: projection(rng, w, v),
            w_o: projection(rng, v, d),
            w_r: projection(rng, d, vocab),
            w_beta: if mixer.writes_delta() {
                projection(rng, w, 1)
            } else {
                empty()
            },
            w_gate: if mixer.decays() {
                projection(rng, w, gate_width)
            } else {
                empty()
            },
            a_log,
            dt_bias,
            norm_w: match layer.norm {
                OutNorm::Rms => DMatrix::from_element(1, v, 1.0),
                OutNorm::Plain => empty(),
            },
        }
    }

    /// The learned tensors with their names, in a fixed order (empty ones left out).
    pub fn named_tensors(&self) -> Vec<(String, &DMatrix<f64>)> {
        let all = [
            ("emb", &self.emb),
            ("w_q", &self.w_q),
            ("w_k", &self.w_k),
            ("w_v", &self.w_v),
            ("w_o", &self.w_o),
            ("w_r", &self.w_r),
            ("w_beta", &self.w_beta),
            ("w_gate", &self.w_gate),
            ("a_log", &self.a_log),
            ("dt_bias", &self.dt_bias),
            ("norm_w", &self.norm_w),
        ];
        all.into_iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(n, t)| (n.to_string(), t))
            .collect()
    }

    /// The tensors of [`Model::named_tensors`], mutable, in the same order.
    pub fn tensors_mut(&mut self) -> Vec<&mut DMatrix<f64>> {
        [
            &mut self.emb,
            &mut self.w_q,
            &mut self.w_k,
            &mut self.w_v,
            &mut self.w_o,
            &mut self.w_r,
            &mut self.w_beta,
            &mut self.w_gate,
            &mut self.a_log,
            &mut self.dt_bias,
            &mut self.norm_w,
        ]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect()
    }

    /// The same tensors, read-only.
    pub fn tensors(&self) -> Vec<&DMatrix<f64>> {
        self.named_tensors().into_iter().map(|(_, t)| t).collect()
    }

    /// The forward pass of one sequence.
    pub fn forward(&self, seq: &Sequence) -> Pass {
        let Config { d, mixer, .. } = self.config;
        let t_len = seq.tokens.len();
        // x_t = [E[tok_t], E[tok_{t−1}]]  [T, 2d]
        let x = DMatrix::from_fn(t_len, 2 * d, |t, c| match (c < d, t) {
            (true, _) => self.emb[(seq.tokens[t], c)],
            (false, 0) => 0.0,
            (false, _) => self.emb[(seq.tokens[t - 1], c - d)],
        });
        let qkv = (&x * &self.w_q, &x * &self.w_k, &x * &self.w_v);
        let mix = Mixing::forward(mixer, &x, qkv, self.gates());
        let (o, rms) = match self.layer.norm {
            OutNorm::Rms => rms_norm(&mix.o, &self.norm_w),
            OutNorm::Plain => (mix.o.clone(), Vec::new()),
        };
        // logits at the query rows: (E[tok_p] + o_p W_o) W_r
        let zq = DMatrix::from_fn(seq.queries.len(), d, |i, c| {
            let p = seq.queries[i].0;
            self.emb[(seq.tokens[p], c)] + (o.row(p) * self.w_o.column(c))[0]
        });
        Pass {
            probs: softmax_rows(&(zq * &self.w_r)),
            x,
            mix,
            o,
            rms,
        }
    }

    fn gates(&self) -> Gates<'_> {
        Gates {
            w_beta: &self.w_beta,
            w_gate: &self.w_gate,
            a_log: &self.a_log,
            dt_bias: &self.dt_bias,
        }
    }

    /// Add `weight ·` the gradient of the cross-entropy of `seq`'s queries into `grad`.
    fn backward(&self, seq: &Sequence, pass: &Pass, weight: f64, grad: &mut Model) {
        let Config { d, mixer, .. } = self.config;
        let t_len = seq.tokens.len();
        // ℓ̄ = weight (p − 1_y)  [queries, vocab]
        let mut dl = pass.probs.clone();
        for (i, &(_, y)) in seq.queries.iter().enumerate() {
            dl[(i, y)] -= 1.0;
        }
        dl *= weight;
        // z̄ = ℓ̄ W_rᵀ at the query rows [T, d]; W̄_r = z_qᵀ ℓ̄
        let dzq = &dl * self.w_r.transpose();
        let mut dz = DMatrix::zeros(t_len, d);
        for (i, &(p, _)) in seq.queries.iter().enumerate() {
            let tok = seq.tokens[p];
            let zrow = self.emb.row(tok) + pass.o.row(p) * &self.w_o;
            grad.w_r += zrow.transpose() * dl.row(i);
            dz.row_mut(p).copy_from(&dzq.row(i));
            let mut e = grad.emb.row_mut(tok);
            e += dzq.row(i);
        }
        grad.w_o += pass.o.transpose() * &dz;
        let mut d_o = dz * self.w_o.transpose();
        if self.layer.norm == OutNorm::Rms {
            let (d_raw, dgamma) = rms_norm_backward(&pass.mix.o, &self.norm_w, &pass.rms, &d_o);
            grad.norm_w += dgamma;
            d_o = d_raw;
        }
        let gr = pass.mix.backward(mixer, &d_o);
        let mut dx = &gr.q * self.w_q.transpose()
            + &gr.k * self.w_k.transpose()
            + &gr.v * self.w_v.transpose();
        let xt = pass.x.transpose();
        grad.w_q += &xt * &gr.q;
        grad.w_k += &xt * &gr.k;
        grad.w_v += &xt * &gr.v;
        let into = GateGrads {
            w_beta: &mut grad.w_beta,
            w_gate: &mut grad.w_gate,
            a_log: &mut grad.a_log,
            dt_bias: &mut grad.dt_bias,
        };
        pass.mix
            .gates_backward(gr, &xt, self.gates(), into, &mut dx);
        // x_t = [E[tok_t], E[tok_{t−1}]]: scatter x̄ into the embedding rows
        for t in 0..t_len {
            let mut e = grad.emb.row_mut(seq.tokens[t]);
            e += dx.view((t, 0), (1, d));
            if t > 0 {
                let mut e = grad.emb.row_mut(seq.tokens[t - 1]);
                e += dx.view((t, d), (1, d));
            }
        }
    }

    /// Mean cross-entropy over every query of `batch`.
    pub fn mean_loss(&self, batch: &[Sequence]) -> f64 {
        objective::mean_loss(self, batch)
    }

    /// The mean cross-entropy over every query of `batch` and its gradient.
    pub fn loss_and_grad(&self, batch: &[Sequence]) -> (f64, Model) {
        objective::loss_and_grad(self, batch)
    }

    /// Share of the queries of `set` whose most likely token is the right value.
    pub fn accuracy(&self, set: &[Sequence]) -> f64 {
        objective::accuracy(self, set)
    }
}

impl Recaller for Model {
    type Pass = Pass;

    fn pass(&self, seq: &Sequence) -> Pass {
        self.forward(seq)
    }

    fn probs(pass: &Pass) -> &DMatrix<f64> {
        &pass.probs
    }

    fn backward(&self, seq: &Sequence, pass: &Pass, weight: f64, grad: &mut Model) {
        Model::backward(self, seq, pass, weight, grad);
    }

    fn names(&self) -> Vec<String> {
        self.named_tensors().into_iter().map(|(n, _)| n).collect()
    }

    fn read(&self) -> Vec<&DMatrix<f64>> {
        self.tensors()
    }

    fn write(&mut self) -> Vec<&mut DMatrix<f64>> {
        self.tensors_mut()
    }
}
