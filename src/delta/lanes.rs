//! Four `f64` lanes for the fused kernel's loop: an array on any target, one
//! 256-bit register with fused multiply-adds on AVX2/FMA.

/// Lanes per register.
pub const L: usize = 4;

/// `L = 4` lanes of `f64`: an array on any target, one 256-bit register on AVX2.
pub trait Lanes: Copy {
    fn zero() -> Self;
    fn splat(x: f64) -> Self;
    fn load(x: &[f64; L]) -> Self;
    fn store(self, x: &mut [f64; L]);
    fn mul(self, b: Self) -> Self;
    /// `self · b + c`, lane by lane.
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// `(x₀ + x₂) + (x₁ + x₃)`.
    fn sum(self) -> f64;
    /// `a · b + c` on one number, rounded as [`Lanes::mul_add`] rounds.
    fn mul_add1(a: f64, b: f64, c: f64) -> f64;
}

/// The portable lanes: a multiply and an add, two roundings.
impl Lanes for [f64; L] {
    #[inline(always)]
    fn zero() -> Self {
        [0.0; L]
    }
    #[inline(always)]
    fn splat(x: f64) -> Self {
        [x; L]
    }
    #[inline(always)]
    fn load(x: &[f64; L]) -> Self {
        *x
    }
    #[inline(always)]
    fn store(self, x: &mut [f64; L]) {
        *x = self;
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        std::array::from_fn(|l| self[l] * b[l])
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        std::array::from_fn(|l| self[l] * b[l] + c[l])
    }
    #[inline(always)]
    fn sum(self) -> f64 {
        (self[0] + self[2]) + (self[1] + self[3])
    }
    #[inline(always)]
    fn mul_add1(a: f64, b: f64, c: f64) -> f64 {
        a * b + c
    }
}

/// The AVX2/FMA path: the same loop on `__m256d` lanes, fused multiply-adds.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use std::arch::x86_64::*;

    use super::{L, Lanes};

    /// Four lanes in one register. Values of this type are made only inside
    /// functions compiled with `#[target_feature(enable = "avx2,fma")]`, which
    /// run after the processor's support was checked: that is the safety of
    /// every intrinsic below. The module is private to the crate, so no code
    /// outside it can make one on a processor without AVX2.
    #[derive(Clone, Copy)]
    pub struct Avx2(__m256d);

    impl Lanes for Avx2 {
        #[inline(always)]
        fn zero() -> Self {
            Avx2(unsafe { _mm256_setzero_pd() })
        }
        #[inline(always)]
        fn splat(x: f64) -> Self {
            Avx2(unsafe { _mm256_set1_pd(x) })
        }
        #[inline(always)]
        fn load(x: &[f64; L]) -> Self {
            // SAFETY: x is 4 readable f64; unaligned load
            Avx2(unsafe { _mm256_loadu_pd(x.as_ptr()) })
        }
        #[inline(always)]
        fn store(self, x: &mut [f64; L]) {
            // SAFETY: x is 4 writable f64; unaligned store
            unsafe { _mm256_storeu_pd(x.as_mut_ptr(), self.0) }
        }
        #[inline(always)]
        fn mul(self, b: Self) -> Self {
            Avx2(unsafe { _mm256_mul_pd(self.0, b.0) })
        }
        #[inline(always)]
        fn mul_add(self, b: Self, c: Self) -> Self {
            Avx2(unsafe { _mm256_fmadd_pd(self.0, b.0, c.0) })
        }
        #[inline(always)]
        fn sum(self) -> f64 {
            unsafe {
                // (x₀ + x₂, x₁ + x₃), then their sum
                let h = _mm_add_pd(
                    _mm256_castpd256_pd128(self.0),
                    _mm256_extractf128_pd(self.0, 1),
                );
                _mm_cvtsd_f64(h) + _mm_cvtsd_f64(_mm_unpackhi_pd(h, h))
            }
        }
        #[inline(always)]
        fn mul_add1(a: f64, b: f64, c: f64) -> f64 {
            a.mul_add(b, c)
        }
    }
}
