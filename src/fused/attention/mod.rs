//! Causal softmax attention of [`crate::mixer::softmax`] in the fused pass,
//! one sequence at a time (rows `b·T … b·T + T − 1` of row-major `[rows, ·]`),
//! every product one [`gemm`] on the rows in place. Where the processor has
//! AVX2 and a sequence is whole vectors long, the weights and their
//! gradient are computed a row at a time instead ([`avx2`]): each row only
//! up to its own position, the scores in registers between the product and
//! the softmax.
//!
//! ```text
//! forward   A = softmax_rows(s Q Kᵀ, causal),  O = A V
//! backward  Ā = Ō Vᵀ,  V̄ = Aᵀ Ō,  P̄ = A ⊙ (Ā − rowsum(A ⊙ Ā)),  Q̄ = s P̄ K,  K̄ = s P̄ᵀ Q
//! ```
//! Introduced in chapter 7.

#[cfg(target_arch = "x86_64")]
pub mod avx2;

use super::gemm::{View, gemm};
use super::rows::{dot, exp, largest, sum};

/// `true` after running `avx2::f(args)`, when the processor has AVX2 and FMA
/// and the sequence is whole vectors long; `false` (nothing run) otherwise.
macro_rules! on_avx2 {
    ($t_len:expr, $f:ident($($a:expr),* $(,)?)) => {{
        #[cfg(target_arch = "x86_64")]
        let done = $t_len % 8 == 0
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            // SAFETY: the processor has AVX2 and FMA, checked on the lines above.
            && { unsafe { avx2::$f($($a),*) }; true };
        #[cfg(not(target_arch = "x86_64"))]
        let done = false;
        done
    }};
}

/// The transpose `[C, T]` of one sequence's rows `x: [T, C]`.
#[inline(always)]
fn transposed(x: &[f32], c: usize, t_len: usize) -> Vec<f32> {
    let mut out = vec![0.0; c * t_len];
    for (t, row) in x.chunks_exact(c).enumerate() {
        for (j, &e) in row.iter().enumerate() {
            out[j * t_len + t] = e;
        }
    }
    out
}

/// One sequence's weights `a: [T, T]` from its `q, k: [T, K]`:
/// `A = softmax_rows(s Q Kᵀ, causal)`, zero past the diagonal.
#[inline(always)]
pub fn weights(q: &[f32], k: &[f32], kd: usize, t_len: usize, a: &mut [f32]) {
    let scale = 1.0 / (kd as f32).sqrt();
    if !on_avx2!(
        t_len,
        weights(q, &transposed(k, kd, t_len), kd, t_len, scale, a)
    ) {
        weights_with(q, k, kd, t_len, a);
    }
}

/// The portable [`weights`]: the scores by one product, then the rows.
#[inline(always)]
pub fn weights_with(q: &[f32], k: &[f32], kd: usize, t_len: usize, a: &mut [f32]) {
    let scale = 1.0 / (kd as f32).sqrt();
    gemm(
        View::rows(q, t_len, kd),
        View::rows(k, t_len, kd).t(),
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
}

/// One sequence's `P̄ = s A ⊙ (Ā − rowsum(A ⊙ Ā))`, `Ā = Ō Vᵀ`, into
/// `dp: [T, T]`, from its `ō, v: [T, V]` and weights `a` (the scale of the
/// scores folded in), zero past the diagonal.
#[inline(always)]
pub fn scores_backward(d_o: &[f32], v: &[f32], a: &[f32], kd: usize, t_len: usize, dp: &mut [f32]) {
    let (scale, vd) = (1.0 / (kd as f32).sqrt(), v.len() / t_len);
    if !on_avx2!(
        t_len,
        scores_backward(d_o, &transposed(v, vd, t_len), a, vd, t_len, scale, dp)
    ) {
        scores_backward_with(d_o, v, a, kd, t_len, dp);
    }
}

/// The portable [`scores_backward`]: `Ā` by one product, then the rows.
#[inline(always)]
pub fn scores_backward_with(
    d_o: &[f32],
    v: &[f32],
    a: &[f32],
    kd: usize,
    t_len: usize,
    dp: &mut [f32],
) {
    let (scale, vd) = (1.0 / (kd as f32).sqrt(), v.len() / t_len);
    gemm(
        View::rows(d_o, t_len, vd),
        View::rows(v, t_len, vd).t(),
        dp,
        false,
    );
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
}

vectorised! {
    /// The outputs `[rows, V]` and every sequence's weights `A: [T, T]` side by side.
    pub fn forward(q: &[f32], k: &[f32], v: &[f32], kd: usize, t_len: usize) -> (Vec<f32>, Vec<f32>) = forward_in;
}

#[inline(always)]
fn forward_in(q: &[f32], k: &[f32], v: &[f32], kd: usize, t_len: usize) -> (Vec<f32>, Vec<f32>) {
    let rows = q.len() / kd;
    let vd = v.len() / rows;
    let tt = t_len * t_len;
    let mut weights = vec![0.0; rows / t_len * tt];
    let mut out = vec![0.0; rows * vd];
    for (b, a) in weights.chunks_exact_mut(tt).enumerate() {
        let at = b * t_len * kd;
        self::weights(&q[at..][..t_len * kd], &k[at..][..t_len * kd], kd, t_len, a);
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
    let tt = t_len * t_len;
    let (mut dq, mut dk, mut dv) = (vec![0.0; q.len()], vec![0.0; k.len()], vec![0.0; v.len()]);
    let mut dp = vec![0.0; tt];
    for (b, a) in weights.chunks_exact(tt).enumerate() {
        let (kq, kv) = (b * t_len * kd, b * t_len * vd);
        // V̄ = Aᵀ Ō;  P̄ (with Ā = Ō Vᵀ)
        gemm(
            View::rows(a, t_len, t_len).t(),
            at(d_o, kv, vd, t_len),
            &mut dv[kv..][..t_len * vd],
            false,
        );
        let (ob, vb) = (&d_o[kv..][..t_len * vd], &v[kv..][..t_len * vd]);
        scores_backward(ob, vb, a, kd, t_len, &mut dp);
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
