//! Causal softmax attention of [`crate::mixer::softmax`] in the fused pass,
//! one sequence at a time (rows `b·T … b·T + T − 1` of row-major `[rows, ·]`),
//! every product one [`gemm`] on the rows in place.
//!
//! ```text
//! forward   A = softmax_rows(s Q Kᵀ, causal),  O = A V
//! backward  Ā = Ō Vᵀ,  V̄ = Aᵀ Ō,  P̄ = A ⊙ (Ā − rowsum(A ⊙ Ā)),  Q̄ = s P̄ K,  K̄ = s P̄ᵀ Q
//! ```
//! Introduced in chapter 7.

use super::gemm::{View, gemm};
use super::rows::{dot, exp, sum};

/// The largest number of `x`, taken eight lanes at a time.
#[inline(always)]
fn largest(x: &[f32]) -> f32 {
    let (chunks, tail) = x.as_chunks::<8>();
    let lanes = chunks.iter().fold([f32::NEG_INFINITY; 8], |m, c| {
        std::array::from_fn(|l| if c[l] > m[l] { c[l] } else { m[l] })
    });
    tail.iter()
        .chain(&lanes)
        .fold(f32::NEG_INFINITY, |m, &x| if x > m { x } else { m })
}

vectorised! {
    /// The outputs `[rows, V]` and every sequence's weights `A: [T, T]` side by side.
    pub fn forward(q: &[f32], k: &[f32], v: &[f32], kd: usize, t_len: usize) -> (Vec<f32>, Vec<f32>) = forward_in;
}

#[inline(always)]
fn forward_in(q: &[f32], k: &[f32], v: &[f32], kd: usize, t_len: usize) -> (Vec<f32>, Vec<f32>) {
    let rows = q.len() / kd;
    let vd = v.len() / rows;
    let scale = 1.0 / (kd as f32).sqrt();
    let tt = t_len * t_len;
    let mut weights = vec![0.0; rows / t_len * tt];
    let mut out = vec![0.0; rows * vd];
    for (b, a) in weights.chunks_exact_mut(tt).enumerate() {
        let (qb, kb) = (
            &q[b * t_len * kd..][..t_len * kd],
            &k[b * t_len * kd..][..t_len * kd],
        );
        gemm(
            View::rows(qb, t_len, kd),
            View::rows(kb, t_len, kd).t(),
            a,
            false,
        );
        for (t, row) in a.chunks_exact_mut(t_len).enumerate() {
            // causal: position t sees 0 ..= t; the row is taken in whole
            // vectors up to `end`, its numbers past t set to zero after `exp`
            let end = (t + 1).next_multiple_of(8).min(t_len);
            let (head, rest) = row.split_at_mut(end);
            let top = largest(&head[..=t]);
            head.iter_mut().for_each(|e| *e = exp(scale * (*e - top)));
            head[t + 1..].fill(0.0);
            let inv = 1.0 / sum(head);
            head.iter_mut().for_each(|e| *e *= inv);
            rest.fill(0.0);
        }
        let vb = &v[b * t_len * vd..][..t_len * vd];
        let ob = &mut out[b * t_len * vd..][..t_len * vd];
        gemm(
            View::rows(a, t_len, t_len),
            View::rows(vb, t_len, vd),
            ob,
            false,
        );
    }
    (out, weights)
}

/// Rows `from / width ..` of the row-major `x: [·, width]`, one sequence's `T` of them.
fn at(x: &[f32], from: usize, width: usize, t_len: usize) -> View<'_> {
    View::rows(&x[from..][..t_len * width], t_len, width)
}

vectorised! {
    /// `(q̄, k̄, v̄)` from `ō: [rows, V]` and the weights of [`forward`].
    pub fn backward(
        q: &[f32],
        k: &[f32],
        v: &[f32],
        weights: &[f32],
        kd: usize,
        t_len: usize,
        d_o: &[f32],
    ) -> (Vec<f32>, Vec<f32>, Vec<f32>) = backward_in;
}

#[inline(always)]
fn backward_in(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    weights: &[f32],
    kd: usize,
    t_len: usize,
    d_o: &[f32],
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let rows = q.len() / kd;
    let vd = v.len() / rows;
    let scale = 1.0 / (kd as f32).sqrt();
    let tt = t_len * t_len;
    let (mut dq, mut dk, mut dv) = (vec![0.0; q.len()], vec![0.0; k.len()], vec![0.0; v.len()]);
    let mut dp = vec![0.0; tt];
    for (b, a) in weights.chunks_exact(tt).enumerate() {
        let (kq, kv) = (b * t_len * kd, b * t_len * vd);
        // Ā = Ō Vᵀ;  V̄ = Aᵀ Ō
        gemm(
            at(d_o, kv, vd, t_len),
            at(v, kv, vd, t_len).t(),
            &mut dp,
            false,
        );
        let a_view = View::rows(a, t_len, t_len);
        gemm(
            a_view.t(),
            at(d_o, kv, vd, t_len),
            &mut dv[kv..][..t_len * vd],
            false,
        );
        // P̄ = s A ⊙ (Ā − rowsum(A ⊙ Ā))  (the scale of the scores folded in)
        for (t, (dr, ar)) in dp
            .chunks_exact_mut(t_len)
            .zip(a.chunks_exact(t_len))
            .enumerate()
        {
            // causal: A is zero past t, and so is P̄ (in whole vectors up to `end`)
            let end = (t + 1).next_multiple_of(8).min(t_len);
            let (head, rest) = dr.split_at_mut(end);
            let inner = dot(head, &ar[..end]);
            head.iter_mut()
                .zip(ar)
                .for_each(|(x, &y)| *x = scale * y * (*x - inner));
            rest.fill(0.0);
        }
        let p_view = View::rows(&dp, t_len, t_len);
        gemm(
            p_view,
            at(k, kq, kd, t_len),
            &mut dq[kq..][..t_len * kd],
            false,
        );
        gemm(
            p_view.t(),
            at(q, kq, kd, t_len),
            &mut dk[kq..][..t_len * kd],
            false,
        );
    }
    (dq, dk, dv)
}
