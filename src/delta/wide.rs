//! `W` lanes of `f64` for the fused kernel's sweep: the four-lane values of
//! [`super::lanes`] (`W = 4`) through one blanket impl, and eight lanes in one
//! 512-bit register on AVX-512 (`W = 8`).
//!
//! [`super::lanes::Lanes`] fixes its width at four, and the trainer shares
//! it; this trait carries the width as a parameter, so the sweep is written
//! once for both.

use super::lanes::{L, Lanes};

/// `W` lanes of `f64`, with the operations of [`Lanes`].
pub trait Wide<const W: usize>: Copy {
    fn zero() -> Self;
    fn splat(x: f64) -> Self;
    fn load(x: &[f64; W]) -> Self;
    fn store(self, x: &mut [f64; W]);
    fn mul(self, b: Self) -> Self;
    /// `self · b + c`, lane by lane.
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// The lanes' sum, halves added lane by lane until one is left
    /// (`W = 4`: `(x₀ + x₂) + (x₁ + x₃)`).
    fn sum(self) -> f64;
    /// `a · b + c` on one number, rounded as [`Wide::mul_add`] rounds.
    fn mul_add1(a: f64, b: f64, c: f64) -> f64;
    /// `eˣ` lane by lane, to within an ulp or two of [`f64::exp`].
    fn exp(self) -> Self;
    /// The lane sums of `G` pairs `(a_g, b_g)`, each taken as [`Wide::sum`]
    /// takes it: the same additions in the same order, so the same bits.
    #[inline(always)]
    fn pair_sums<const G: usize>(a: [Self; G], b: [Self; G]) -> [(f64, f64); G] {
        each_pair_sums(a, b)
    }
}

/// [`Wide::pair_sums`] one pair at a time, by [`Wide::sum`].
#[inline(always)]
fn each_pair_sums<V: Wide<W>, const W: usize, const G: usize>(
    a: [V; G],
    b: [V; G],
) -> [(f64, f64); G] {
    let mut out = [(0.0, 0.0); G];
    for g in 0..G {
        out[g] = (a[g].sum(), b[g].sum());
    }
    out
}

/// `y = eˣ` for every number, `W` at a time by [`Wide::exp`], the last
/// `len mod W` through a padded copy.
#[inline(always)]
pub(crate) fn exp_into<V: Wide<W>, const W: usize>(x: &[f64], y: &mut [f64]) {
    let (chunks, tail) = x.as_chunks::<W>();
    let (ys, y_tail) = y.as_chunks_mut::<W>();
    for (x, y) in chunks.iter().zip(ys) {
        V::load(x).exp().store(y);
    }
    if !tail.is_empty() {
        let mut pad = [0.0; W];
        pad[..tail.len()].copy_from_slice(tail);
        let mut e = [0.0; W];
        V::load(&pad).exp().store(&mut e);
        y_tail.copy_from_slice(&e[..tail.len()]);
    }
}

/// Every four-lane type is a [`Wide<4>`], with its own arithmetic.
impl<V: Lanes> Wide<L> for V {
    #[inline(always)]
    fn zero() -> Self {
        <V as Lanes>::zero()
    }
    #[inline(always)]
    fn splat(x: f64) -> Self {
        <V as Lanes>::splat(x)
    }
    #[inline(always)]
    fn load(x: &[f64; L]) -> Self {
        <V as Lanes>::load(x)
    }
    #[inline(always)]
    fn store(self, x: &mut [f64; L]) {
        <V as Lanes>::store(self, x)
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        <V as Lanes>::mul(self, b)
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        <V as Lanes>::mul_add(self, b, c)
    }
    #[inline(always)]
    fn sum(self) -> f64 {
        <V as Lanes>::sum(self)
    }
    #[inline(always)]
    fn mul_add1(a: f64, b: f64, c: f64) -> f64 {
        <V as Lanes>::mul_add1(a, b, c)
    }
    /// [`f64::exp`] itself, lane by lane.
    #[inline(always)]
    fn exp(self) -> Self {
        let mut x = [0.0; L];
        <V as Lanes>::store(self, &mut x);
        <V as Lanes>::load(&x.map(f64::exp))
    }
}

