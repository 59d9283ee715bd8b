//! KDA's recurrence fused into one pass over the state per step.
//!
//! Column `j` of `S: [K, V]` (one value channel, contiguous in nalgebra's
//! column-major storage) evolves on its own: with `c_j = β_t (v_t[j] − (k_t ⊙ α_t)·s_j)`,
//!
//! ```text
//! s_j ← α_t ⊙ s_j + c_j k_t,        o_t[j] = (s q_t ⊙ α_t)·s_j + c_j (s q_t · k_t)
//! ```
//! where both dot products read the state *before* step `t` writes. So one
//! sweep over `s_j` finishes step `t − 1`'s write and takes step `t`'s two
//! dot products from the values it has just written: one read and one write
//! of the state per step. Columns never meet, so a panel of them small
//! enough for L1 ([`PANEL_BYTES`]) runs all of a block's [`STEPS`] steps
//! before the next panel starts: the state leaves L1 once per block, not once
//! per step, and each step's `[K]` vectors `α, k, k ⊙ α, q ⊙ α` are read
//! once per panel. Every column does the same arithmetic in the same order
//! whatever the panels, so the results do not depend on them.

use nalgebra::{DMatrix, DVector};

use super::args::{Args, Decay};
use super::block::{Block, step};
use super::lanes::{L, Lanes};
use super::prefetch::Runs;
use super::wide::Wide;

pub use super::block::STEPS;

/// KDA's recurrence in one pass over the state per step, on the machine's vector units.
///
/// The same arguments and result as [`super::kda`], equal to it up to rounding:
/// ```text
/// S' = Diag(exp(g_t)) S_{t-1},    S_t = S' + β_t k_t (v_t − S'ᵀ k_t)ᵀ,    o_t = S_tᵀ (scale · q_t)
/// ```
/// No allocation per step and no transposed copy of the inputs. On x86-64
/// the loop is compiled for the best vector units detected at run time, as
/// `matrixmultiply` does: eight-lane AVX-512 (`#[target_feature(enable =
/// "avx512f,avx2,fma")]`, its `α = eᵍ` by its own polynomial, within an ulp
/// or two of [`f64::exp`]), else four-lane AVX2 with FMA; elsewhere the same
/// loop runs portable, with a separate multiply and add.
///
/// # Shapes
/// `q, k, g: [T, K]`, `v: [T, V]`, `beta: [T]`, `initial_state: [K, V]` →
/// `(outputs [T, V], final_state [K, V])`.
///
/// # Panics
/// If the shapes disagree; the message names them.
///
/// ```
/// use attention_geometry::delta::{kda, kda_fused, DeltaInput};
/// let x = DeltaInput::random(3, 40, 9, 5, 1.0);
/// let (q, k, v, beta) = (x.q(), x.k(), x.v(), x.beta());
/// let g = x.k().map(|_| -0.1);
/// let (o1, s1) = kda(q, k, v, &g, beta, 0.3, x.initial_state());
/// let (o2, s2) = kda_fused(q, k, v, &g, beta, 0.3, x.initial_state());
/// assert!((o1 - o2).amax() < 1e-12 && (s1 - s2).amax() < 1e-12);
/// ```
///
/// Introduced in chapter 7.
pub fn kda_fused(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    g: &DMatrix<f64>,
    beta: &DVector<f64>,
    scale: f64,
    initial_state: Option<&DMatrix<f64>>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let x = Args {
        q,
        k,
        v,
        decay: Decay::Channel(g),
        beta: Some(beta),
        scale,
        initial_state,
    };
    run(&x.checked("kda_fused"), 1)
}

