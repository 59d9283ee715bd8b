//! The block products in x86 vector instructions: AVX-512 (16 lanes) and
//! AVX2 (8 lanes), each with FMA and F16C (the scales are f16).
//!
//! ```text
//! Q4_1 block: qs (16 bytes) → zero-extend to i32 → q & 0xF, q >> 4 → f32
//!             t = x_lo ⊙ q_lo + x_hi ⊙ q_hi;  acc += d · t;  min += m · s_b
//! Q8_0 block: q (32 bytes) → sign-extend to i32 → f32
//!             t = x ⊙ q;                      acc += d · t
//! ```
//!
//! Each call reads one row from start to end, one stream the processor's
//! prefetcher follows (four rows read side by side took twice as long on the
//! embedding, 30 MB). The lanes are added once, at the end.

use std::arch::x86_64::*;

use super::{Q4_1_BYTES, Q8_0_BYTES};
use crate::pretrained::smollm2::quant::{BLOCK_WEIGHTS, Quant};

/// The product of `x` with one row of blocks, in AVX-512.
///
/// # Safety
/// The processor must support AVX-512 F and BW, FMA and F16C.
///
/// # Panics
/// If the row does not hold `x.len() / 32` blocks or `sums` one entry per block.
#[target_feature(enable = "avx512f,avx512bw,fma,f16c")]
pub unsafe fn avx512(quant: Quant, x: &[f32], sums: &[f32], row: &[u8]) -> f32 {
    let blocks = x.len() / BLOCK_WEIGHTS;
    assert!(sums.len() == blocks && row.len() == blocks * quant.block_bytes());
    let (mut acc, mut minimum) = (_mm512_setzero_ps(), 0.0f32);
    let (x, row) = (x.as_ptr(), row.as_ptr());
    // SAFETY (the loads): block b spans bytes b·size..(b + 1)·size of the
    // row (asserted above), and x's block b is x[32b..32b + 32].
    unsafe {
        for (b, &sum) in sums.iter().enumerate() {
            let x0 = _mm512_loadu_ps(x.add(32 * b));
            let x1 = _mm512_loadu_ps(x.add(32 * b + 16));
            match quant {
                Quant::Q4_1 => {
                    let p = row.add(b * Q4_1_BYTES);
                    let dm = scales(p);
                    let q = _mm512_cvtepu8_epi32(_mm_loadu_si128(p.add(4).cast()));
                    let lo = _mm512_cvtepi32_ps(_mm512_and_si512(q, _mm512_set1_epi32(0x0f)));
                    let hi = _mm512_cvtepi32_ps(_mm512_srli_epi32::<4>(q));
                    let t = _mm512_fmadd_ps(x1, hi, _mm512_mul_ps(x0, lo));
                    acc = _mm512_fmadd_ps(t, _mm512_broadcastss_ps(dm), acc);
                    let m = _mm_cvtss_f32(_mm_movehdup_ps(dm));
                    minimum = m.mul_add(sum, minimum);
                }
                Quant::Q8_0 => {
                    let p = row.add(b * Q8_0_BYTES);
                    let q0 = _mm512_cvtepi8_epi32(_mm_loadu_si128(p.add(2).cast()));
                    let q1 = _mm512_cvtepi8_epi32(_mm_loadu_si128(p.add(18).cast()));
                    let t = _mm512_fmadd_ps(
                        x1,
                        _mm512_cvtepi32_ps(q1),
                        _mm512_mul_ps(x0, _mm512_cvtepi32_ps(q0)),
                    );
                    acc = _mm512_fmadd_ps(t, _mm512_broadcastss_ps(scales(p)), acc);
                }
            }
        }
    }
    _mm512_reduce_add_ps(acc) + minimum
}

/// The product of `x` with one row of blocks, in AVX2.
///
/// # Safety
/// The processor must support AVX2, FMA and F16C.
///
/// # Panics
/// As [`avx512`].
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn avx2(quant: Quant, x: &[f32], sums: &[f32], row: &[u8]) -> f32 {
    let blocks = x.len() / BLOCK_WEIGHTS;
    assert!(sums.len() == blocks && row.len() == blocks * quant.block_bytes());
    let (mut acc, mut minimum) = (_mm256_setzero_ps(), 0.0f32);
    let (x, row) = (x.as_ptr(), row.as_ptr());
    // SAFETY (the loads): as in `avx512`; each 8-byte load is inside its block.
    unsafe {
        for (b, &sum) in sums.iter().enumerate() {
            let xs: [__m256; 4] = std::array::from_fn(|i| _mm256_loadu_ps(x.add(32 * b + 8 * i)));
            let (t, scale) = match quant {
                Quant::Q4_1 => {
                    let p = row.add(b * Q4_1_BYTES);
                    let dm = scales(p);
                    let mask = _mm256_set1_epi32(0x0f);
                    // bytes 0..8 and 8..16: weights j and j + 16
                    let (q0, q1) = (widen(p.add(4), false), widen(p.add(12), false));
                    let w = [
                        _mm256_and_si256(q0, mask),
                        _mm256_and_si256(q1, mask),
                        _mm256_srli_epi32::<4>(q0),
                        _mm256_srli_epi32::<4>(q1),
                    ];
                    let m = _mm_cvtss_f32(_mm_movehdup_ps(dm));
                    minimum = m.mul_add(sum, minimum);
                    (dot8(&xs, w), dm)
                }
                Quant::Q8_0 => {
                    let p = row.add(b * Q8_0_BYTES);
                    let w = std::array::from_fn(|i| widen(p.add(2 + 8 * i), true));
                    (dot8(&xs, w), scales(p))
                }
            };
            acc = _mm256_fmadd_ps(t, _mm256_broadcastss_ps(scale), acc);
        }
    }
    let mut lanes = [0.0f32; 8];
    // SAFETY: `lanes` holds eight f32.
    unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), acc) };
    lanes.iter().sum::<f32>() + minimum
}

/// The eight bytes at `p` as eight i32, signed or not.
///
/// # Safety
/// `p` must point at eight readable bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn widen(p: *const u8, signed: bool) -> __m256i {
    // SAFETY: the caller's promise.
    let bytes = unsafe { _mm_loadl_epi64(p.cast()) };
    match signed {
        true => _mm256_cvtepi8_epi32(bytes),
        false => _mm256_cvtepu8_epi32(bytes),
    }
}

/// `Σ_i x_i ⊙ w_i` over the four groups of eight lanes of one block.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn dot8(x: &[__m256; 4], w: [__m256i; 4]) -> __m256 {
    let mut t = _mm256_mul_ps(x[0], _mm256_cvtepi32_ps(w[0]));
    for i in 1..4 {
        t = _mm256_fmadd_ps(x[i], _mm256_cvtepi32_ps(w[i]), t);
    }
    t
}

/// The block's f16 scale (and, for Q4_1, minimum) from its first four
/// bytes, as f32 in lanes 0 (and 1).
///
/// # Safety
/// `p` must point at four readable bytes.
#[inline]
#[target_feature(enable = "f16c")]
unsafe fn scales(p: *const u8) -> __m128 {
    // SAFETY: the caller's promise.
    _mm_cvtph_ps(_mm_cvtsi32_si128(unsafe {
        p.cast::<i32>().read_unaligned()
    }))
}