/// The AVX-512 path: the same sweep on `__m512d` lanes, fused multiply-adds.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use std::arch::x86_64::*;

    use super::Wide;

    /// Lanes per register.
    pub const W: usize = 8;

    /// `1/m!` for `m = 0, …, 13` (each factorial exact in `f64`, then one rounding).
    const INV_FACT: [f64; 14] = {
        let (mut a, mut f, mut m) = ([1.0; 14], 1.0, 1);
        while m < 14 {
            f *= m as f64;
            a[m] = 1.0 / f;
            m += 1;
        }
        a
    };

    /// Eight lanes in one register. Values of this type are made only inside
    /// functions compiled with `#[target_feature(enable = "avx512f,avx2,fma")]`,
    /// which run after the processor's support was checked: that is the
    /// safety of every intrinsic below. The module is private to the crate,
    /// so no code outside it can make one on a processor without AVX-512.
    #[derive(Clone, Copy)]
    pub struct Avx512(__m512d);

    impl Wide<W> for Avx512 {
        #[inline(always)]
        fn zero() -> Self {
            Avx512(unsafe { _mm512_setzero_pd() })
        }
        #[inline(always)]
        fn splat(x: f64) -> Self {
            Avx512(unsafe { _mm512_set1_pd(x) })
        }
        #[inline(always)]
        fn load(x: &[f64; W]) -> Self {
            // SAFETY: x is 8 readable f64; unaligned load
            Avx512(unsafe { _mm512_loadu_pd(x.as_ptr()) })
        }
        #[inline(always)]
        fn store(self, x: &mut [f64; W]) {
            // SAFETY: x is 8 writable f64; unaligned store
            unsafe { _mm512_storeu_pd(x.as_mut_ptr(), self.0) }
        }
        #[inline(always)]
        fn mul(self, b: Self) -> Self {
            Avx512(unsafe { _mm512_mul_pd(self.0, b.0) })
        }
        #[inline(always)]
        fn mul_add(self, b: Self, c: Self) -> Self {
            Avx512(unsafe { _mm512_fmadd_pd(self.0, b.0, c.0) })
        }
        #[inline(always)]
        fn sum(self) -> f64 {
            unsafe {
                // (x₀ + x₄, …, x₃ + x₇), then (· + ·₊₂), then the last two
                let q = _mm256_add_pd(
                    _mm512_castpd512_pd256(self.0),
                    _mm512_extractf64x4_pd(self.0, 1),
                );
                let h = _mm_add_pd(_mm256_castpd256_pd128(q), _mm256_extractf128_pd(q, 1));
                _mm_cvtsd_f64(h) + _mm_cvtsd_f64(_mm_unpackhi_pd(h, h))
            }
        }
        #[inline(always)]
        fn mul_add1(a: f64, b: f64, c: f64) -> f64 {
            a.mul_add(b, c)
        }
        /// `x = n ln 2 + r` with `n = round(x / ln 2)`, `|r| ≤ ln 2 / 2`; then
        /// `eˣ = 2ⁿ eʳ`, `eʳ` by its Taylor series to `r¹³` (the rest is below
        /// `r¹⁴/14! < 5·10⁻¹⁸`) in Horner's form, and `2ⁿ` applied exactly by
        /// `vscalefpd`, which also rounds to a subnormal, to 0 or to ∞ as the
        /// product does. `x` is first held to `[−746, 710]`, outside which
        /// `eˣ` is 0 or ∞ anyway; NaN stays NaN.
        #[inline(always)]
        fn exp(self) -> Self {
            /// `ln 2` in two parts (fdlibm's): `n · LN2_HI` is exact for `|n| < 2¹¹`.
            const LN2_HI: f64 = 6.931_471_803_691_238e-1;
            const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
            unsafe {
                let c = _mm512_set1_pd;
                // min/max return their second operand when either is NaN
                let x = _mm512_max_pd(c(-746.0), _mm512_min_pd(c(710.0), self.0));
                let n = _mm512_roundscale_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
                    _mm512_mul_pd(x, c(std::f64::consts::LOG2_E)),
                );
                let r = _mm512_fnmadd_pd(n, c(LN2_HI), x);
                let r = _mm512_fnmadd_pd(n, c(LN2_LO), r);
                // p ← p r + 1/m! for m = 13, …, 0
                let mut p = c(INV_FACT[13]);
                for m in (0..13).rev() {
                    p = _mm512_fmadd_pd(p, r, c(INV_FACT[m]));
                }
                Avx512(_mm512_scalef_pd(p, n))
            }
        }
        /// Four pairs (the fused sweep's group) in one transposing tree of
        /// the same additions as [`Wide::sum`]: 7 adds and 14 shuffles for
        /// eight sums, not 24 and 32.
        #[inline(always)]
        fn pair_sums<const G: usize>(a: [Self; G], b: [Self; G]) -> [(f64, f64); G] {
            match (
                <&[Self; 4]>::try_from(&a[..]),
                <&[Self; 4]>::try_from(&b[..]),
            ) {
                (Ok(a4), Ok(b4)) => {
                    let s = sums8([a4[0], b4[0], a4[1], b4[1], a4[2], b4[2], a4[3], b4[3]]);
                    let mut out = [(0.0, 0.0); G];
                    for g in 0..G {
                        out[g] = (s[2 * g], s[2 * g + 1]);
                    }
                    out
                }
                _ => super::each_pair_sums(a, b),
            }
        }
    }

    /// The lane sums of eight vectors `x_0 … x_7`, each as [`Wide::sum`]
    /// adds: `q = (x_i + x_{i+4})`, then `h = (q_i + q_{i+2})`, then `h_0 + h_1`,
    /// eight at a time across registers (`[L0 L1 L2 L3]` are 128-bit lanes).
    /// (Named functions, not closures: a closure is not compiled for the
    /// caller's vector units.)
    #[inline(always)]
    fn sums8(x: [Avx512; 8]) -> [f64; 8] {
        /// `[x.L0 x.L1 y.L0 y.L1] + [x.L2 x.L3 y.L2 y.L3]`: both q's, one register.
        #[inline(always)]
        fn q(x: Avx512, y: Avx512) -> __m512d {
            unsafe {
                let lo = _mm512_shuffle_f64x2::<0x44>(x.0, y.0);
                let hi = _mm512_shuffle_f64x2::<0xEE>(x.0, y.0);
                _mm512_add_pd(lo, hi)
            }
        }
        /// `[qx.L0 qy.L0 qu.L0 qw.L0] + [qx.L1 qy.L1 qu.L1 qw.L1]`: four h's.
        #[inline(always)]
        fn h(z1: __m512d, z2: __m512d) -> __m512d {
            unsafe {
                let lo = _mm512_shuffle_f64x2::<0x88>(z1, z2);
                let hi = _mm512_shuffle_f64x2::<0xDD>(z1, z2);
                _mm512_add_pd(lo, hi)
            }
        }
        unsafe {
            let h1 = h(q(x[0], x[1]), q(x[2], x[3]));
            let h2 = h(q(x[4], x[5]), q(x[6], x[7]));
            // h_0 + h_1 of each: sums of x_0, x_4, x_1, x_5, x_2, x_6, x_3, x_7
            let s = _mm512_add_pd(_mm512_unpacklo_pd(h1, h2), _mm512_unpackhi_pd(h1, h2));
            let mut t = [0.0; W];
            _mm512_storeu_pd(t.as_mut_ptr(), s);
            [t[0], t[2], t[4], t[6], t[1], t[3], t[5], t[7]]
        }
    }
}

