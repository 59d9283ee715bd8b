//! Scaled dot-product attention for one head: scores, a stable softmax, the
//! weighted sum of values.
//!
//! Tokens are rows. With `x: (n, d)`, `w_q, w_k: (d, d_k)`, `w_v: (d, d_v)`:
//!
//! ```text
//! q = x w_q,  k = x w_k,  v = x w_v
//! scores = q kᵀ / √d_k = x (w_q w_kᵀ) xᵀ / √d_k
//! weights = softmax_rows(scores),   output = weights · v
//! ```
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use crate::random::{Rng, projection};

/// Attention scores `q kᵀ · scale`; `scale` is usually `1/√d_k`.
///
/// # Shapes
/// `q: (n, d_k)`, `k: (m, d_k)` → `(n, m)`.
///
/// # Panics
/// If `q` and `k` have different widths.
pub fn scores(q: &DMatrix<f64>, k: &DMatrix<f64>, scale: f64) -> DMatrix<f64> {
    assert_eq!(
        q.ncols(),
        k.ncols(),
        "scores: q is {:?} and k is {:?}; their widths must match",
        q.shape(),
        k.shape()
    );
    q * k.transpose() * scale
}

/// Row-wise softmax, stable for any finite logits: each row is shifted by
/// its maximum before `exp`, so the largest term is `exp(0) = 1`.
/// Entries equal to `-∞` (masked) get weight 0.
///
/// ```
/// use attention_geometry::attention::softmax_rows;
/// use nalgebra::dmatrix;
/// let w = softmax_rows(&dmatrix![1000.0, 1000.0, f64::NEG_INFINITY; 0.0, 0.0, 0.0]);
/// assert!((w[(0, 0)] - 0.5).abs() < 1e-15 && w[(0, 2)] == 0.0);
/// assert!((w.row(1).sum() - 1.0).abs() < 1e-15);
/// ```
///
/// # Panics
/// If a row is entirely `-∞` (nothing to attend to) or holds NaN.
pub fn softmax_rows(logits: &DMatrix<f64>) -> DMatrix<f64> {
    let mut out = logits.clone();
    for mut row in out.row_iter_mut() {
        let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        assert!(
            max.is_finite(),
            "softmax_rows: a row has no finite logit (max = {max})"
        );
        // w_j = exp(l_j − max l) / Σ exp(l_i − max l)
        row.apply(|l| *l = (*l - max).exp());
        let z = row.sum();
        row /= z;
    }
    out
}

/// Set entries above the diagonal to `-∞`: token i sees only j ≤ i.
pub fn causal_mask(scores: &mut DMatrix<f64>) {
    let (n, m) = scores.shape();
    for i in 0..n {
        for j in (i + 1)..m {
            scores[(i, j)] = f64::NEG_INFINITY;
        }
    }
}

/// Which keys each query may see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mask {
    /// Query `i` sees keys `j ≤ i` (the future is masked by [`causal_mask`]).
    Causal,
    /// Every query sees every key.
    Full,
}

impl Mask {
    /// Mask `scores` in place as this mask says.
    pub fn apply(self, scores: &mut DMatrix<f64>) {
        if self == Mask::Causal {
            causal_mask(scores);
        }
    }
}

/// The learned projections of one attention head.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    /// `(d, d_k)`
    pub w_q: DMatrix<f64>,
    /// `(d, d_k)`
    pub w_k: DMatrix<f64>,
    /// `(d, d_v)`
    pub w_v: DMatrix<f64>,
}

/// What one head computes on one input: its weights and its output.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    /// `(n, n)`, each row a probability distribution over tokens.
    pub weights: DMatrix<f64>,
    /// `(n, d_v)`
    pub output: DMatrix<f64>,
}

impl Head {
    /// A head with independent N(0, 1/d) projections (untied, as at initialisation).
    pub fn random(rng: &mut Rng, d: usize, d_k: usize, d_v: usize) -> Head {
        Head {
            w_q: projection(rng, d, d_k),
            w_k: projection(rng, d, d_k),
            w_v: projection(rng, d, d_v),
        }
    }

    /// Width of queries and keys.
    pub fn d_k(&self) -> usize {
        self.w_q.ncols()
    }

    /// The bilinear form `W_QK = w_q w_kᵀ` `(d, d)`: the only part of the
    /// query–key geometry the scores can see.
    pub fn w_qk(&self) -> DMatrix<f64> {
        &self.w_q * self.w_k.transpose()
    }

    /// Scaled scores `x w_q (x w_k)ᵀ / √d_k`, `(n, n)`.
    pub fn scores(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        scores(
            &(x * &self.w_q),
            &(x * &self.w_k),
            1.0 / (self.d_k() as f64).sqrt(),
        )
    }

    /// Run the head on `x: (n, d)`, its scores masked by `mask`.
    ///
    /// ```
    /// use attention_geometry::attention::{Head, Mask};
    /// use attention_geometry::random::{gaussian, seeded};
    /// let mut rng = seeded(3);
    /// let head = Head::random(&mut rng, 8, 4, 4);
    /// let x = gaussian(&mut rng, 5, 8, 1.0);
    /// let pass = head.forward(&x, Mask::Causal);
    /// assert_eq!(pass.output.shape(), (5, 4));
    /// assert_eq!(pass.weights[(0, 0)], 1.0); // the first token sees only itself
    /// ```
    pub fn forward(&self, x: &DMatrix<f64>, mask: Mask) -> Pass {
        assert_eq!(
            x.ncols(),
            self.w_q.nrows(),
            "Head::forward: x is {:?} but the head expects width {}",
            x.shape(),
            self.w_q.nrows()
        );
        let mut s = self.scores(x);
        mask.apply(&mut s);
        let weights = softmax_rows(&s);
        let output = &weights * (x * &self.w_v);
        Pass { weights, output }
    }
}
