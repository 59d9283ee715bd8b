//! Causal softmax attention of [`crate::mixer::softmax`] in `f32`, one
//! sequence of the batch at a time (rows `b·T … b·T + T − 1` of `[B·T, ·]`).
//!
//! ```text
//! forward   A = softmax_rows(s Q Kᵀ, causal),  O = A V
//! backward  Ā = Ō Vᵀ,  V̄ = Aᵀ Ō,  P̄ = A ⊙ (Ā − rowsum(A ⊙ Ā)),  Q̄ = s P̄ K,  K̄ = s P̄ᵀ Q
//! ```
//! Introduced in chapter 7.

use super::rows::M;

/// The outputs `[B·T, V]` and every sequence's weights `A: [T, T]`.
#[inline(always)]
pub fn forward(q: &M, k: &M, v: &M, scale: f32, t_len: usize) -> (M, Vec<M>) {
    let mut out = M::zeros(v.nrows(), v.ncols());
    let mut weights = Vec::with_capacity(q.nrows() / t_len);
    for b in 0..q.nrows() / t_len {
        let rows = b * t_len;
        let mut a = q.rows(rows, t_len) * k.rows(rows, t_len).transpose() * scale;
        for t in 0..t_len {
            // causal: position t sees 0 ..= t
            let top = (0..=t).fold(f32::NEG_INFINITY, |m, j| m.max(a[(t, j)]));
            let mut sum = 0.0;
            for j in 0..t_len {
                let e = if j <= t { (a[(t, j)] - top).exp() } else { 0.0 };
                a[(t, j)] = e;
                sum += e;
            }
            a.row_mut(t).iter_mut().for_each(|e| *e /= sum);
        }
        out.rows_mut(rows, t_len)
            .copy_from(&(&a * v.rows(rows, t_len)));
        weights.push(a);
    }
    (out, weights)
}

/// `(q̄, k̄, v̄)` from `d_o` and the weights of [`forward`].
#[inline(always)]
pub fn backward(q: &M, k: &M, v: &M, weights: &[M], scale: f32, d_o: &M) -> (M, M, M) {
    let t_len = weights.first().map_or(1, |a| a.nrows());
    let (mut dq, mut dk, mut dv) = (
        M::zeros(q.nrows(), q.ncols()),
        M::zeros(k.nrows(), k.ncols()),
        M::zeros(v.nrows(), v.ncols()),
    );
    for (b, a) in weights.iter().enumerate() {
        let rows = b * t_len;
        let dob = d_o.rows(rows, t_len);
        let da = dob * v.rows(rows, t_len).transpose();
        dv.rows_mut(rows, t_len).copy_from(&(a.transpose() * dob));
        let mut dp = a.component_mul(&da);
        for t in 0..t_len {
            let inner: f32 = dp.row(t).sum();
            for j in 0..t_len {
                dp[(t, j)] -= a[(t, j)] * inner;
            }
        }
        dq.rows_mut(rows, t_len)
            .copy_from(&(&dp * k.rows(rows, t_len) * scale));
        dk.rows_mut(rows, t_len)
            .copy_from(&(dp.transpose() * q.rows(rows, t_len) * scale));
    }
    (dq, dk, dv)
}