/// Whether the processor has the units the AVX-512 path is compiled for:
/// AVX-512F, AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("fma")
}

/// `eˣ` of every number on the AVX-512 path, or `None` where the processor
/// lacks AVX-512F, AVX2 or FMA: the sweep's own exponential, for its tests.
///
/// ```
/// use attention_geometry::delta::wide::exp_avx512;
/// if let Some(y) = exp_avx512(&[0.0, 1.0, -800.0]) {
///     assert_eq!(y[..1], [1.0]);
///     assert!((y[1] - 1f64.exp()).abs() < 1e-15 && y[2] == 0.0);
/// }
/// ```
///
/// Introduced in chapter 7.
pub fn exp_avx512(xs: &[f64]) -> Option<Vec<f64>> {
    #[cfg(target_arch = "x86_64")]
    if has_avx512() {
        // SAFETY: the processor supports AVX-512F, AVX2 and FMA (has_avx512, above).
        return Some(unsafe { checks::exp(xs) });
    }
    let _ = xs;
    None
}

/// The lane sums of the four pairs `(x_g, x_{g+4})` on the AVX-512 path,
/// `[by the sweep's transposing tree, one pair at a time]`, or `None` where
/// the processor lacks AVX-512F, AVX2 or FMA: for the test that the two agree
/// to the bit.
///
/// Introduced in chapter 7.
pub fn pair_sums_avx512(x: &[[f64; 8]; 8]) -> Option<[[(f64, f64); 4]; 2]> {
    #[cfg(target_arch = "x86_64")]
    if has_avx512() {
        // SAFETY: the processor supports AVX-512F, AVX2 and FMA (has_avx512, above).
        return Some(unsafe { checks::pair_sums(x) });
    }
    let _ = x;
    None
}

/// The AVX-512 operations the public checks above run (loops, not closures:
/// a closure would not be compiled with the features).
#[cfg(target_arch = "x86_64")]
mod checks {
    use super::Wide;
    use super::avx512::{Avx512, W};

    /// # Safety
    /// The processor must support AVX-512F, AVX2 and FMA.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn exp(xs: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; xs.len()];
        super::exp_into::<Avx512, W>(xs, &mut out);
        out
    }

    /// # Safety
    /// The processor must support AVX-512F, AVX2 and FMA.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn pair_sums(x: &[[f64; W]; 8]) -> [[(f64, f64); 4]; 2] {
        let mut v = [Avx512::zero(); 8];
        for (v, x) in v.iter_mut().zip(x) {
            *v = Avx512::load(x);
        }
        let (a, b) = ([v[0], v[1], v[2], v[3]], [v[4], v[5], v[6], v[7]]);
        let mut one = [(0.0, 0.0); 4];
        for g in 0..4 {
            [one[g]] = Avx512::pair_sums([a[g]], [b[g]]);
        }
        [Avx512::pair_sums(a, b), one]
    }
}
