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

use nalgebra::{DMatrix, DVector};

use super::gate::{decay_backward, l2_rows, l2_rows_backward};
use super::layer::{Layer, OutNorm, rms_norm, rms_norm_backward};
use super::recurrence::{self, Inputs, Trace};
use super::{Config, Mixer, softmax};
use crate::attention::softmax_rows;
use crate::delta::{kda_gate, sigmoid};
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
    /// `[T, K]`: the queries and keys the mixer uses (L2-normalised except for softmax).
    pub q: DMatrix<f64>,
    pub k: DMatrix<f64>,
    q_norm: Vec<f64>,
    k_norm: Vec<f64>,
    v: DMatrix<f64>,
    /// `[T]`, the write strengths (delta mixers).
    pub beta: Option<DVector<f64>>,
    /// `[T, 1]` or `[T, K]`: the gate's softplus input `z = x w + dt_bias`.
    z: Option<DMatrix<f64>>,
    /// `[T, 1]` or `[T, K]`: the natural-log decay `g`.
    pub g: Option<DMatrix<f64>>,
    o: DMatrix<f64>,
    /// `[T, V]` the mixer's output before the RMSNorm, and the norm's `r` (empty without it).
    o_raw: DMatrix<f64>,
    rms: Vec<f64>,
    trace: Option<Trace>,
    attn: Option<DMatrix<f64>>,
    /// `[queries, vocab]` probabilities at the query positions.
    pub probs: DMatrix<f64>,
}

