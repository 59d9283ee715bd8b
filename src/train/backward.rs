//! The model's backward pass by hand, and its loss and gradient on a batch.
//! Introduced in chapter 6; derived in the backpropagation appendix.

use nalgebra::DMatrix;

use super::model::{Forward, Model, Qk, add_query_rows};

impl Model {
    /// Gradient of `Σ_b −log p_b[target_b]` with respect to every tensor,
    /// given the forward pass of the same batch; added into `grad` (same
    /// shape as `self`).
    ///
    /// ```text
    /// ∂logits = p − onehot(target);  ∂W_R = z^Lᵀ ∂logits,  ∂z^L = ∂logits W_Rᵀ
    /// per head: ∂W_O = oᵀ ∂y, ∂o = ∂y W_Oᵀ, ∂a = ∂o vᵀ, ∂v = aᵀ ∂o
    ///           ∂s = a ⊙ (∂a − rowsum(∂a ⊙ a))          (softmax Jacobian)
    ///           ∂q = ∂s k / √d_k,  ∂k = ∂sᵀ q / √d_k
    ///           ∂W_Q = z_qᵀ ∂q, ∂W_K = zᵀ ∂k (tied: ∂W = z_qᵀ ∂q + zᵀ ∂k), ∂W_V = zᵀ ∂v
    /// ```
    ///
    /// # Panics
    /// If a target is not a class, the targets do not match the batch, or
    /// `grad` has another configuration.
    pub fn backward(&self, fwd: &Forward, targets: &[usize], grad: &mut Model) {
        let c = self.config;
        let (t, batch) = (fwd.t, fwd.probs.nrows());
        assert_eq!(
            targets.len(),
            batch,
            "Model::backward: {} targets for a batch of {batch}",
            targets.len()
        );
        assert_eq!(
            grad.config, c,
            "Model::backward: the gradient has another configuration"
        );
        let scale = 1.0 / (c.d_k as f64).sqrt();
        // ∂logits = p − onehot  (B, outputs)
        let mut dlogits = fwd.probs.clone();
        for (b, &target) in targets.iter().enumerate() {
            assert!(
                target < c.outputs,
                "Model::backward: target {target} is not one of {} classes",
                c.outputs
            );
            dlogits[(b, target)] -= 1.0;
        }
        grad.w_r += fwd.z[c.layers].tr_mul(&dlogits);
        // ∂z^L  (B, d)
        let mut dz = &dlogits * self.w_r.transpose();
        for l in (0..c.layers).rev() {
            let (zl, zq) = (&fwd.z[l], &fwd.zq[l]);
            let m = dz.nrows() / batch;
            let first = l == 0;
            // ∂z^l  (B·T, d), not needed for the input
            let mut dprev = DMatrix::zeros(if first { 0 } else { batch * t }, c.d);
            let mut dzq = if c.residual && !first {
                dz.clone()
            } else {
                DMatrix::zeros(batch * m, c.d)
            };
            for (h, p) in self.heads[l].iter().enumerate() {
                let hc = &fwd.heads[l][h];
                let g = &mut grad.heads[l][h];
                g.w_o += hc.o.tr_mul(&dz);
                // ∂o = ∂y W_Oᵀ  (B·m, d_v)
                let d_o = &dz * p.w_o.transpose();
                let mut dv = DMatrix::zeros(batch * t, hc.v.ncols());
                let mut dq = DMatrix::zeros(batch * m, hc.q.ncols());
                let mut dk = DMatrix::zeros(batch * t, hc.k.ncols());
                for r in 0..batch * m {
                    let b = r / m;
                    // ∂a_j = ∂o · v_j
                    let da: Vec<f64> = (0..t)
                        .map(|j| {
                            (0..d_o.ncols())
                                .map(|e| d_o[(r, e)] * hc.v[(b * t + j, e)])
                                .sum()
                        })
                        .collect();
                    let mean: f64 = (0..t).map(|j| hc.a[(r, j)] * da[j]).sum();
                    for (j, &da_j) in da.iter().enumerate() {
                        let (a, row) = (hc.a[(r, j)], b * t + j);
                        // ∂v_j += a_j ∂o
                        for e in 0..d_o.ncols() {
                            dv[(row, e)] += a * d_o[(r, e)];
                        }
                        // ∂s_j = a_j (∂a_j − Σ_m a_m ∂a_m) / √d_k
                        let ds = a * (da_j - mean) * scale;
                        for e in 0..dq.ncols() {
                            dq[(r, e)] += ds * hc.k[(row, e)];
                            dk[(row, e)] += ds * hc.q[(r, e)];
                        }
                    }
                }
                g.w_v += zl.tr_mul(&dv);
                match c.qk {
                    Qk::Untied | Qk::Mimetic => {
                        g.w_q += zq.tr_mul(&dq);
                        g.w_k += zl.tr_mul(&dk);
                    }
                    Qk::Tied => g.w_q += zq.tr_mul(&dq) + zl.tr_mul(&dk),
                    Qk::Identity => {}
                }
                if first {
                    continue;
                }
                dprev += &dv * p.w_v.transpose();
                match c.qk {
                    Qk::Untied | Qk::Mimetic => {
                        dzq += &dq * p.w_q.transpose();
                        dprev += &dk * p.w_k.transpose();
                    }
                    Qk::Tied => {
                        dzq += &dq * p.w_q.transpose();
                        dprev += &dk * p.w_q.transpose();
                    }
                    Qk::Identity => {
                        dzq += &dq;
                        dprev += &dk;
                    }
                }
            }
            if !first {
                add_query_rows(&mut dprev, &dzq, t, m);
            }
            dz = dprev;
        }
    }

    /// Mean cross-entropy over a batch of `(x, target)` pairs (forward only).
    pub fn mean_loss(&self, batch: &[(&DMatrix<f64>, usize)]) -> f64 {
        let (xs, targets): (Vec<_>, Vec<_>) = batch.iter().cloned().unzip();
        let losses = self.forward_batch(&xs).losses(&targets);
        losses.iter().sum::<f64>() / losses.len() as f64
    }

    /// Mean loss and its gradient over a batch of `(x, target)` pairs.
    pub fn loss_and_grad(&self, batch: &[(&DMatrix<f64>, usize)]) -> (f64, Model) {
        let (xs, targets): (Vec<_>, Vec<_>) = batch.iter().cloned().unzip();
        let fwd = self.forward_batch(&xs);
        let mut grad = self.zeros_like();
        self.backward(&fwd, &targets, &mut grad);
        let n = batch.len() as f64;
        for g in grad.tensors_mut() {
            *g /= n;
        }
        (fwd.losses(&targets).iter().sum::<f64>() / n, grad)
    }
}
