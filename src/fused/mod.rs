//! The stacked recall model's fused pass: the loss, gradient and accuracy of
//! a [`Stack`] in `f32` on a whole batch, as [`crate::mixer::fast`] computes
//! them, with its activations row-major so that each row-wise step is one
//! pass over contiguous rows, and its products read their operands in place
//! by strides ([`mod@gemm`]), with no copy to transpose them. Each block's
//! forward and backward pass and each mixer kernel is a function of its own,
//! compiled for AVX2 where the processor has it (the macro `vectorised!`),
//! and again with AVX-512VL's thirty-two registers where it has those
//! ([`wide`]; the intrinsics kernels likewise, by the macro `kernel!`).
//! The mixers' recurrences advance eight sequences at a
//! time, one in each lane of a vector, or at `K = V = 8` one sequence at a
//! time with its state in registers ([`mod@recurrence`]). The row steps
//! that sum across a row run in AVX2 intrinsics where they can
//! ([`rows::avx2`]), held to their portable twins by a test.
//!
//! It stands beside the fast pass, not in its place, while the long
//! experiment's findings (`findings/mqar-budget.json`) come from the fast
//! pass: their hash covers `src/mixer`, so the fast pass cannot change until
//! the experiment is rerun. Until then the few helpers both need (`length`,
//! `queries`, an eight-lane `dot`) are written in both. The fast pass's own
//! `vectorised` takes a closure, and a closure is compiled apart from the
//! function that calls it, without its features: the fast pass runs at the
//! baseline's (SSE2) vector width, and stays so while its code is hashed.
//!
//! ```text
//! rows      r = b·T + t of every activation  [B·T, width], taken PART sequences at a time
//! loss      −(1/Q) Σ_queries ln softmax(RMSNorm_f(hᴸ)_r W_r)_y      Q = queries in the batch
//! tested    the same loss and gradient as the reference to f32's precision,
//!           and the same curve over 100 Adam steps
//! ```
//! Introduced in chapter 7.

/// `$vis fn $name(args) -> R`, running `$body` (an `#[inline(always)]`
/// function of the same arguments) compiled for AVX2 and FMA where the
/// processor has them (with AVX-512VL's registers where it has those too,
/// see [`wide`]), and for the baseline elsewhere. Each is a function of
/// its own, never inlined into its caller, so that no one function grows past
/// what the compiler will inline and vectorise: the pass declares one per
/// piece (a block's forward and backward, a mixer's kernel, the model's top).
/// A closure would not do: it is compiled apart from the function that calls
/// it, without that function's features.
macro_rules! vectorised {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($a:ident: $t:ty),* $(,)?) -> $r:ty = $body:path;) => {
        $(#[$m])*
        $vis fn $name($($a: $t),*) -> $r {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma")]
            #[inline(never)]
            fn avx2($($a: $t),*) -> $r {
                $body($($a),*)
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
            #[inline(never)]
            fn wide($($a: $t),*) -> $r {
                $body($($a),*)
            }
            #[cfg(target_arch = "x86_64")]
            if $crate::fused::wide() {
                // SAFETY: the processor has AVX2, FMA and AVX-512VL, checked by `wide`.
                return unsafe { wide($($a),*) };
            }
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
                // SAFETY: the processor has AVX2 and FMA, checked on the line above.
                return unsafe { avx2($($a),*) };
            }
            $body($($a),*)
        }
    };
}

