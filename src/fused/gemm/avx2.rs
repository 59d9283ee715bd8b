//! The kernel of [`super::gemm`] in AVX2 and FMA: `MR × NV` accumulators,
//! one register each, and the dot products of the columns past the last
//! whole vector. Introduced in chapter 7.

use super::{LANES, Panel, View};
use crate::fused::rows::avx2::sum;
use crate::fused::spare;
use std::arch::x86_64::*;

kernel! {
    /// Columns `j0 ..` of `C` (fewer than a vector), each number the dot
    /// product of `A`'s row and `B`'s column, eight terms a vector in
    /// multiply-adds (the portable [`crate::fused::rows::dot`], a multiply
    /// and an add, made a Gated DeltaNet step 3–4% slower).
    ///
    /// # Safety
    /// The processor has AVX2 and FMA; `A`'s rows are contiguous (`cs = 1`)
    /// and `k` is a multiple of eight; `c` is `[a.rows, b.cols]`.
    pub(super) unsafe fn dots(a: View, b: View, c: &mut [f32], j0: usize, add: bool) {
        let (m, k, n) = (a.rows, a.cols, b.cols);
        assert!(a.cs == 1 && k.is_multiple_of(LANES) && c.len() == m * n);
        // B's columns j0 .. n, each contiguous
        let mut columns = spare::take((n - j0) * k);
        for (j, column) in columns.chunks_exact_mut(k).enumerate() {
            for (p, x) in column.iter_mut().enumerate() {
                *x = b.data[p * b.rs + (j0 + j) * b.cs];
            }
        }
        for i in 0..m {
            let row = &a.data[i * a.rs..][..k];
            for (j, column) in columns.chunks_exact(k).enumerate() {
                let mut acc = _mm256_setzero_ps();
                for (x, y) in row
                    .as_chunks::<LANES>()
                    .0
                    .iter()
                    .zip(column.as_chunks::<LANES>().0)
                {
                    // SAFETY: each chunk is eight numbers.
                    let (x, y) = unsafe { (_mm256_loadu_ps(x.as_ptr()), _mm256_loadu_ps(y.as_ptr())) };
                    acc = _mm256_fmadd_ps(x, y, acc);
                }
                let at = &mut c[i * n + j0 + j];
                *at = sum([acc]) + if add { *at } else { 0.0 };
            }
        }
        spare::give(columns);
    }
}

kernel! {
    /// Every row of `C`'s panel, `MR` rows at a time, then one at a time.
    ///
    /// # Safety
    /// The processor has AVX2 and FMA; `p`'s rows lie in `p.rows`, and `c`
    /// is `[a.rows, p.n]` (asserted by `panels`).
    pub(super) unsafe fn run<const NV: usize, const MR: usize>(p: &Panel, c: &mut [f32]) {
        let m = p.a.rows;
        let mut i = 0;
        while i + MR <= m {
            // SAFETY: rows i .. i + MR of A and C exist.
            unsafe { block::<NV, MR>(p, i, p.a.reach(i, MR), c) };
            i += MR;
        }
        while i < m {
            // SAFETY: row i of A and C exists.
            unsafe { block::<NV, 1>(p, i, p.a.reach(i, 1), c) };
            i += 1;
        }
    }
}

/// Rows `i0 .. i0 + MR` of `C`'s panel, over `A`'s columns `ks` (the
/// rest zero in these rows).
///
/// # Safety
/// As [`run`], `i0 + MR ≤ a.rows` and `ks.end ≤ a.cols`. (Inlined whole
/// into each build of [`run`], whose features it takes.)
#[inline(always)]
unsafe fn block<const NV: usize, const MR: usize>(
    p: &Panel,
    i0: usize,
    ks: std::ops::Range<usize>,
    c: &mut [f32],
) {
    let tail = p.w - (NV - 1) * LANES;
    let full = tail == LANES;
    // C's vector v of row r, as a pointer that may write (from `c`'s mutable borrow)
    let mut c_at = |r: usize, v: usize| c[(i0 + r) * p.n + p.j0 + v * LANES..].as_mut_ptr();
    // SAFETY: the caller's processor has AVX.
    let mut acc = [[unsafe { _mm256_setzero_ps() }; NV]; MR];
    if p.add {
        for (r, acc) in acc.iter_mut().enumerate() {
            for (v, acc) in acc.iter_mut().enumerate() {
                // SAFETY: the vector lies in C's row, or only its first `tail` lanes are read.
                *acc = unsafe {
                    if v + 1 < NV || full {
                        _mm256_loadu_ps(c_at(r, v))
                    } else {
                        let mut t = [0.0f32; LANES];
                        for (l, x) in t.iter_mut().enumerate().take(tail) {
                            *x = c_at(r, v).add(l).read();
                        }
                        _mm256_loadu_ps(t.as_ptr())
                    }
                };
            }
        }
    }
    let (a, b) = (p.a.data.as_ptr(), p.rows.as_ptr());
    for k in ks {
        // SAFETY: B's row k has NV vectors in `rows`; A[i0 + r, k] lies in A.
        unsafe {
            let x: [__m256; MR] = std::array::from_fn(|r| {
                _mm256_broadcast_ss(&*a.add((i0 + r) * p.a.rs + k * p.a.cs))
            });
            for v in 0..NV {
                let y = _mm256_loadu_ps(b.add(k * p.stride + v * LANES));
                for (acc, &x) in acc.iter_mut().zip(&x) {
                    acc[v] = _mm256_fmadd_ps(x, y, acc[v]);
                }
            }
        }
    }
    for (r, acc) in acc.iter().enumerate() {
        for (v, &acc) in acc.iter().enumerate() {
            let at = c_at(r, v);
            // SAFETY: as for the load; only the first `tail` lanes are written.
            unsafe {
                if v + 1 < NV || full {
                    _mm256_storeu_ps(at, acc);
                } else {
                    let mut t = [0.0f32; LANES];
                    _mm256_storeu_ps(t.as_mut_ptr(), acc);
                    for (l, &x) in t.iter().enumerate().take(tail) {
                        at.add(l).write(x);
                    }
                }
            }
        }
    }
}
