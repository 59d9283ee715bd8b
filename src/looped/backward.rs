//! The looped block's backward pass by hand: back through the `K`
//! iterations of the unrolled block, every iteration's gradient added into
//! the one set of shared weights. Introduced in chapter 5.

use nalgebra::DMatrix;

use super::{LoopForward, Looped};
use crate::train::{TensorCheck, check_tensors};

/// `∂y` from `∂z` through `z = N(y) = √d · y / ‖y‖`, row by row:
/// `∂y = (√d / ‖y‖) (∂z − ŷ (ŷ · ∂z))`, `ŷ = y / ‖y‖`.
fn normalise_back(y: &DMatrix<f64>, dz: &DMatrix<f64>) -> DMatrix<f64> {
    let root_d = (y.ncols() as f64).sqrt();
    let mut dy = dz.clone();
    for (r, mut row) in dy.row_iter_mut().enumerate() {
        let n = y.row(r).norm();
        if n == 0.0 {
            row.fill(0.0);
            continue;
        }
        let unit = y.row(r) / n;
        let along = unit.dot(&row);
        row -= unit * along;
        row *= root_d / n;
    }
    dy
}

impl Looped {
    /// Gradient of `Σ_b −log p_b[target_b]` with respect to every tensor,
    /// added into `grad`:
    ///
    /// ```text
    /// ∂W_R = z_Kᵀ ∂logits,  ∂Z_K[query rows] = ∂logits W_Rᵀ
    /// for k = K−1 … 0:  ∂Y_k = N'(Y_k) ∂Z_{k+1},  ∂U_k = ∂Y_k + Σ_h (attention backward)
    ///                   ∂W += ∂W at iteration k    (the weights are tied)
    ///                   ∂Z_k = ∂U_k                (U_k = Z_k (+ X))
    /// ```
    ///
    /// # Panics
    /// If a target is not a class or the targets do not match the batch.
    pub fn backward(&self, fwd: &LoopForward, targets: &[usize], grad: &mut Looped) {
        let c = self.config;
        let (t, batch) = (fwd.t, fwd.probs.nrows());
        assert_eq!(
            targets.len(),
            batch,
            "Looped::backward: {} targets for a batch of {batch}",
            targets.len()
        );
        let scale = 1.0 / (c.d_k as f64).sqrt();
        // ∂logits = p − onehot  (B, outputs)
        let mut dlogits = fwd.probs.clone();
        for (b, &target) in targets.iter().enumerate() {
            assert!(
                target < c.outputs,
                "Looped::backward: target {target} is not one of {} classes",
                c.outputs
            );
            dlogits[(b, target)] -= 1.0;
        }
        let last = &fwd.z[c.iterations];
        let query = DMatrix::from_fn(batch, c.d, |b, col| last[(b * t + t - 1, col)]);
        grad.w_r += query.tr_mul(&dlogits);
        // ∂Z_K: the query rows only  (B·T, d)
        let dquery = &dlogits * self.w_r.transpose();
        let mut dz = DMatrix::zeros(batch * t, c.d);
        for b in 0..batch {
            dz.row_mut(b * t + t - 1).copy_from(&dquery.row(b));
        }
        for step in fwd.steps.iter().rev() {
            let dy = normalise_back(&step.y, &dz);
            // residual path: ∂U = ∂Y + …
            let mut du = dy.clone();
            for (p, (hc, g)) in self
                .heads
                .iter()
                .zip(step.heads.iter().zip(grad.heads.iter_mut()))
            {
                g.w_o += hc.o.tr_mul(&dy);
                // ∂o = ∂Y W_Oᵀ  (B·T, d_k)
                let d_o = &dy * p.w_o.transpose();
                let mut dv = DMatrix::zeros(batch * t, c.d_k);
                let mut dq = DMatrix::zeros(batch * t, c.d_k);
                let mut dk = DMatrix::zeros(batch * t, c.d_k);
                for r in 0..batch * t {
                    let b0 = (r / t) * t;
                    // ∂a_j = ∂o · v_j
                    let da: Vec<f64> = (0..t)
                        .map(|j| (0..c.d_k).map(|e| d_o[(r, e)] * hc.v[(b0 + j, e)]).sum())
                        .collect();
                    let mean: f64 = (0..t).map(|j| hc.a[(r, j)] * da[j]).sum();
                    for (j, &da_j) in da.iter().enumerate() {
                        let (a, row) = (hc.a[(r, j)], b0 + j);
                        // ∂s_j = a_j (∂a_j − Σ_m a_m ∂a_m) / √d_k
                        let ds = a * (da_j - mean) * scale;
                        for e in 0..c.d_k {
                            dv[(row, e)] += a * d_o[(r, e)];
                            dq[(r, e)] += ds * hc.k[(row, e)];
                            dk[(row, e)] += ds * hc.q[(r, e)];
                        }
                    }
                }
                g.w_q += step.u.tr_mul(&dq);
                g.w_k += step.u.tr_mul(&dk);
                g.w_v += step.u.tr_mul(&dv);
                du += &dq * p.w_q.transpose() + &dk * p.w_k.transpose() + &dv * p.w_v.transpose();
            }
            dz = du;
        }
    }

    /// Mean cross-entropy over a batch of `(x, target)` pairs (forward only).
    pub fn mean_loss(&self, batch: &[(&DMatrix<f64>, usize)]) -> f64 {
        let (xs, targets): (Vec<_>, Vec<_>) = batch.iter().cloned().unzip();
        let losses = self.forward_batch(&xs).losses(&targets);
        losses.iter().sum::<f64>() / losses.len() as f64
    }

    /// Mean loss and its gradient over a batch of `(x, target)` pairs.
    pub fn loss_and_grad(&self, batch: &[(&DMatrix<f64>, usize)]) -> (f64, Looped) {
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

    /// The finite-difference check of [`Looped::backward`], tensor by
    /// tensor, with step `h` ([`check_tensors`]).
    ///
    /// ```
    /// use attention_geometry::random::seeded;
    /// use attention_geometry::looped::{Injection, LoopConfig, Looped};
    /// use attention_geometry::train::{Relation, Task};
    /// let task = Task { relation: Relation::TwoHop, vocab: 6, context: 4, d: 6, noise: 0.1, examples: None };
    /// let mut rng = seeded(0);
    /// let world = task.world(&mut rng);
    /// let ex = world.examples(&mut rng, 3);
    /// let batch: Vec<_> = ex.iter().map(|e| (&e.x, e.target)).collect();
    /// for injection in [Injection::Input, Injection::None] {
    ///     let config = LoopConfig { d: 6, d_k: 3, heads: 2, iterations: 3, injection, outputs: 6 };
    ///     let block = Looped::init(config, &mut rng);
    ///     for c in block.gradient_check(&batch, 1e-5) {
    ///         assert!(c.error < 1e-6, "{} {}", c.name, c.error);
    ///     }
    /// }
    /// ```
    pub fn gradient_check(&self, batch: &[(&DMatrix<f64>, usize)], h: f64) -> Vec<TensorCheck> {
        let (_, grad) = self.loss_and_grad(batch);
        let analytic: Vec<DMatrix<f64>> = grad.tensors().into_iter().cloned().collect();
        check_tensors(
            self,
            self.names(),
            &analytic,
            Looped::tensors_mut,
            |m: &Looped| m.mean_loss(batch),
            h,
        )
    }
}