/// An intrinsics kernel `unsafe fn $name(args) -> R { body }` whose caller
/// has checked for AVX2 and FMA, compiled twice: as written, and with
/// AVX-512VL's features where the processor has them ([`wide`]). Its
/// `#[inline]` helpers, written for AVX2, are inlined into both.
macro_rules! kernel {
    ($(#[$m:meta])* $vis:vis unsafe fn $name:ident $(<$(const $c:ident: usize),+>)?
        ($($a:ident: $t:ty),* $(,)?) $(-> $r:ty)? $body:block) => {
        $(#[$m])*
        #[inline(always)]
        $vis unsafe fn $name $(<$(const $c: usize),+>)? ($($a: $t),*) $(-> $r)? {
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2 $(<$(const $c: usize),+>)? ($($a: $t),*) $(-> $r)? $body
            #[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
            unsafe fn wide $(<$(const $c: usize),+>)? ($($a: $t),*) $(-> $r)? $body
            // SAFETY: the caller checked for AVX2 and FMA; `wide` runs only
            // where the processor has AVX-512VL too.
            unsafe {
                match $crate::fused::wide() {
                    true => wide $(::<$($c),+>)? ($($a),*),
                    false => avx2 $(::<$($c),+>)? ($($a),*),
                }
            }
        }
    };
}

pub mod attention;
pub mod block;
pub mod gemm;
pub mod model;
pub mod pass;
pub mod recurrence;
pub mod rows;
pub mod spare;
pub mod trainer;
pub mod weights;

thread_local! {
    /// Whether this thread may run the kernels compiled for AVX-512VL.
    static WIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether the kernels run compiled with AVX-512VL's features: where the
/// processor has AVX2, FMA, AVX-512F and AVX-512VL (and this thread has not
/// turned them off, see [`narrow`]). Their vectors stay 256 bits wide; what
/// they gain is thirty-two vector registers instead of sixteen, so that a
/// kernel's accumulators and operands stop spilling to the stack.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn wide() -> bool {
    WIDE.get()
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("fma")
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
}

/// Runs `f` on this thread with the kernels compiled for AVX2 alone, as on
/// a processor without AVX-512 (so that a test covers both builds).
pub fn narrow<R>(f: impl FnOnce() -> R) -> R {
    let was = WIDE.replace(false);
    let out = f();
    WIDE.set(was);
    out
}

use gemm::{View, gemm};
use model::Model;
use rows::{rms_norm, rms_norm_backward};

use crate::mixer::objective::Gradients;
use crate::mixer::stack::Stack;
use crate::recall::Sequence;

/// The fused pass, as a [`Gradients`] for the trainer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fused;

impl Gradients<Stack> for Fused {
    fn loss_and_grad(&self, model: &Stack, batch: &[Sequence]) -> (f64, Stack) {
        loss_and_grad(model, batch)
    }

    fn accuracy(&self, model: &Stack, set: &[Sequence]) -> f64 {
        accuracy(model, set)
    }
}

/// Sequences per forward and backward pass: a larger batch is taken in parts
/// of this many, so that a part's activations stay in the cache.
pub const PART: usize = 8;

/// What a part's forward pass keeps.
struct Forward {
    /// The residual stream entering each block, and after the last (at the
    /// queries alone).
    hs: Vec<Vec<f32>>,
    passes: Vec<pass::Pass>,
    /// `[queries, d]`: the final norm's rows (at the queries).
    zq: Vec<f32>,
    inv_f: Vec<f32>,
    /// The rows of the queries and their targets.
    queries: Vec<(usize, usize)>,
    /// `[queries, vocab]`
    logits: Vec<f32>,
}

/// A part's buffers go back to [`spare`] when its pass ends.
impl Drop for Forward {
    fn drop(&mut self) {
        for h in self.hs.drain(..) {
            spare::give(h);
        }
        for b in [&mut self.zq, &mut self.inv_f, &mut self.logits] {
            spare::give(std::mem::take(b));
        }
    }
}

/// The common length of the batch's sequences.
///
/// # Panics
/// If the batch is empty or its sequences differ in length.
fn length(batch: &[Sequence]) -> usize {
    let t_len = batch.first().expect("fused: an empty batch").tokens.len();
    assert!(
        batch.iter().all(|s| s.tokens.len() == t_len),
        "fused: the batch's sequences differ in length"
    );
    t_len
}

#[inline(always)]
fn forward(w: &Model, part: &[Sequence]) -> Forward {
    let (t_len, d) = (length(part), w.d);
    assert!(!w.blocks.is_empty(), "fused: a model without blocks");
    let mut h0 = Vec::with_capacity(part.len() * t_len * d);
    for &tok in part.iter().flat_map(|s| &s.tokens) {
        h0.extend_from_slice(&w.emb[tok * d..][..d]);
    }
    let queries: Vec<(usize, usize)> = part
        .iter()
        .enumerate()
        .flat_map(|(b, s)| s.queries.iter().map(move |&(p, y)| (b * t_len + p, y)))
        .collect();
    let rows: Vec<usize> = queries.iter().map(|&(r, _)| r).collect();
    let mut hs = vec![h0];
    let mut passes = Vec::with_capacity(w.blocks.len());
    for (l, b) in w.blocks.iter().enumerate() {
        // the loss reads hᴸ at the queries alone, so the last block keeps only those rows
        let kept = (l + 1 == w.blocks.len()).then_some(&rows[..]);
        let (h, pass) = block::forward(b, hs.last().expect("h⁰"), t_len, kept);
        hs.push(h);
        passes.push(pass);
    }
    // [queries, d]
    let (zq, inv_f) = rms_norm(hs.last().expect("hᴸ"), &w.norm_f);
    let mut logits = vec![0.0; queries.len() * w.vocab];
    let nq = queries.len();
    gemm(
        View::rows(&zq, nq, d),
        View::columns(&w.w_r, d, w.vocab),
        &mut logits,
        false,
    );
    Forward {
        hs,
        passes,
        zq,
        inv_f,
        queries,
        logits,
    }
}

/// Row-wise softmax of the logits, in place, and the sum of `−ln p_y`.
#[inline(always)]
fn probabilities(f: &mut Forward, vocab: usize) -> f64 {
    let mut loss = 0.0f64;
    for (row, &(_, y)) in f.logits.chunks_exact_mut(vocab).zip(&f.queries) {
        let top = rows::largest(row);
        row.iter_mut().for_each(|e| *e = rows::exp(*e - top));
        let inv = 1.0 / rows::sum(row);
        row.iter_mut().for_each(|e| *e *= inv);
        loss -= f64::from(row[y].max(f32::MIN_POSITIVE)).ln();
    }
    loss
}

/// Asks glibc to keep the memory a pass frees, once per process. By default
/// it hands back to the system whatever lies free above 128 KB at the top of
/// its heap, and the next pass faults it back in page by page: at batch 16
/// that was a third of a step. The pass allocates its activations afresh
/// each time, so it keeps up to 64 MB instead.
pub(crate) fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: mallopt only sets two of the allocator's parameters.
            unsafe {
                libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 26);
                libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 24);
            }
        });
    }
}

