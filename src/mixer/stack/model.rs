//! The stacked recall model: token embedding, pre-norm residual blocks
//! ([`super::block`]), a final RMSNorm and a linear readout; no MLP, as
//! Zoology's MQAR models (`state_mixer = torch.nn.Identity` in
//! `zoology/experiments/mqar_example_configs/original_mqar_configs.py`).
//! The readout is untied from the embedding (Zoology ties them).
//!
//! ```text
//! h⁰_t = E[tok_t]                                  [d]
//! hˡ = block_l(hˡ⁻¹)                               l = 1 … L
//! logits_p = RMSNorm_f(hᴸ)_p W_r                   [vocab], at query positions p
//! ```
//! Introduced in chapter 7.

use nalgebra::{DMatrix, Scalar};

use super::Config;
use super::block::{Block, BlockPass};
use crate::attention::softmax_rows;
use crate::mixer::layer::{GateInit, rms_norm, rms_norm_backward};
use crate::mixer::objective::{self, Recaller};
use crate::random::{Rng, gaussian, projection};
use crate::recall::Sequence;

/// The learned tensors; gradients have the same type. `T` is `f64` for the
/// reference pass, `f32` for [`crate::mixer::fast`].
#[derive(Clone, Debug, PartialEq)]
pub struct Stack<T: Scalar = f64> {
    pub config: Config,
    /// How the decay gates started.
    pub gates: GateInit,
    /// `[vocab, d]`
    pub emb: DMatrix<T>,
    pub blocks: Vec<Block<T>>,
    /// `[1, d]`
    pub norm_f: DMatrix<T>,
    /// `[d, vocab]`
    pub w_r: DMatrix<T>,
}

/// What one sequence's forward pass keeps.
#[derive(Clone, Debug)]
pub struct StackPass {
    /// The residual stream entering each block, and after the last: `L + 1` of `[T, d]`.
    hs: Vec<DMatrix<f64>>,
    pub blocks: Vec<BlockPass>,
    nf: DMatrix<f64>,
    r_f: Vec<f64>,
    /// `[queries, vocab]` probabilities at the query positions.
    pub probs: DMatrix<f64>,
}

impl<T: Scalar> Stack<T> {
    /// The tensors with their names (`b0.w_q`, …), in a fixed order.
    pub fn named_tensors(&self) -> Vec<(String, &DMatrix<T>)> {
        let mut all = vec![("emb".to_string(), &self.emb)];
        for (l, b) in self.blocks.iter().enumerate() {
            all.extend(
                b.named_tensors()
                    .into_iter()
                    .map(|(n, t)| (format!("b{l}.{n}"), t)),
            );
        }
        all.push(("norm_f".to_string(), &self.norm_f));
        all.push(("w_r".to_string(), &self.w_r));
        all
    }

    /// The same tensors, mutable, in the same order.
    pub fn tensors_mut(&mut self) -> Vec<&mut DMatrix<T>> {
        let mut all = vec![&mut self.emb];
        for b in &mut self.blocks {
            all.extend(b.tensors_mut());
        }
        all.push(&mut self.norm_f);
        all.push(&mut self.w_r);
        all
    }

    /// The same tensors, read-only.
    pub fn tensors(&self) -> Vec<&DMatrix<T>> {
        self.named_tensors().into_iter().map(|(_, t)| t).collect()
    }

    /// The model with `f` applied to every tensor.
    pub fn map<U: Scalar>(&self, f: impl Fn(&DMatrix<T>) -> DMatrix<U>) -> Stack<U> {
        Stack {
            config: self.config,
            gates: self.gates,
            emb: f(&self.emb),
            blocks: self.blocks.iter().map(|b| b.map(&f)).collect(),
            norm_f: f(&self.norm_f),
            w_r: f(&self.w_r),
        }
    }
}

