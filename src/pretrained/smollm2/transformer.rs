//! SmolLM2 as a [`Transformer`]: a causal, pre-RMSNorm decoder with rotary
//! positions and grouped key/value heads.
//!
//! Introduced in chapter 1.

use nalgebra::{DMatrix, DVector};

use super::SmolLm2;
use crate::pretrained::bpe::Encoding;
use crate::pretrained::repair::Effects;
use crate::pretrained::trace::{LayerTrace, Trace};
use crate::pretrained::transformer::{Mask, Norm, Transformer};

impl Transformer for SmolLm2 {
    fn name(&self) -> &'static str {
        "SmolLM2-135M-Instruct"
    }
    fn layers(&self) -> usize {
        self.config.n_layer
    }
    fn heads(&self) -> usize {
        self.config.n_head
    }
    fn kv_head(&self, h: usize) -> usize {
        self.config.kv_head(h)
    }
    fn mask(&self) -> Mask {
        Mask::Causal
    }
    fn norm(&self) -> Norm {
        Norm::Pre
    }
    fn encode(&self, text: &str) -> Result<Encoding, String> {
        SmolLm2::encode(self, text)
    }
    fn embed(&self, ids: &[u32]) -> DMatrix<f64> {
        super::forward::embed(&self.weights, ids).map(f64::from)
    }
    fn run_from(&self, from: usize, x: DMatrix<f64>, ablate: &[(usize, usize)]) -> Trace {
        SmolLm2::run_from(self, from, x, ablate)
    }
    fn run_ablated(&self, ids: &[u32], ablate: &[(usize, usize)]) -> Trace {
        SmolLm2::run_ablated(self, ids, ablate)
    }
    fn value_out(&self, layer: usize, h: usize, v: &DMatrix<f64>) -> DMatrix<f64> {
        // W_O is stored (in, out): head h's rows 64h..64h+64
        let r = self.config.head_dim;
        v * self.weights.blocks[layer].w_o.rows(h * r, r).map(f64::from)
    }
    fn attention_bias(&self, _layer: usize) -> DVector<f64> {
        DVector::zeros(self.config.d_model)
    }
    fn query_input(&self, layer: usize, x: &DMatrix<f64>) -> DMatrix<f64> {
        super::forward::rms_norm_f64(
            x,
            &self.weights.blocks[layer].attn_norm,
            self.config.rms_eps,
        )
    }
    fn block(&self, layer: usize, x: &DMatrix<f64>) -> DMatrix<f64> {
        super::forward::block(&self.weights, layer, &x.map(|v| v as f32)).map(f64::from)
    }
    fn block_norm(&self, layer: usize, u: &DMatrix<f64>) -> DMatrix<f64> {
        super::forward::rms_norm_f64(u, &self.weights.blocks[layer].ffn_norm, self.config.rms_eps)
    }
    fn run_edits(&self, x: &DMatrix<f64>, edits: &[(usize, DVector<f64>)]) -> Vec<DMatrix<f64>> {
        crate::pretrained::edits::smollm2(self, x, edits)
    }
    fn word_token(&self, word: &str) -> String {
        format!("Ġ{word}")
    }
    fn next_token(&self, state: &DVector<f64>) -> Option<Vec<f64>> {
        Some(crate::pretrained::edits::next_token(self, state))
    }
    fn effects(&self, clean: &Trace, layer: usize, deltas: &[DMatrix<f64>]) -> Vec<Effects> {
        super::repair::effects(self, clean, layer, deltas)
    }
    fn symmetric_weights(&self, _t: &LayerTrace, _h: usize) -> Option<DMatrix<f64>> {
        None
    }
    fn special(&self, tokens: &[String]) -> Vec<bool> {
        (0..tokens.len()).map(|j| j == self.sink()).collect()
    }
}
