//! The stacked recall model's fast pass: the loss, gradient and accuracy of
//! a [`Stack`] computed in `f32` on a whole batch at once. The reference pass
//! ([`crate::mixer::stack`]) runs one sequence at a time in `f64`, with
//! products of `[T, ·]` matrices; this one stacks the batch's sequences row
//! after row, so every projection is one product of `[B·T, d]` by `[d, ·]`,
//! and only the convolution and the mixer go sequence by sequence
//! ([`block`]). The weights stay `f64` (Adam updates them there); each call
//! rounds them to `f32` and returns the gradient in `f64`.
//!
//! ```text
//! rows      r = b·T + t of every activation  [B·T, width]
//! loss      −(1/Q) Σ_queries ln softmax(RMSNorm_f(hᴸ)_r W_r)_y      Q = queries in the batch
//! tested    the same loss and gradient as the reference to f32's precision,
//!           and the same curve over 100 Adam steps
//! ```
//! Introduced in chapter 7.

pub mod attention;
pub mod block;
pub mod recurrence;
pub mod rows;

use rows::{M, rms_norm, rms_norm_backward};

use crate::mixer::stack::Stack;
use crate::recall::Sequence;

/// What a batch's forward pass keeps.
struct Forward {
    /// The residual stream entering each block, and after the last.
    hs: Vec<M>,
    passes: Vec<block::Pass>,
    nf: M,
    inv_f: Vec<f32>,
    /// The rows of the queries and their targets.
    queries: Vec<(usize, usize)>,
    /// `[queries, vocab]`
    logits: M,
}

/// The common length of the batch's sequences.
///
/// # Panics
/// If the batch is empty or its sequences differ in length.
fn length(batch: &[Sequence]) -> usize {
    let t_len = batch.first().expect("fast: an empty batch").tokens.len();
    assert!(
        batch.iter().all(|s| s.tokens.len() == t_len),
        "fast: the batch's sequences differ in length"
    );
    t_len
}

#[inline(always)]
fn forward(w: &Stack<f32>, batch: &[Sequence]) -> Forward {
    let t_len = length(batch);
    let mixer = w.config.mixer;
    let tokens: Vec<usize> = batch
        .iter()
        .flat_map(|s| s.tokens.iter().copied())
        .collect();
    let mut hs = vec![M::from_fn(tokens.len(), w.config.d, |r, c| {
        w.emb[(tokens[r], c)]
    })];
    let mut passes = Vec::with_capacity(w.blocks.len());
    for b in &w.blocks {
        let (h, pass) = block::forward(b, mixer, hs.last().expect("h⁰"), t_len);
        hs.push(h);
        passes.push(pass);
    }
    let (nf, inv_f) = rms_norm(hs.last().expect("hᴸ"), &w.norm_f);
    let queries: Vec<(usize, usize)> = batch
        .iter()
        .enumerate()
        .flat_map(|(b, s)| s.queries.iter().map(move |&(p, y)| (b * t_len + p, y)))
        .collect();
    let zq = M::from_fn(queries.len(), w.config.d, |i, c| nf[(queries[i].0, c)]);
    Forward {
        logits: zq * &w.w_r,
        hs,
        passes,
        nf,
        inv_f,
        queries,
    }
}

/// Row-wise softmax of the logits, and the sum of `−ln p_y`.
#[inline(always)]
fn probabilities(f: &Forward) -> (M, f64) {
    let mut p = f.logits.clone();
    let mut loss = 0.0f64;
    for (i, &(_, y)) in f.queries.iter().enumerate() {
        let mut row = p.row_mut(i);
        let top = row.max();
        row.iter_mut().for_each(|e| *e = (*e - top).exp());
        let sum = row.sum();
        row /= sum;
        loss -= f64::from(row[y].max(f32::MIN_POSITIVE)).ln();
    }
    (p, loss)
}

/// Sequences per forward and backward pass: a larger batch is taken in parts
/// of this many, so that a part's activations stay in the cache.
pub const PART: usize = 4;

fn queries(batch: &[Sequence]) -> usize {
    batch.iter().map(|s| s.queries.len()).sum()
}

