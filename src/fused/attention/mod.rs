//! Causal softmax attention of [`crate::mixer::softmax`] in the fused pass,
//! one sequence at a time (rows `b·T … b·T + T − 1` of row-major `[rows, ·]`),
//! read at every row or only at the rows kept after the block (the last
//! block's queries): the weights, outputs and their gradients exist only at
//! the rows read, while every row's key and value is attended to. Every
//! product is one [`gemm`] per sequence; those with `A` or `P̄` skip the
//! causal zeros (`View::zero_past`), half of them when every row is read.
//! Where the processor has
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
use super::rows::{dot, exp, largest, pick, put_add, sum};
use super::spare;

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
    let mut out = spare::take(c * t_len);
    for (j, column) in out.chunks_exact_mut(t_len).enumerate() {
        for (e, row) in column.iter_mut().zip(x.chunks_exact(c)) {
            *e = row[j];
        }
    }
    out
}

/// One sequence's weights `a: [n, T]` from `q: [n, K]`, its row `i` at
/// position `ts[i]`, and `k: [T, K]`: `A = softmax_rows(s Q Kᵀ, causal)`,
/// row `i` zero past `ts[i]`.
#[inline(always)]
pub fn weights(q: &[f32], k: &[f32], kd: usize, t_len: usize, ts: &[usize], a: &mut [f32]) {
    let (scale, kt) = (1.0 / (kd as f32).sqrt(), transposed(k, kd, t_len));
    let done = on_avx2!(t_len, weights(q, &kt, kd, t_len, ts, scale, a));
    spare::give(kt);
    if !done {
        weights_with(q, k, kd, t_len, ts, a);
    }
}

/// The portable [`weights`]: the scores by one product, then the rows.
#[inline(always)]
pub fn weights_with(q: &[f32], k: &[f32], kd: usize, t_len: usize, ts: &[usize], a: &mut [f32]) {
    let scale = 1.0 / (kd as f32).sqrt();
    gemm(
        View::rows(q, ts.len(), kd),
        View::rows(k, t_len, kd).t(),
        a,
        false,
    );
    for (row, &t) in a.chunks_exact_mut(t_len).zip(ts) {
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
/// `dp: [n, T]`, from `ō: [n, V]` (row `i` at position `ts[i]`), the
/// sequence's `v: [T, V]` and the weights `a: [n, T]` (the scale of the
/// scores folded in), zero past each row's position.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn scores_backward(
    d_o: &[f32],
    v: &[f32],
    a: &[f32],
    kd: usize,
    t_len: usize,
    ts: &[usize],
    dp: &mut [f32],
) {
    let (scale, vd) = (1.0 / (kd as f32).sqrt(), v.len() / t_len);
    let vt = transposed(v, vd, t_len);
    let done = on_avx2!(
        t_len,
        scores_backward(d_o, &vt, a, vd, t_len, ts, scale, dp)
    );
    spare::give(vt);
    if !done {
        scores_backward_with(d_o, v, a, kd, t_len, ts, dp);
    }
}

/// The portable [`scores_backward`]: `Ā` by one product, then the rows.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn scores_backward_with(
    d_o: &[f32],
    v: &[f32],
    a: &[f32],
    kd: usize,
    t_len: usize,
    ts: &[usize],
    dp: &mut [f32],
) {
    let (scale, vd) = (1.0 / (kd as f32).sqrt(), v.len() / t_len);
    gemm(
        View::rows(d_o, ts.len(), vd),
        View::rows(v, t_len, vd).t(),
        dp,
        false,
    );
    for ((dr, ar), &t) in dp
        .chunks_exact_mut(t_len)
        .zip(a.chunks_exact(t_len))
        .zip(ts)
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

/// The rows read, a run per sequence: `(b, positions, rows)`, the rows
/// `b·T + t` in the order given (every row of every sequence when none are
/// given). A sequence whose rows are not together makes several runs.
fn runs(rows: usize, t_len: usize, read: Option<&[usize]>) -> Vec<(usize, Vec<usize>, Vec<usize>)> {
    let all: Vec<usize>;
    let read = match read {
        Some(r) => r,
        None => {
            all = (0..rows).collect();
            &all
        }
    };
    read.chunk_by(|x, y| x / t_len == y / t_len)
        .map(|run| {
            let ts = run.iter().map(|r| r % t_len).collect();
            (run[0] / t_len, ts, run.to_vec())
        })
        .collect()
}

/// Where sequence `b`'s `T` rows lie in a row-major `[·, width]`.
fn span(b: usize, width: usize, t_len: usize) -> std::ops::Range<usize> {
    b * t_len * width..(b + 1) * t_len * width
}

/// Sequence `b`'s `T` rows of the row-major `x: [·, width]`.
fn sequence(x: &[f32], b: usize, width: usize, t_len: usize) -> &[f32] {
    &x[span(b, width, t_len)]
}

/// What attention reads: every row's `q: [rows, K]`, `k: [rows, K]` and
/// `v: [rows, V]` (row-major, sequences of `t_len` rows), and the rows it is
/// read at (none: every row).
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    pub q: &'a [f32],
    pub k: &'a [f32],
    pub v: &'a [f32],
    pub kd: usize,
    pub t_len: usize,
    pub read: Option<&'a [usize]>,
}

