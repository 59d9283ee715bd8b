//! Wall-clock measurements of the mixers (`cargo run --release -- bench`):
//! softmax attention, recurrent KDA and chunked KDA against sequence length,
//! and the machine's matrix-multiply throughput through the same nalgebra
//! path. Timing only; the figure is drawn in `figures`. Introduced in chapter 7.

use std::time::Instant;

use nalgebra::{DMatrix, DVector};

use crate::delta::{
    flops_chunked, flops_recurrent, flops_softmax, kda, kda_chunked, l2_normalize,
    softmax_attention,
};
use crate::measure::Measure;
use crate::random::{gaussian, seeded};

/// The chunk size the bench runs `kda_chunked` with: the fastest of
/// [`CHUNK_SWEEP`] on the machine this book was written on (fla's GPU default is 64).
pub const CHUNK: usize = 32;

/// The chunk sizes [`chunk_sweep`] times at `T = 4096`, `K = V = 128`.
pub const CHUNK_SWEEP: [usize; 4] = [16, 32, 64, 128];

/// The bench's settings quoted in the How fast appendix (no timings: those
/// are in the report each run writes).
pub fn measures() -> Vec<Measure> {
    let sweep: Vec<String> = CHUNK_SWEEP.iter().map(|c| c.to_string()).collect();
    let (last, rest) = sweep.split_last().expect("the sweep is not empty");
    vec![
        Measure::new("chunk", CHUNK.to_string()),
        Measure::new("chunk_sweep", format!("{} and {last}", rest.join(", "))),
    ]
}