/// Run `f` compiled for AVX2 and FMA where the processor has them: every
/// function of the pass is `#[inline(always)]`, so the whole of it is.
#[inline(always)]
fn vectorised<R>(f: impl FnOnce() -> R) -> R {
    /// `f()` compiled for AVX2 and FMA.
    ///
    /// # Safety
    /// The processor must support AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn avx2<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        // SAFETY: the processor supports AVX2 and FMA, checked on the line above.
        return unsafe { avx2(f) };
    }
    f()
}

/// The mean cross-entropy over every query of `batch` and its gradient, as
/// [`Stack::loss_and_grad`] computes them, in `f32`.
///
/// # Panics
/// If the batch is empty or its sequences differ in length.
pub fn loss_and_grad(model: &Stack, batch: &[Sequence]) -> (f64, Stack) {
    vectorised(|| loss_and_grad_with(model, batch))
}

#[inline(always)]
fn loss_and_grad_with(model: &Stack, batch: &[Sequence]) -> (f64, Stack) {
    let w = model.map(|m| m.map(|x| x as f32));
    let mut grad = w.map(|m| M::zeros(m.nrows(), m.ncols()));
    // ℓ̄ = (p − 1_y) / Q over the whole batch
    let scale = 1.0 / queries(batch) as f32;
    let mut total = 0.0;
    for part in batch.chunks(PART) {
        let f = forward(&w, part);
        let t_len = length(part);
        let (mut dl, loss) = probabilities(&f);
        total += loss;
        for (i, &(_, y)) in f.queries.iter().enumerate() {
            dl[(i, y)] -= 1.0;
        }
        dl *= scale;
        let zq = M::from_fn(f.queries.len(), w.config.d, |i, c| {
            f.nf[(f.queries[i].0, c)]
        });
        grad.w_r += zq.transpose() * &dl;
        let dzq = &dl * w.w_r.transpose();
        let mut dnf = M::zeros(f.nf.nrows(), f.nf.ncols());
        for (i, &(r, _)) in f.queries.iter().enumerate() {
            let mut row = dnf.row_mut(r);
            row += dzq.row(i);
        }
        let last = f.hs.last().expect("hᴸ");
        let (mut dh, dnorm_f) = rms_norm_backward(last, &w.norm_f, &f.inv_f, &dnf);
        grad.norm_f += dnorm_f;
        for (l, b) in w.blocks.iter().enumerate().rev() {
            dh = block::backward(b, &f.passes[l], &dh, t_len, &mut grad.blocks[l]);
        }
        let tokens = part.iter().flat_map(|s| s.tokens.iter().copied());
        for (r, tok) in tokens.enumerate() {
            let mut e = grad.emb.row_mut(tok);
            e += dh.row(r);
        }
    }
    (
        total / queries(batch) as f64,
        grad.map(|m| m.map(f64::from)),
    )
}

/// The mean cross-entropy over every query of `batch`, in `f32`.
pub fn mean_loss(model: &Stack, batch: &[Sequence]) -> f64 {
    vectorised(|| mean_loss_with(model, batch))
}

#[inline(always)]
fn mean_loss_with(model: &Stack, batch: &[Sequence]) -> f64 {
    let w = model.map(|m| m.map(|x| x as f32));
    let total: f64 = batch
        .chunks(PART)
        .map(|part| probabilities(&forward(&w, part)).1)
        .sum();
    total / queries(batch) as f64
}

/// Share of the queries of `set` whose largest logit is the right value, in `f32`.
pub fn accuracy(model: &Stack, set: &[Sequence]) -> f64 {
    vectorised(|| accuracy_with(model, set))
}

#[inline(always)]
fn accuracy_with(model: &Stack, set: &[Sequence]) -> f64 {
    let w = model.map(|m| m.map(|x| x as f32));
    let (mut hits, mut n) = (0, 0);
    for part in set.chunks(PART) {
        let f = forward(&w, part);
        for (i, &(_, y)) in f.queries.iter().enumerate() {
            hits += usize::from(f.logits.row(i).transpose().argmax().0 == y);
            n += 1;
        }
    }
    hits as f64 / n as f64
}