vectorised! {
    /// The outputs `[n, V]` at the rows read (`n = rows` when every row is)
    /// and their weights `A: [n, T]`, each row over its own sequence.
    pub fn forward(x: &Inputs) -> (Vec<f32>, Vec<f32>) = forward_in;
}

#[inline(always)]
fn forward_in(x: &Inputs) -> (Vec<f32>, Vec<f32>) {
    let Inputs {
        q,
        k,
        v,
        kd,
        t_len,
        read,
    } = *x;
    let rows = q.len() / kd;
    let vd = v.len() / rows;
    let n = read.map_or(rows, <[usize]>::len);
    let (mut weights, mut out) = (spare::take(n * t_len), spare::take(n * vd));
    let mut at = 0;
    for (b, ts, rs) in runs(rows, t_len, read) {
        let a = &mut weights[at * t_len..][..ts.len() * t_len];
        self::weights(
            &pick(q, kd, 0, kd, &rs),
            sequence(k, b, kd, t_len),
            kd,
            t_len,
            &ts,
            a,
        );
        gemm(
            View::rows(a, ts.len(), t_len).zero_past(&ts),
            View::rows(sequence(v, b, vd, t_len), t_len, vd),
            &mut out[at * vd..][..ts.len() * vd],
            false,
        );
        at += ts.len();
    }
    (out, weights)
}

vectorised! {
    /// `(q̄, k̄, v̄)` at every row from `ō: [n, V]` at the rows read and the
    /// weights of [`forward`]; `q̄` is zero at the rows not read.
    pub fn backward(x: &Inputs, weights: &[f32], d_o: &[f32]) -> (Vec<f32>, Vec<f32>, Vec<f32>) = backward_in;
}

#[inline(always)]
fn backward_in(x: &Inputs, weights: &[f32], d_o: &[f32]) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let Inputs {
        q,
        k,
        v,
        kd,
        t_len,
        read,
    } = *x;
    let rows = q.len() / kd;
    let vd = v.len() / rows;
    let (mut dq, mut dk, mut dv) = (vec![0.0; q.len()], vec![0.0; k.len()], vec![0.0; v.len()]);
    let mut at = 0;
    for (b, ts, rs) in runs(rows, t_len, read) {
        let n = ts.len();
        let a = View::rows(&weights[at * t_len..][..n * t_len], n, t_len).zero_past(&ts);
        let ob = &d_o[at * vd..][..n * vd];
        // V̄ += Aᵀ Ō;  P̄ (with Ā = Ō Vᵀ)
        gemm(
            a.t(),
            View::rows(ob, n, vd),
            &mut dv[span(b, vd, t_len)],
            true,
        );
        let mut dp = spare::take(n * t_len);
        scores_backward(
            ob,
            sequence(v, b, vd, t_len),
            a.data,
            kd,
            t_len,
            &ts,
            &mut dp,
        );
        let p = View::rows(&dp, n, t_len).zero_past(&ts);
        // Q̄ = P̄ K at the rows read;  K̄ += P̄ᵀ Q
        let mut dqg = spare::take(n * kd);
        gemm(
            p,
            View::rows(sequence(k, b, kd, t_len), t_len, kd),
            &mut dqg,
            false,
        );
        put_add(&mut dq, kd, 0, &dqg, &rs);
        let qg = pick(q, kd, 0, kd, &rs);
        gemm(
            p.t(),
            View::rows(&qg, n, kd),
            &mut dk[span(b, kd, t_len)],
            true,
        );
        for buffer in [dp, dqg, qg] {
            spare::give(buffer);
        }
        at += n;
    }
    (dq, dk, dv)
}