impl Pass {
    /// `g` as `[T, K]`: Gated DeltaNet's scalar broadcast over the key channels.
    pub fn decay(&self, kd: usize) -> Option<DMatrix<f64>> {
        self.g
            .as_ref()
            .map(|g| DMatrix::from_fn(g.nrows(), kd, |t, c| g[(t, c.min(g.ncols() - 1))]))
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

    fn zeros_like(&self) -> Model {
        let z = |m: &DMatrix<f64>| DMatrix::zeros(m.nrows(), m.ncols());
        Model {
            config: self.config,
            layer: self.layer,
            emb: z(&self.emb),
            w_q: z(&self.w_q),
            w_k: z(&self.w_k),
            w_v: z(&self.w_v),
            w_o: z(&self.w_o),
            w_r: z(&self.w_r),
            w_beta: z(&self.w_beta),
            w_gate: z(&self.w_gate),
            a_log: z(&self.a_log),
            dt_bias: z(&self.dt_bias),
            norm_w: z(&self.norm_w),
        }
    }

    /// The forward pass of one sequence.
    pub fn forward(&self, seq: &Sequence) -> Pass {
        let Config {
            d, k: kd, mixer, ..
        } = self.config;
        let t_len = seq.tokens.len();
        // x_t = [E[tok_t], E[tok_{t−1}]]  [T, 2d]
        let x = DMatrix::from_fn(t_len, 2 * d, |t, c| match (c < d, t) {
            (true, _) => self.emb[(seq.tokens[t], c)],
            (false, 0) => 0.0,
            (false, _) => self.emb[(seq.tokens[t - 1], c - d)],
        });
        let (q_raw, k_raw, v) = (&x * &self.w_q, &x * &self.w_k, &x * &self.w_v);
        let scale = 1.0 / (kd as f64).sqrt();
        let beta = mixer
            .writes_delta()
            .then(|| (&x * &self.w_beta).column(0).map(sigmoid));
        let (z, g) = if mixer.decays() {
            let f = &x * &self.w_gate;
            let bias = self.dt_bias.row(0).transpose();
            let z = DMatrix::from_fn(t_len, f.ncols(), |t, c| f[(t, c)] + bias[c]);
            (Some(z), Some(kda_gate(&f, self.a_log[0], &bias)))
        } else {
            (None, None)
        };
        let mut pass = Pass {
            q: q_raw.clone(),
            k: k_raw.clone(),
            q_norm: Vec::new(),
            k_norm: Vec::new(),
            v,
            beta,
            z,
            g,
            o: DMatrix::zeros(0, 0),
            o_raw: DMatrix::zeros(0, 0),
            rms: Vec::new(),
            trace: None,
            attn: None,
            probs: DMatrix::zeros(0, 0),
            x,
        };
        if mixer == Mixer::Softmax {
            let (o, a) = softmax::forward(&pass.q, &pass.k, &pass.v, scale);
            (pass.o, pass.attn) = (o, Some(a));
        } else {
            (pass.q, pass.q_norm) = l2_rows(&q_raw);
            (pass.k, pass.k_norm) = l2_rows(&k_raw);
            let g = pass.decay(kd);
            let inputs = Inputs {
                q: &pass.q,
                k: &pass.k,
                v: &pass.v,
                beta: pass.beta.as_ref(),
                g: g.as_ref(),
                scale,
            };
            let (o, trace) = recurrence::forward(inputs);
            (pass.o, pass.trace) = (o, Some(trace));
        }
        if self.layer.norm == OutNorm::Rms {
            let (y, r) = rms_norm(&pass.o, &self.norm_w);
            pass.o_raw = std::mem::replace(&mut pass.o, y);
            pass.rms = r;
        }
        // logits at the query rows: (E[tok_p] + o_p W_o) W_r
        let zq = DMatrix::from_fn(seq.queries.len(), d, |i, c| {
            let p = seq.queries[i].0;
            self.emb[(seq.tokens[p], c)] + (pass.o.row(p) * self.w_o.column(c))[0]
        });
        pass.probs = softmax_rows(&(zq * &self.w_r));
        pass
    }

    /// Add `weight ·` the gradient of the cross-entropy of `seq`'s queries into `grad`.
    fn backward(&self, seq: &Sequence, pass: &Pass, weight: f64, grad: &mut Model) {
        let Config {
            d, k: kd, mixer, ..
        } = self.config;
        let t_len = seq.tokens.len();
        let scale = 1.0 / (kd as f64).sqrt();
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
            let (d_raw, dgamma) = rms_norm_backward(&pass.o_raw, &self.norm_w, &pass.rms, &d_o);
            grad.norm_w += dgamma;
            d_o = d_raw;
        }
        let (dq, dk, dv, dbeta, dg) = if mixer == Mixer::Softmax {
            let a = pass.attn.as_ref().expect("softmax keeps its weights");
            let (dq, dk, dv) = softmax::backward(&pass.q, &pass.k, &pass.v, a, scale, &d_o);
            (dq, dk, dv, None, None)
        } else {
            let g = pass.decay(kd);
            let inputs = Inputs {
                q: &pass.q,
                k: &pass.k,
                v: &pass.v,
                beta: pass.beta.as_ref(),
                g: g.as_ref(),
                scale,
            };
            let trace = pass.trace.as_ref().expect("a recurrence keeps its trace");
            let gr = recurrence::backward(inputs, trace, &d_o);
            let dq = l2_rows_backward(&pass.q, &pass.q_norm, &gr.q);
            let dk = l2_rows_backward(&pass.k, &pass.k_norm, &gr.k);
            (dq, dk, gr.v, Some(gr.beta), Some(gr.g))
        };
        let mut dx =
            &dq * self.w_q.transpose() + &dk * self.w_k.transpose() + &dv * self.w_v.transpose();
        let xt = pass.x.transpose();
        grad.w_q += &xt * &dq;
        grad.w_k += &xt * &dk;
        grad.w_v += &xt * &dv;
        if let (Some(beta), Some(db)) = (&pass.beta, dbeta) {
            // b̄ = β̄ β (1 − β)  [T, 1]
            let dlogit = DMatrix::from_fn(t_len, 1, |t, _| db[t] * beta[t] * (1.0 - beta[t]));
            grad.w_beta += &xt * &dlogit;
            dx += &dlogit * self.w_beta.transpose();
        }
        if let (Some(z), Some(g), Some(dg_wide)) = (&pass.z, &pass.g, dg) {
            // Gated DeltaNet's scalar gate collects the gradient of every channel
            let dg = DMatrix::from_fn(t_len, g.ncols(), |t, c| match g.ncols() {
                1 => dg_wide.row(t).sum(),
                _ => dg_wide[(t, c)],
            });
            let (dzg, da) = decay_backward(z, g, self.a_log[0], &dg);
            grad.a_log[0] += da;
            grad.dt_bias += DMatrix::from_fn(1, g.ncols(), |_, c| dzg.column(c).sum());
            grad.w_gate += &xt * &dzg;
            dx += &dzg * self.w_gate.transpose();
        }
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
        let n: usize = batch.iter().map(|s| s.queries.len()).sum();
        let total: f64 = batch
            .iter()
            .map(|s| {
                let p = self.forward(s).probs;
                s.queries
                    .iter()
                    .enumerate()
                    .map(|(i, &(_, y))| -p[(i, y)].max(f64::MIN_POSITIVE).ln())
                    .sum::<f64>()
            })
            .sum();
        total / n as f64
    }

    /// The mean cross-entropy over every query of `batch` and its gradient.
    pub fn loss_and_grad(&self, batch: &[Sequence]) -> (f64, Model) {
        let n: usize = batch.iter().map(|s| s.queries.len()).sum();
        let mut grad = self.zeros_like();
        let mut total = 0.0;
        for s in batch {
            let pass = self.forward(s);
            for (i, &(_, y)) in s.queries.iter().enumerate() {
                total -= pass.probs[(i, y)].max(f64::MIN_POSITIVE).ln();
            }
            self.backward(s, &pass, 1.0 / n as f64, &mut grad);
        }
        (total / n as f64, grad)
    }

    /// Share of the queries of `set` whose most likely token is the right value.
    pub fn accuracy(&self, set: &[Sequence]) -> f64 {
        let (mut hits, mut n) = (0, 0);
        for s in set {
            let p = self.forward(s).probs;
            for (i, &(_, y)) in s.queries.iter().enumerate() {
                let best = (0..p.ncols()).fold(0, |b, j| if p[(i, j)] > p[(i, b)] { j } else { b });
                hits += usize::from(best == y);
                n += 1;
            }
        }
        hits as f64 / n as f64
    }
}