/// The fused recurrence on checked inputs, the value channels split over `threads`.
pub fn run(x: &Args, threads: usize) -> (DMatrix<f64>, DMatrix<f64>) {
    assert!(
        threads >= 1,
        "kda_fused: threads must be at least 1 (got 0)"
    );
    let (t_len, kd, vd) = x.dims();
    let mut s = x.start_state();
    let mut out = DMatrix::zeros(t_len, vd);
    if t_len == 0 || kd == 0 || vd == 0 {
        return (out, s);
    }
    // columns j0..j0 + n: state s[j0 K..], outputs out[j0 T..] (both column-major)
    let per = vd.div_ceil(threads);
    let blocks = s
        .as_mut_slice()
        .chunks_mut(per * kd)
        .zip(out.as_mut_slice().chunks_mut(per * t_len))
        .enumerate();
    if threads == 1 {
        blocks.for_each(|(i, (s, o))| columns(x, i * per, s, o));
    } else {
        std::thread::scope(|scope| {
            for (i, (s, o)) in blocks {
                scope.spawn(move || columns(x, i * per, s, o));
            }
        });
    }
    (out, s)
}

/// Run the recurrence for the value channels `j0..` held in `s` and `out`,
/// on AVX-512, else AVX2/FMA, where the processor has them.
fn columns(x: &Args, j0: usize, s: &mut [f64], out: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if super::wide::has_avx512() {
        // SAFETY: the processor supports AVX-512F, AVX2 and FMA (has_avx512, above).
        return unsafe { columns_avx512(x, j0, s, out) };
    }
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        // SAFETY: the processor supports AVX2 and FMA, checked on the line above.
        return unsafe { columns_avx2(x, j0, s, out) };
    }
    columns_with::<[f64; L]>(x, j0, s, out)
}

/// [`columns_with`] compiled for AVX2 and FMA.
///
/// # Safety
/// The processor must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn columns_avx2(x: &Args, j0: usize, s: &mut [f64], out: &mut [f64]) {
    columns_with::<super::lanes::avx2::Avx2>(x, j0, s, out)
}

/// The sweep on eight-lane AVX-512 values, [`GROUP_512`] columns at a time.
///
/// # Safety
/// The processor must support AVX-512F, AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn columns_avx512(x: &Args, j0: usize, s: &mut [f64], out: &mut [f64]) {
    use super::wide::avx512::{Avx512, W};
    columns_wide::<Avx512, W, GROUP_512>(x, j0, s, out)
}

/// The time loop over a block of value channels (see the module comment),
/// on four lanes, two columns at a time.
#[inline(always)]
pub fn columns_with<V: Lanes>(x: &Args, j0: usize, s: &mut [f64], out: &mut [f64]) {
    columns_wide::<V, L, GROUP>(x, j0, s, out)
}

/// The time loop on `W` lanes, `G` columns at a time.
#[inline(always)]
fn columns_wide<V: Wide<W>, const W: usize, const G: usize>(
    x: &Args,
    j0: usize,
    s: &mut [f64],
    out: &mut [f64],
) {
    let (t_len, kd, _) = x.dims();
    let n = s.len() / kd;
    let beta = x.beta.expect("KDA is a delta rule: beta is given");
    let mut block = Block::new(kd, n);
    // [K]: α and k of the write still pending from the previous block's last step
    let (mut alpha_prev, mut k_prev) = (vec![1.0; kd], vec![0.0; kd]);
    // [n]: the pending corrections c, and the dot products (k ⊙ α)·s_j, (sq ⊙ α)·s_j
    let (mut c, mut a, mut b) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let width = panel_columns(kd, G);
    for t0 in (0..t_len).step_by(STEPS) {
        let len = STEPS.min(t_len - t0);
        block.gather::<V, W>(x, j0, t0, len);
        // the next block's inputs, a share after each panel's step
        let next = Runs::new(x, (j0, n), t0 + len, STEPS.min(t_len - t0 - len));
        let share = next.count().div_ceil(len * n.div_ceil(width));
        let mut fetched = 0;
        for (p, panel) in s.chunks_mut(width * kd).enumerate() {
            let cols = p * width..p * width + panel.len() / kd;
            let (c, a, b) = (
                &mut c[cols.clone()],
                &mut a[cols.clone()],
                &mut b[cols.clone()],
            );
            for i in 0..len {
                let (pa, pk) = match i {
                    0 => (&alpha_prev[..], &k_prev[..]),
                    _ => (step(&block.alpha, i - 1, kd), step(&block.k, i - 1, kd)),
                };
                // finish step t − 1's write (α = 1, c = 0 before the first step) and read for step t
                let shared = Shared::new([pa, pk, step(&block.ka, i, kd), step(&block.qa, i, kd)]);
                sweep::<V, W, G>(panel, kd, &shared, c, (&mut *a, &mut *b));
                next.fetch(fetched, fetched + share);
                fetched += share;
                let bt = beta[t0 + i];
                for (e, j) in cols.clone().enumerate() {
                    // c_j = β_t (v_t[j] − (k ⊙ α)·s_j),  o_t[j] = (sq ⊙ α)·s_j + c_j (sq · k)
                    c[e] = bt * (block.v[j * STEPS + i] - a[e]);
                    block.out[j * STEPS + i] = V::mul_add1(c[e], block.qk[i], b[e]);
                }
            }
        }
        block.scatter(out, t_len, t0, len);
        alpha_prev.copy_from_slice(&block.alpha[(len - 1) * kd..][..kd]);
        k_prev.copy_from_slice(&block.k[(len - 1) * kd..][..kd]);
    }
    // the last write, S_T = Diag(α_T) S' + k_T cᵀ (its dot products unused)
    let shared = Shared::new([&alpha_prev, &k_prev, &block.ka[..kd], &block.qa[..kd]]);
    sweep::<V, W, G>(s, kd, &shared, &c, (&mut a, &mut b));
}

