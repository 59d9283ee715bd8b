//! KDA's recurrence fused into one pass over the state per two steps.
//!
//! Column `j` of `S: [K, V]` (one value channel, contiguous in nalgebra's
//! column-major storage) evolves on its own: with `c_j = β_t (v_t[j] − (k_t ⊙ α_t)·s_j)`,
//!
//! ```text
//! s_j ← α_t ⊙ s_j + c_j k_t,        o_t[j] = (s q_t ⊙ α_t)·s_j + c_j (s q_t · k_t)
//! ```
//! where both dot products read the state *before* step `t` writes. Step
//! `t + 1`'s read the state after it, `α_t ⊙ s_j + c_j k_t`, so they can be
//! taken on `s_j` too, against the vectors times `α_t`, plus `c_j` times the
//! scalars `κ = (k_{t+1} ⊙ α_{t+1})·k_t`, `μ = (s q_{t+1} ⊙ α_{t+1})·k_t`. So one
//! sweep over `s_j` finishes the previous pair's two writes in one,
//!
//! ```text
//! s_j ← (α_{t-1} ⊙ α_{t-2}) ⊙ s_j + c_{t-2} (α_{t-1} ⊙ k_{t-2}) + c_{t-1} k_{t-1}
//! ```
//! and takes this pair's four dot products from the values it has just
//! written: one read and one write of the state per two steps, seven vector
//! operations per number where one step at a time takes eight. Columns never
//! meet, so a panel of them small enough for L1 ([`PANEL_BYTES`]) runs all
//! of a block's [`STEPS`] steps before the next panel starts: the state
//! leaves L1 once per block, not once per step, and each pair's seven `[K]`
//! vectors are read once per panel. Every column does the same arithmetic in
//! the same order whatever the panels and threads, so the results do not
//! depend on them.

use nalgebra::{DMatrix, DVector};

use super::args::{Args, Decay};
use super::block::{Block, VECTORS};
use super::lanes::{L, Lanes};
use super::prefetch::Runs;
use super::sweep::{Shared, sweep};
use super::wide::Wide;

pub use super::block::STEPS;

/// KDA's recurrence in one pass over the state per two steps, on the machine's vector units.
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

/// The time loop on `W` lanes, `G` columns at a time, two steps per sweep.
#[inline(always)]
fn columns_wide<V: Wide<W>, const W: usize, const G: usize>(
    x: &Args,
    j0: usize,
    s: &mut [f64],
    out: &mut [f64],
) {
    let (t_len, kd, _) = x.dims();
    let n = s.len() / kd;
    let mut block = Block::new(kd, n);
    // [VECTORS, K]: the pair whose write is pending from the previous block
    // (none before the first: α = 1, k = 0)
    let mut last = vec![0.0; VECTORS * kd];
    last[..kd].fill(1.0);
    // [n]: each column's pending corrections (c₀, c₁), and its four dot products
    let (mut c, mut dots) = (vec![[0.0; 2]; n], vec![[0.0; 4]; n]);
    let width = panel_columns(kd, G);
    for t0 in (0..t_len).step_by(STEPS) {
        let len = STEPS.min(t_len - t0);
        let pairs = len.div_ceil(2);
        block.gather::<V, W>(x, j0, t0, len);
        // the next block's inputs, a share after each panel's pair
        let next = Runs::new(x, (j0, n), t0 + len, STEPS.min(t_len - t0 - len));
        let share = next.count().div_ceil(pairs * n.div_ceil(width));
        let mut fetched = 0;
        for (p, panel) in s.chunks_mut(width * kd).enumerate() {
            let cols = p * width..p * width + panel.len() / kd;
            let (c, dots) = (&mut c[cols.clone()], &mut dots[cols.clone()]);
            for m in 0..pairs {
                // finish the previous pair's write, and read for this pair's two steps
                let write = match m {
                    0 => &last[..],
                    _ => block.pair(m - 1, kd),
                };
                let shared = Shared::new(write, block.pair(m, kd), kd);
                sweep::<V, W, G>(panel, kd, &shared, c, dots);
                next.fetch(fetched, fetched + share);
                fetched += share;
                for (e, j) in cols.clone().enumerate() {
                    c[e] = block.finish::<V, W>(m, j, dots[e]);
                }
            }
        }
        block.scatter(out, t_len, t0, len);
        last.copy_from_slice(block.pair(pairs - 1, kd));
    }
    // the last write (its dot products unused)
    let shared = Shared::new(&last, &last, kd);
    sweep::<V, W, G>(s, kd, &shared, &c, &mut dots);
}

/// The state a panel of columns keeps in L1 while a block's steps run over
/// it, in bytes: a third of a 48 KiB L1, the rest for the pairs' vectors.
/// At `K = V = 128`, two steps per sweep, panels of 16–24 KiB ran fastest
/// (6.1–6.5 ms), 8 KiB slower (6.7–7.0 ms); with one step per sweep, one
/// panel of the whole state was slowest.
pub const PANEL_BYTES: usize = 16 * 1024;

/// Columns per panel: [`PANEL_BYTES`] of `[K]` columns, a multiple of the group `g`.
fn panel_columns(kd: usize, g: usize) -> usize {
    (PANEL_BYTES / (8 * kd.max(1)) / g * g).max(g)
}

/// Columns swept together on AVX2's 16 registers: two share each load of the
/// seven `[K]` vectors and keep eight chains of multiply-adds in flight; one
/// and three ran slower (15.5 and 14.4 ms against 12.0 at `K = V = 128`).
const GROUP: usize = 2;

/// Columns swept together on AVX-512's 32 registers: four ran faster than
/// three and two (6.6–7.1 ms against 7.1–7.4 and 8.8–9.0); eight spill and ran
/// at 17 ms.
const GROUP_512: usize = 4;