impl Stack {
    /// A seeded model: embeddings N(0, 1), readout N(0, 1/d), blocks as [`Block::init`].
    pub fn init(config: Config, gates: GateInit, rng: &mut Rng) -> Stack {
        let Config {
            mixer,
            vocab,
            d,
            k,
            v,
            layers,
            conv,
        } = config;
        Stack {
            config,
            gates,
            emb: gaussian(rng, vocab, d, 1.0),
            blocks: (0..layers)
                .map(|_| Block::init(mixer, (d, k, v, conv), gates, rng))
                .collect(),
            norm_f: DMatrix::from_element(1, d, 1.0),
            w_r: projection(rng, d, vocab),
        }
    }

    /// The forward pass of one sequence.
    pub fn forward(&self, seq: &Sequence) -> StackPass {
        let d = self.config.d;
        // h⁰ = E[tok]  [T, d]
        let h0 = DMatrix::from_fn(seq.tokens.len(), d, |t, c| self.emb[(seq.tokens[t], c)]);
        let mut hs = vec![h0];
        let mut blocks = Vec::with_capacity(self.blocks.len());
        for b in &self.blocks {
            let (h, pass) = b.forward(self.config.mixer, hs.last().expect("h⁰"));
            hs.push(h);
            blocks.push(pass);
        }
        let (nf, r_f) = rms_norm(hs.last().expect("h^L"), &self.norm_f);
        // logits at the query rows  [queries, vocab]
        let zq = DMatrix::from_fn(seq.queries.len(), d, |i, c| nf[(seq.queries[i].0, c)]);
        StackPass {
            hs,
            blocks,
            probs: softmax_rows(&(zq * &self.w_r)),
            nf,
            r_f,
        }
    }

    /// Add `weight ·` the gradient of the cross-entropy of `seq`'s queries into `grad`.
    fn backward(&self, seq: &Sequence, pass: &StackPass, weight: f64, grad: &mut Stack) {
        let (t_len, d) = (seq.tokens.len(), self.config.d);
        // ℓ̄ = weight (p − 1_y)  [queries, vocab]
        let mut dl = pass.probs.clone();
        for (i, &(_, y)) in seq.queries.iter().enumerate() {
            dl[(i, y)] -= 1.0;
        }
        dl *= weight;
        let dzq = &dl * self.w_r.transpose();
        let mut dnf = DMatrix::zeros(t_len, d);
        for (i, &(p, _)) in seq.queries.iter().enumerate() {
            grad.w_r += pass.nf.row(p).transpose() * dl.row(i);
            dnf.row_mut(p).copy_from(&dzq.row(i));
        }
        let last = pass.hs.last().expect("h^L");
        let (mut dh, dnorm_f) = rms_norm_backward(last, &self.norm_f, &pass.r_f, &dnf);
        grad.norm_f += dnorm_f;
        for (l, b) in self.blocks.iter().enumerate().rev() {
            dh = b.backward(self.config.mixer, &pass.blocks[l], &dh, &mut grad.blocks[l]);
        }
        for (t, &tok) in seq.tokens.iter().enumerate() {
            let mut e = grad.emb.row_mut(tok);
            e += dh.row(t);
        }
    }

    /// Mean cross-entropy over every query of `batch`.
    pub fn mean_loss(&self, batch: &[Sequence]) -> f64 {
        objective::mean_loss(self, batch)
    }

    /// The mean cross-entropy over every query of `batch` and its gradient.
    pub fn loss_and_grad(&self, batch: &[Sequence]) -> (f64, Stack) {
        objective::loss_and_grad(self, batch)
    }

    /// Share of the queries of `set` whose most likely token is the right value.
    pub fn accuracy(&self, set: &[Sequence]) -> f64 {
        objective::accuracy(self, set)
    }
}

impl Recaller for Stack {
    type Pass = StackPass;

    fn pass(&self, seq: &Sequence) -> StackPass {
        self.forward(seq)
    }

    fn probs(pass: &StackPass) -> &DMatrix<f64> {
        &pass.probs
    }

    fn backward(&self, seq: &Sequence, pass: &StackPass, weight: f64, grad: &mut Stack) {
        Stack::backward(self, seq, pass, weight, grad);
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