/// The `[K]` vectors every column reads, `α, k, k ⊙ α, sq ⊙ α`, as `W`-lane
/// chunks and their last `K mod W` entries.
struct Shared<'a, const W: usize> {
    chunks: [&'a [[f64; W]]; 4],
    tails: [&'a [f64]; 4],
}

impl<'a, const W: usize> Shared<'a, W> {
    #[inline(always)]
    fn new(v: [&'a [f64]; 4]) -> Shared<'a, W> {
        let split = v.map(|x| x.as_chunks::<W>());
        Shared {
            chunks: split.map(|(c, _)| c),
            tails: split.map(|(_, t)| t),
        }
    }
}

/// The state a panel of columns keeps in L1 while a block's steps run over
/// it, in bytes: a third of a 48 KiB L1, the rest for the steps' vectors.
/// Panels of 8–16 KiB ran fastest at `K = V = 128` (7.7–8.1 ms), 24–40 KiB
/// slower (8.4–8.9 ms), one panel of the whole state slowest (9.1 ms).
pub const PANEL_BYTES: usize = 16 * 1024;

/// Columns per panel: [`PANEL_BYTES`] of `[K]` columns, a multiple of the group `g`.
fn panel_columns(kd: usize, g: usize) -> usize {
    (PANEL_BYTES / (8 * kd.max(1)) / g * g).max(g)
}

/// Columns swept together: two share each load of the `[K]` vectors and keep
/// four independent chains of multiply-adds in flight; four need more
/// registers than AVX2 has, and ran slower (appendix "How fast").
const GROUP: usize = 2;

/// Columns swept together on AVX-512's 32 registers: four ran faster than
/// two; eight spill and ran slower.
const GROUP_512: usize = 4;

/// One pass over the columns of `s: [K, n]`: `s_j ← α ⊙ s_j + c_j k`, then
/// `a_j = (k ⊙ α)'·s_j`, `b_j = (sq ⊙ α)'·s_j` on the new values, [`GROUP`]
/// columns at a time (they share the loads of `α, k, k ⊙ α, sq ⊙ α`, and
/// their `2 GROUP` running sums are independent chains of multiply-adds).
/// Each column's arithmetic is the same alone or in a group, so results do
/// not depend on the grouping.
#[inline(always)]
fn sweep<V: Wide<W>, const W: usize, const G: usize>(
    s: &mut [f64],
    kd: usize,
    shared: &Shared<W>,
    c: &[f64],
    (a, b): (&mut [f64], &mut [f64]),
) {
    let done = s.len() / kd / G * G;
    let mut groups = s.chunks_exact_mut(G * kd);
    for (p, cols) in groups.by_ref().enumerate() {
        let j = G * p;
        let sums = group::<V, W, G>(cols, kd, shared, std::array::from_fn(|g| c[j + g]));
        for (g, (x, y)) in sums.into_iter().enumerate() {
            (a[j + g], b[j + g]) = (x, y);
        }
    }
    for (i, col) in groups.into_remainder().chunks_mut(kd).enumerate() {
        let j = done + i;
        [(a[j], b[j])] = group::<V, W, 1>(col, kd, shared, [c[j]]);
    }
}

/// `G` adjacent columns `cols: [K, G]` of the state through one step.
#[inline(always)]
fn group<V: Wide<W>, const W: usize, const G: usize>(
    cols: &mut [f64],
    kd: usize,
    shared: &Shared<W>,
    c: [f64; G],
) -> [(f64, f64); G] {
    let [alpha, k, ka, qa] = shared.chunks;
    // (loops, not array::map: a map's call may not be inlined, and then
    // neither compiled for the vector units nor free of copies)
    let mut acc = [Acc::<V, W>::new(0.0); G];
    for g in 0..G {
        acc[g] = Acc::new(c[g]);
    }
    let mut split = cols.chunks_exact_mut(kd);
    let mut m: [_; G] =
        std::array::from_fn(|_| split.next().expect("G columns").as_chunks_mut::<W>());
    let n = alpha.len();
    for (x, _) in &m {
        assert_eq!(x.len(), n);
    }
    for i in 0..n {
        let sh = [
            V::load(&alpha[i]),
            V::load(&k[i]),
            V::load(&ka[i]),
            V::load(&qa[i]),
        ];
        for g in 0..G {
            acc[g].lanes(&mut m[g].0[i], sh);
        }
    }
    let mut tails = [(0.0, 0.0); G];
    for (g, (acc, (_, tail))) in acc.iter().zip(m.iter_mut()).enumerate() {
        tails[g] = acc.tail(tail, shared);
    }
    let (mut a, mut b) = ([V::zero(); G], [V::zero(); G]);
    for g in 0..G {
        (a[g], b[g]) = (acc[g].a, acc[g].b);
    }
    let mut out = V::pair_sums(a, b);
    for (out, tail) in out.iter_mut().zip(tails) {
        *out = (out.0 + tail.0, out.1 + tail.1);
    }
    out
}

/// One column's correction `c` and the lane sums of its two dot products.
#[derive(Clone, Copy)]
struct Acc<V, const W: usize> {
    c: f64,
    cv: V,
    a: V,
    b: V,
}

impl<V: Wide<W>, const W: usize> Acc<V, W> {
    #[inline(always)]
    fn new(c: f64) -> Acc<V, W> {
        Acc {
            c,
            cv: V::splat(c),
            a: V::zero(),
            b: V::zero(),
        }
    }

    /// `W` entries of the column: `x = c k + α s`, stored; `a += (k ⊙ α) x`, `b += (sq ⊙ α) x`.
    #[inline(always)]
    fn lanes(&mut self, s: &mut [f64; W], [alpha, k, ka, qa]: [V; 4]) {
        let x = self.cv.mul_add(k, alpha.mul(V::load(s)));
        x.store(s);
        self.a = ka.mul_add(x, self.a);
        self.b = qa.mul_add(x, self.b);
    }

    /// The column's last `K mod W` entries, and their share of both dot products.
    #[inline(always)]
    fn tail(&self, s: &mut [f64], shared: &Shared<W>) -> (f64, f64) {
        let [alpha, k, ka, qa] = shared.tails;
        let (mut ta, mut tb) = (0.0, 0.0);
        for d in 0..s.len() {
            let x = V::mul_add1(self.c, k[d], alpha[d] * s[d]);
            s[d] = x;
            ta = V::mul_add1(ka[d], x, ta);
            tb = V::mul_add1(qa[d], x, tb);
        }
        (ta, tb)
    }
}
