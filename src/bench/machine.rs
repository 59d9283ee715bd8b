//! What the machine can do, measured in the same run as the kernels: the
//! matrix-product rate and the cache bandwidth of a buffer the size of a
//! state, and the roofline bound each kernel is held to.

use nalgebra::DMatrix;

use super::{Row, median_seconds};

/// Matrix-product throughput in GFLOP/s: `C = A B` for `n × n` matrices
/// (`2n³` flops), through nalgebra's `gemm` as the kernels use it.
pub fn matmul_gflops(n: usize, repeats: usize) -> f64 {
    gemm_gflops::<f64>(n, n, n, repeats)
}

/// Throughput in GFLOP/s of `C = A B` with `A: (m, k)`, `B: (k, n)` in the
/// scalar `T` (`2mkn` flops), the median of `repeats` runs; the entries are
/// small integers, so the rate does not depend on them.
pub fn gemm_gflops<T>(m: usize, k: usize, n: usize, repeats: usize) -> f64
where
    T: nalgebra::RealField + Copy + From<i8>,
{
    let entry = |v: usize, modulus: usize| T::from((v % modulus) as i8 - (modulus / 2) as i8);
    let a = DMatrix::<T>::from_fn(m, k, |i, j| entry(i * 7 + j * 3, 11));
    let b = DMatrix::<T>::from_fn(k, n, |i, j| entry(i * 5 + j, 13));
    let mut c = DMatrix::zeros(m, n);
    let secs = median_seconds(repeats, 1, |_| c.gemm(T::one(), &a, &b, T::zero()))[0];
    2.0 * (m * k * n) as f64 / secs / 1e9
}

/// Read-modify-write bandwidth in GB/s of a buffer of `numbers` `f64`s,
/// `x ← a x + b` (8 bytes read and 8 written per number), the pass repeated
/// to about 20 ms and the median of `repeats` such runs. On x86-64 with AVX2
/// and FMA (detected at run time) the loop is compiled for them, as the fused
/// kernel's is; so this is what its state can stream through the cache.
pub fn stream_gbs(numbers: usize, repeats: usize) -> f64 {
    let mut x = vec![1.0; numbers.max(1)];
    let passes = (2_000_000 / x.len()).max(1);
    let secs = median_seconds(repeats, 1, |_| {
        for _ in 0..passes {
            rmw(&mut x);
        }
    })[0];
    assert!(x.iter().all(|v| v.is_finite()));
    16.0 * (x.len() * passes) as f64 / secs / 1e9
}

/// Read bandwidth in GB/s from main memory: the sum of a buffer of `bytes`
/// (make it larger than the processor's caches), the median of `repeats`
/// passes after a warm-up. A decode step reads its weights once like this.
pub fn read_gbs(bytes: usize, repeats: usize) -> f64 {
    let x: Vec<f32> = (0..bytes / 4).map(|i| (i % 7) as f32).collect();
    let secs = median_seconds(repeats, 1, |_| {
        std::hint::black_box(sum(std::hint::black_box(&x)));
    })[0];
    (4 * x.len()) as f64 / secs / 1e9
}

/// `Σ x`, in 16 independent lanes so that the sum is not the limit.
fn sum(x: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 16];
    for chunk in x.chunks_exact(16) {
        for (l, v) in lanes.iter_mut().zip(chunk) {
            *l += v;
        }
    }
    lanes.iter().sum()
}

/// One pass `x ← a x + b` with a contraction towards 2, so values stay finite.
fn rmw(x: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        // SAFETY: the processor supports AVX2 and FMA, checked on the line above.
        return unsafe { rmw_avx2(x) };
    }
    rmw_loop(x)
}

/// [`rmw_loop`] compiled for AVX2 and FMA.
///
/// # Safety
/// The processor must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn rmw_avx2(x: &mut [f64]) {
    rmw_loop(x)
}

#[inline(always)]
fn rmw_loop(x: &mut [f64]) {
    x.iter_mut().for_each(|v| *v = 0.5 * *v + 1.0);
}

/// How the kernels reach the vector units on this machine.
pub fn vector_units() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        return match is_x86_feature_detected!("avx512f") {
            true => "AVX-512, AVX2 and FMA, detected at run time",
            false => "AVX2 and FMA, detected at run time",
        };
    }
    "none detected: the portable loops"
}

/// The measured rates a kernel's bound is computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// Matrix-product rate, GFLOP/s ([`matmul_gflops`]).
    pub gemm_gflops: f64,
    /// Read-modify-write bandwidth of a `[d, d]` state, `(d, GB/s)` ([`stream_gbs`]).
    pub bandwidth: Vec<(usize, f64)>,
}

/// What limits a kernel's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Its counted flops at the matrix-product rate.
    Flops,
    /// Its state streamed through the cache once per step.
    State,
}

impl Limit {
    /// A short name for the report.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Flops => "flops",
            Limit::State => "state",
        }
    }
}

/// The least time a kernel could take on this machine, and what sets it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// Seconds.
    pub seconds: f64,
    /// The larger of the two limits.
    pub limit: Limit,
}

impl Machine {
    /// The machine with the matrix-product rate `gemm_gflops` (the bench
    /// takes the better of a measurement before and one after the kernels)
    /// and the bandwidth of a `[d, d]` state, measured now, for each `d` in `ds`.
    pub fn measure(gemm_gflops: f64, ds: &[usize]) -> Machine {
        let bandwidth = ds.iter().map(|&d| (d, stream_gbs(d * d, 7))).collect();
        Machine {
            gemm_gflops,
            bandwidth,
        }
    }

    /// The measured bandwidth for a `[d, d]` state, GB/s.
    pub fn bandwidth(&self, d: usize) -> Option<f64> {
        self.bandwidth
            .iter()
            .find(|(w, _)| *w == d)
            .map(|&(_, b)| b)
    }

    /// A row's bound: `flops / gemm rate`, and for a recurrence the larger of
    /// that and `T · 16 K V bytes / bandwidth`.
    ///
    /// ```
    /// use attention_geometry::bench::{Limit, Machine, Mixer, Row};
    /// let m = Machine { gemm_gflops: 40.0, bandwidth: vec![(128, 100.0)] };
    /// let row = Row { mixer: Mixer::KdaFused, t: 4096, d: 128, seconds: 0.02, flops: 4.0e8 };
    /// let b = m.bound(&row);
    /// // 4096 · 16 · 128² bytes at 100 GB/s = 10.7 ms, against 4e8 flops at 40 GFLOP/s = 10 ms
    /// assert_eq!(b.limit, Limit::State);
    /// assert!((b.seconds - 4096.0 * 16.0 * 16384.0 / 100e9).abs() < 1e-12);
    /// ```
    pub fn bound(&self, row: &Row) -> Bound {
        let flops = row.flops / (self.gemm_gflops * 1e9);
        let state = match (row.mixer.streams_state(), self.bandwidth(row.d)) {
            (true, Some(gbs)) => {
                let bytes = 16.0 * (row.t * row.d * row.d) as f64;
                bytes / (gbs * 1e9)
            }
            _ => 0.0,
        };
        if state > flops {
            Bound {
                seconds: state,
                limit: Limit::State,
            }
        } else {
            Bound {
                seconds: flops,
                limit: Limit::Flops,
            }
        }
    }

    /// The share of its bound a row reaches, `bound / measured`.
    pub fn share(&self, row: &Row) -> f64 {
        self.bound(row).seconds / row.seconds
    }
}
