//! MiniLM as a [`Transformer`]: a bidirectional, post-LayerNorm encoder.
//!
//! Introduced in chapter 1.

use nalgebra::{DMatrix, DVector};

use super::Minilm;
use crate::pretrained::bpe::Encoding;
use crate::pretrained::repair::Effects;
use crate::pretrained::trace::{LayerTrace, Trace};
use crate::pretrained::transformer::{Mask, Norm, Transformer};

impl Transformer for Minilm {
    fn name(&self) -> &'static str {
        "all-MiniLM-L6-v2"
    }
    fn layers(&self) -> usize {
        self.weights.layers.len()
    }
    fn heads(&self) -> usize {
        super::HEADS
    }
    fn kv_head(&self, h: usize) -> usize {
        h
    }
    fn mask(&self) -> Mask {
        Mask::Bidirectional
    }
    fn norm(&self) -> Norm {
        Norm::Post
    }
    fn encode(&self, text: &str) -> Result<Encoding, String> {
        Minilm::encode(self, text).map_err(|e| e.to_string())
    }
    fn embed(&self, ids: &[u32]) -> DMatrix<f64> {
        super::forward::embed(&self.weights, ids)
    }
    fn run_from(&self, from: usize, x: DMatrix<f64>, ablate: &[(usize, usize)]) -> Trace {
        Minilm::run_from(self, from, x, ablate)
    }
    fn value_out(&self, layer: usize, h: usize, v: &DMatrix<f64>) -> DMatrix<f64> {
        crate::pretrained::intervention::value_out(&self.weights.layers[layer], v, h)
    }
    fn attention_bias(&self, layer: usize) -> DVector<f64> {
        self.weights.layers[layer]
            .attention_output
            .dense
            .bias
            .clone()
    }
    fn query_input(&self, _layer: usize, x: &DMatrix<f64>) -> DMatrix<f64> {
        x.clone()
    }
    fn block(&self, layer: usize, x: &DMatrix<f64>) -> DMatrix<f64> {
        super::forward::layer_forward(&self.weights.layers[layer], layer, x, &[]).0
    }
    fn block_norm(&self, layer: usize, u: &DMatrix<f64>) -> DMatrix<f64> {
        self.weights.layers[layer]
            .attention_output
            .layer_norm
            .forward(u)
    }
    fn run_edits(&self, x: &DMatrix<f64>, edits: &[(usize, DVector<f64>)]) -> Vec<DMatrix<f64>> {
        crate::pretrained::edits::minilm(self, x, edits)
    }
    fn word_token(&self, word: &str) -> String {
        word.to_string()
    }
    fn effects(&self, clean: &Trace, layer: usize, deltas: &[DMatrix<f64>]) -> Vec<Effects> {
        super::repair::effects(&self.weights, clean, layer, deltas)
    }
    fn symmetric_weights(&self, t: &LayerTrace, h: usize) -> Option<DMatrix<f64>> {
        let layer = &self.weights.layers[t.layer];
        Some(super::repair::symmetric_weights(layer, &t.input, h))
    }
    fn special(&self, tokens: &[String]) -> Vec<bool> {
        tokens
            .iter()
            .map(|t| crate::pretrained::corpus::is_special(t))
            .collect()
    }
}
