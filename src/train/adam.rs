//! Adam (Kingma & Ba 2015), one moment pair per tensor.
//!
//! ```text
//! m ← β₁ m + (1 − β₁) g,   v ← β₂ v + (1 − β₂) g²
//! θ ← θ − lr · m̂ / (√v̂ + ε),   m̂ = m / (1 − β₁ᵗ),  v̂ = v / (1 − β₂ᵗ)
//! AdamW (Loshchilov & Hutter 2019), as PyTorch: θ ← θ (1 − lr λ) first
//! ```
//! Introduced in chapter 6.

use nalgebra::DMatrix;

/// Adam's state for a list of tensors.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    /// Decoupled weight decay `λ` (AdamW); zero is Adam.
    pub weight_decay: f64,
    t: i32,
    m: Vec<DMatrix<f64>>,
    v: Vec<DMatrix<f64>>,
}

impl Adam {
    /// Adam with learning rate `lr` and the usual `β₁ = 0.9, β₂ = 0.999, ε = 10⁻⁸`.
    pub fn new(lr: f64) -> Adam {
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
            t: 0,
            m: Vec::new(),
            v: Vec::new(),
        }
    }

    /// One update of `params` by `grads` (same order and shapes).
    ///
    /// ```
    /// use attention_geometry::train::Adam;
    /// use nalgebra::dmatrix;
    /// let mut w = dmatrix![1.0, -2.0];
    /// let mut adam = Adam::new(0.1);
    /// adam.step(vec![&mut w], vec![&dmatrix![3.0, -0.5]]);
    /// // the first step moves each entry by lr against the sign of its gradient
    /// assert!((w[0] - 0.9).abs() < 1e-6 && (w[1] + 1.9).abs() < 1e-6);
    /// ```
    ///
    /// # Panics
    /// If the lists differ in length or a shape changes between steps.
    pub fn step(&mut self, params: Vec<&mut DMatrix<f64>>, grads: Vec<&DMatrix<f64>>) {
        assert_eq!(
            params.len(),
            grads.len(),
            "Adam::step: {} tensors but {} gradients",
            params.len(),
            grads.len()
        );
        if self.m.is_empty() {
            self.m = grads
                .iter()
                .map(|g| DMatrix::zeros(g.nrows(), g.ncols()))
                .collect();
            self.v = self.m.clone();
        }
        self.t += 1;
        let (b1, b2) = (self.beta1, self.beta2);
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        let shrink = 1.0 - self.lr * self.weight_decay;
        for (i, (p, g)) in params.into_iter().zip(grads).enumerate() {
            assert_eq!(
                p.shape(),
                g.shape(),
                "Adam::step: tensor {i} is {:?} but its gradient is {:?}",
                p.shape(),
                g.shape()
            );
            let (m, v) = (&mut self.m[i], &mut self.v[i]);
            assert_eq!(
                m.shape(),
                g.shape(),
                "Adam::step: tensor {i} changed shape between steps"
            );
            for ((pj, &gj), (mj, vj)) in p
                .iter_mut()
                .zip(g.iter())
                .zip(m.iter_mut().zip(v.iter_mut()))
            {
                *mj = b1 * *mj + (1.0 - b1) * gj;
                *vj = b2 * *vj + (1.0 - b2) * gj * gj;
                if self.weight_decay != 0.0 {
                    *pj *= shrink;
                }
                *pj -= self.lr * (*mj / c1) / ((*vj / c2).sqrt() + self.eps);
            }
        }
    }
}