fn queries(batch: &[Sequence]) -> usize {
    batch.iter().map(|s| s.queries.len()).sum()
}

vectorised! {
    /// The mean cross-entropy over every query of `batch` and its gradient, as
    /// [`Stack::loss_and_grad`] computes them, in `f32`.
    ///
    /// # Panics
    /// If the batch is empty or its sequences differ in length.
    pub fn loss_and_grad(model: &Stack, batch: &[Sequence]) -> (f64, Stack) = loss_and_grad_with;
}

#[inline(always)]
fn loss_and_grad_with(model: &Stack, batch: &[Sequence]) -> (f64, Stack) {
    let w = Model::of(model);
    let mut grad = w.zeros();
    let loss = gradient_with(&w, batch, &mut grad);
    (loss, grad.to_stack(model))
}

vectorised! {
    /// The mean cross-entropy over every query of `batch`; adds its gradient
    /// into `grad` (in `w`'s layout).
    ///
    /// # Panics
    /// If the batch is empty or its sequences differ in length.
    pub(crate) fn gradient(w: &Model, batch: &[Sequence], grad: &mut Model) -> f64 = gradient_with;
}

#[inline(always)]
fn gradient_with(w: &Model, batch: &[Sequence], grad: &mut Model) -> f64 {
    let (d, vocab) = (w.d, w.vocab);
    // ℓ̄ = (p − 1_y) / Q over the whole batch
    let scale = 1.0 / queries(batch) as f32;
    let mut total = 0.0;
    for part in batch.chunks(PART) {
        let mut f = forward(w, part);
        let t_len = length(part);
        total += probabilities(&mut f, vocab);
        let dl = &mut f.logits;
        for (row, &(_, y)) in dl.chunks_exact_mut(vocab).zip(&f.queries) {
            row[y] -= 1.0;
            row.iter_mut().for_each(|e| *e *= scale);
        }
        // W̄_r = zqᵀ ℓ̄;  z̄q = ℓ̄ W_rᵀ
        let dzq = gemm::linear_backward(&f.zq, &w.w_r, dl, d, &mut grad.w_r);
        let last = f.hs.last().expect("hᴸ");
        let mut dh = rms_norm_backward(last, &w.norm_f, &f.inv_f, &dzq, &mut grad.norm_f);
        for (l, b) in w.blocks.iter().enumerate().rev() {
            let next = block::backward(b, &f.passes[l], &f.hs[l], &dh, t_len, &mut grad.blocks[l]);
            spare::give(std::mem::replace(&mut dh, next));
        }
        let tokens = part.iter().flat_map(|s| s.tokens.iter());
        for (&tok, dr) in tokens.zip(dh.chunks_exact(d)) {
            for (a, &b) in grad.emb[tok * d..][..d].iter_mut().zip(dr) {
                *a += b;
            }
        }
        spare::give(dh);
    }
    total / queries(batch) as f64
}

vectorised! {
    /// The mean cross-entropy over every query of `batch`, in `f32`.
    pub fn mean_loss(model: &Stack, batch: &[Sequence]) -> f64 = mean_loss_with;
}

#[inline(always)]
fn mean_loss_with(model: &Stack, batch: &[Sequence]) -> f64 {
    let w = Model::of(model);
    let total: f64 = batch
        .chunks(PART)
        .map(|part| probabilities(&mut forward(&w, part), w.vocab))
        .sum();
    total / queries(batch) as f64
}

vectorised! {
    /// Share of the queries of `set` whose largest logit is the right value, in `f32`.
    pub fn accuracy(model: &Stack, set: &[Sequence]) -> f64 = accuracy_with;
}

#[inline(always)]
fn accuracy_with(model: &Stack, set: &[Sequence]) -> f64 {
    hits_with(&Model::of(model), set)
}

vectorised! {
    /// Share of the queries of `set` whose largest logit is the right value.
    pub(crate) fn hits(w: &Model, set: &[Sequence]) -> f64 = hits_with;
}

#[inline(always)]
fn hits_with(w: &Model, set: &[Sequence]) -> f64 {
    let (mut hits, mut n) = (0, 0);
    for part in set.chunks(PART) {
        let f = forward(w, part);
        for (row, &(_, y)) in f.logits.chunks_exact(w.vocab).zip(&f.queries) {
            let best = (0..w.vocab).fold(0, |b, j| if row[j] > row[b] { j } else { b });
            hits += usize::from(best == y);
            n += 1;
        }
    }
    hits as f64 / n as f64
}