/// Median wall-clock seconds of each of `n` kernels, where `run(i)` runs
/// kernel `i`, over `repeats` rounds after one warm-up round. Every round runs
/// each kernel once, in turn, so that a change in the machine's load (the
/// bench shares its cores) touches all of them alike and their ratios stay fair.
pub fn median_seconds(repeats: usize, n: usize, mut run: impl FnMut(usize)) -> Vec<f64> {
    (0..n).for_each(&mut run);
    let mut times = vec![Vec::new(); n];
    for _ in 0..repeats.max(1) {
        for (i, t) in times.iter_mut().enumerate() {
            let start = Instant::now();
            run(i);
            t.push(start.elapsed().as_secs_f64());
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect()
}

/// Matrix-multiply throughput in GFLOP/s: `C = A B` for `n × n` matrices
/// (`2n³` flops), through nalgebra's `gemm` as the kernels use it.
pub fn matmul_gflops(n: usize, repeats: usize) -> f64 {
    let mut rng = seeded(0);
    let (a, b) = (gaussian(&mut rng, n, n, 1.0), gaussian(&mut rng, n, n, 1.0));
    let mut c = DMatrix::zeros(n, n);
    let secs = median_seconds(repeats, 1, |_| c.gemm(1.0, &a, &b, 0.0))[0];
    2.0 * (n as f64).powi(3) / secs / 1e9
}

/// One measured kernel at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `softmax`, `kda` or `kda_chunked`.
    pub mixer: &'static str,
    /// Sequence length `T`.
    pub t: usize,
    /// Head width `K = V`.
    pub d: usize,
    /// Median seconds.
    pub seconds: f64,
    /// Counted flops (see [`crate::delta::flops_softmax`] and its siblings).
    pub flops: f64,
}

impl Row {
    /// Achieved GFLOP/s.
    pub fn gflops(&self) -> f64 {
        self.flops / self.seconds / 1e9
    }
}

/// Runs of fewer repeats at larger `T`: 7 up to 1024, 5 up to 4096, then 1.
pub fn repeats(t: usize) -> usize {
    match t {
        0..=1024 => 7,
        1025..=4096 => 5,
        _ => 1,
    }
}

/// The bench's inputs at length `t` and width `K = V = d`: L2-normalised
/// random q and k, Gaussian v, decays `g = −|N(0, 0.05²)|`, `β = 0.5` and
/// the scale `d^-1/2`.
struct Inputs {
    q: DMatrix<f64>,
    k: DMatrix<f64>,
    v: DMatrix<f64>,
    g: DMatrix<f64>,
    beta: DVector<f64>,
    scale: f64,
}

impl Inputs {
    fn new(t: usize, d: usize) -> Inputs {
        let mut rng = seeded(t as u64 + d as u64);
        Inputs {
            q: l2_normalize(&gaussian(&mut rng, t, d, 1.0)),
            k: l2_normalize(&gaussian(&mut rng, t, d, 1.0)),
            v: gaussian(&mut rng, t, d, 1.0),
            g: gaussian(&mut rng, t, d, 0.05).map(|x| -x.abs()),
            beta: DVector::from_element(t, 0.5),
            scale: 1.0 / (d as f64).sqrt(),
        }
    }

    fn softmax(&self) {
        drop(softmax_attention(&self.q, &self.k, &self.v, self.scale));
    }

    fn recurrent(&self) {
        let (q, k, v, g, beta) = (&self.q, &self.k, &self.v, &self.g, &self.beta);
        drop(kda(q, k, v, g, beta, self.scale, None));
    }

    fn chunked(&self, chunk: usize) {
        let (q, k, v, g, beta) = (&self.q, &self.k, &self.v, &self.g, &self.beta);
        drop(kda_chunked(q, k, v, g, beta, self.scale, None, chunk));
    }
}

/// Time the three mixers at every `T` in `ts` and `K = V = d` in `ds` (see [`Inputs`]).
pub fn run(ts: &[usize], ds: &[usize], mut progress: impl FnMut(&Row)) -> Vec<Row> {
    let mut rows = Vec::new();
    for &d in ds {
        for &t in ts {
            let x = Inputs::new(t, d);
            let seconds = median_seconds(repeats(t), 3, |i| match i {
                0 => x.softmax(),
                1 => x.recurrent(),
                _ => x.chunked(CHUNK),
            });
            let timed = [
                ("softmax", seconds[0], flops_softmax(t, d, d)),
                ("kda", seconds[1], flops_recurrent(t, d, d)),
                ("kda_chunked", seconds[2], flops_chunked(t, d, d, CHUNK)),
            ];
            for (mixer, seconds, flops) in timed {
                let row = Row {
                    mixer,
                    t,
                    d,
                    seconds,
                    flops,
                };
                progress(&row);
                rows.push(row);
            }
        }
    }
    rows
}

/// Median seconds of `kda_chunked` at `T = 4096`, `K = V = 128` for each
/// chunk size in [`CHUNK_SWEEP`], timed in interleaved rounds.
pub fn chunk_sweep() -> Vec<(usize, f64)> {
    let x = Inputs::new(4096, 128);
    let seconds = median_seconds(repeats(4096), CHUNK_SWEEP.len(), |i| {
        x.chunked(CHUNK_SWEEP[i])
    });
    CHUNK_SWEEP.into_iter().zip(seconds).collect()
}

/// The table the bench prints: one line per kernel and size, with the share
/// of the measured matrix-multiply throughput `peak` (GFLOP/s).
pub fn table(rows: &[Row], peak: f64) -> String {
    let mut s = format!(
        "{:<12} {:>6} {:>4} {:>12} {:>10} {:>9}\n",
        "mixer", "T", "K=V", "median ms", "GFLOP/s", "of gemm"
    );
    for r in rows {
        s += &format!(
            "{:<12} {:>6} {:>4} {:>12.3} {:>10.2} {:>8.0}%\n",
            r.mixer,
            r.t,
            r.d,
            r.seconds * 1e3,
            r.gflops(),
            100.0 * r.gflops() / peak
        );
    }
    s
}

/// The speed-up of `kda_chunked` over `kda` at `(t, d)`, if both were measured.
pub fn speedup(rows: &[Row], t: usize, d: usize) -> Option<f64> {
    let find = |m: &str| {
        rows.iter()
            .find(|r| r.mixer == m && r.t == t && r.d == d)
            .map(|r| r.seconds)
    };
    Some(find("kda")? / find("kda_chunked")?)
}

/// The whole report of one bench run: the reference throughput, the table,
/// the chunk sizes swept at `T = 4096`, `K = V = 128`, and the two goals of
/// chapter 7 checked there (chunked at least 3× the recurrence, and at least
/// 25% of `peak`).
pub fn report(rows: &[Row], sweep: &[(usize, f64)], peak: f64) -> String {
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    let mut s = format!(
        "matrix multiply (512 × 512 × 512, nalgebra gemm, best of before and after): {peak:.2} GFLOP/s\n"
    );
    s += &table(rows, peak);
    if !sweep.is_empty() {
        let times: Vec<String> = sweep
            .iter()
            .map(|(c, secs)| format!("{c}: {:.1} ms", secs * 1e3))
            .collect();
        s += &format!(
            "kda_chunked by chunk size at T = 4096, K = V = 128: {}\n",
            times.join(", ")
        );
    }
    if let Some(x) = speedup(rows, 4096, 128) {
        s += &format!(
            "kda_chunked is {x:.2}× faster than kda at T = 4096, K = V = 128 (chunk {CHUNK}); goal ≥ 3×: {}\n",
            verdict(x >= 3.0)
        );
    }
    let chunked = rows
        .iter()
        .find(|r| r.mixer == "kda_chunked" && r.t == 4096 && r.d == 128);
    if let Some(r) = chunked {
        let share = r.gflops() / peak;
        s += &format!(
            "kda_chunked reaches {:.0}% of the matrix-multiply throughput there; goal ≥ 25%: {}\n",
            100.0 * share,
            verdict(share >= 0.25)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(mixer: &'static str, seconds: f64) -> Row {
        Row {
            mixer,
            t: 4096,
            d: 128,
            seconds,
            flops: 1e9,
        }
    }

    #[test]
    fn the_report_checks_both_goals_either_way() {
        let sweep = [(32, 0.02), (64, 0.03)];
        let fast = report(&[row("kda", 0.1), row("kda_chunked", 0.02)], &sweep, 100.0);
        assert!(fast.contains("5.00× faster") && fast.contains("goal ≥ 3×: met"));
        assert!(fast.contains("50% of the matrix-multiply throughput there; goal ≥ 25%: met"));
        assert!(fast.contains("32: 20.0 ms, 64: 30.0 ms"));
        let slow = report(&[row("kda", 0.1), row("kda_chunked", 0.05)], &[], 100.0);
        assert!(slow.contains("2.00× faster") && slow.contains("goal ≥ 3×: NOT met"));
        assert!(slow.contains("20% of the matrix-multiply throughput there; goal ≥ 25%: NOT met"));
    }

    #[test]
    fn rounds_time_every_kernel_and_report_one_median_each() {
        let mut calls = [0; 3];
        let medians = median_seconds(4, 3, |i| calls[i] += 1);
        assert_eq!(calls, [5, 5, 5]); // a warm-up round and four timed rounds
        assert!(medians.len() == 3 && medians.iter().all(|&s| s >= 0.0));
    }
}
