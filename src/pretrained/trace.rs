//! What a forward pass saw and did, the same record for the encoder and the
//! decoder: every layer's input stream and every head's Q, K, V, scores and
//! weights.
//!
//! ```text
//! states:   x⁰ = layers[0].input, x¹, …, x^L = output           (n, d) each
//! head h:   scores = q_rot k_rotᵀ / √d_k   (−∞ above the diagonal if causal)
//!           weights = softmax_rows(scores)
//! ```
//!
//! Position enters MiniLM at the embedding, so there `q_rot = q`; it enters
//! SmolLM2 as a rotation of each query and key by its position (RoPE), so
//! there `q_rot ≠ q`.
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

/// One head's intermediate values in one layer.
///
/// # Shapes
/// `q, q_rot: (n, d_k)` for the `n` positions run; `k, k_rot, v: (T, d_k)` or
/// `(n, d_k)` of the key/value head it reads; `scores, weights: (n, T)` with
/// queries as rows and keys as columns (`T = n` unless a cache held earlier
/// positions); each row of `weights` sums to 1.
#[derive(Clone, Debug)]
pub struct HeadTrace {
    /// The query before position: `x W_Q` (MiniLM adds its bias; SmolLM2
    /// normalises x first).
    pub q: DMatrix<f64>,
    /// The key before position.
    pub k: DMatrix<f64>,
    /// The query the score uses: rotated by its position under RoPE, else `q`.
    pub q_rot: DMatrix<f64>,
    /// The key the score uses: rotated by its position under RoPE, else `k`.
    pub k_rot: DMatrix<f64>,
    /// The value.
    pub v: DMatrix<f64>,
    /// `q_rot k_rotᵀ / √d_k`, `−∞` above the diagonal in a causal model.
    pub scores: DMatrix<f64>,
    /// `softmax_rows(scores)`: the attention weights (zero where masked).
    pub weights: DMatrix<f64>,
}

/// One layer's input stream and its heads.
#[derive(Clone, Debug)]
pub struct LayerTrace {
    /// The layer's index in the checkpoint.
    pub layer: usize,
    /// The residual stream entering the layer, `(n, d)`.
    pub input: DMatrix<f64>,
    /// Every query head, in order.
    pub heads: Vec<HeadTrace>,
}

/// A forward pass: what each layer saw and did, and the final stream.
#[derive(Clone, Debug)]
pub struct Trace {
    /// One entry per layer run, in order.
    pub layers: Vec<LayerTrace>,
    /// The stream after the last layer (before any final norm), `(n, d)`.
    pub output: DMatrix<f64>,
}

impl Trace {
    /// The trace of checkpoint layer `layer`, if it was run.
    pub fn layer(&self, layer: usize) -> Option<&LayerTrace> {
        self.layers.iter().find(|l| l.layer == layer)
    }

    /// The stream at every layer boundary: each layer's input, then the output.
    ///
    /// # Shapes
    /// `layers.len() + 1` matrices `(n, d)`.
    pub fn states(&self) -> Vec<DMatrix<f64>> {
        let mut states: Vec<_> = self.layers.iter().map(|l| l.input.clone()).collect();
        states.push(self.output.clone());
        states
    }
}
