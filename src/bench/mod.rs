//! Wall-clock measurements of the mixers (`cargo run --release -- bench`):
//! softmax attention, the reference and fused recurrences of KDA and chunked
//! KDA against sequence length, each held to the bound the machine's measured
//! matrix-product rate and cache bandwidth set for it ([`machine`]), written
//! up as a report ([`report()`]). Timing only; the figure is drawn in `figures`.
//! Introduced in chapter 7.

pub mod decoder;
pub mod machine;
pub mod report;
pub mod training;

use std::hint::black_box;
use std::time::Instant;

use crate::delta::{DeltaInput, flops_chunked, flops_recurrent, flops_softmax};
use crate::measure::Measure;

pub use machine::{Bound, Limit, Machine, gemm_gflops, matmul_gflops, read_gbs, stream_gbs};
pub use report::{Report, report};

/// The chunk size the bench runs `kda_chunked` with: the fastest of
/// [`CHUNK_SWEEP`] on the machine this book was written on (fla's GPU default is 64).
pub const CHUNK: usize = 32;

/// The chunk sizes [`chunk_sweep`] times at `T = 4096`, `K = V = 128`.
pub const CHUNK_SWEEP: [usize; 4] = [16, 32, 64, 128];

/// The sequence lengths the bench times.
pub const LENGTHS: [usize; 4] = [256, 1024, 4096, 16384];

/// The head widths `K = V` the bench times.
pub const WIDTHS: [usize; 2] = [64, 128];

/// The bench's settings quoted in the How fast appendix (no timings: those
/// are in the report each run writes).
pub fn measures() -> Vec<Measure> {
    let list = |xs: &[usize]| {
        let xs: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
        let (last, rest) = xs.split_last().expect("not empty");
        format!("{} and {last}", rest.join(", "))
    };
    let percent = |x: f64| format!("{:.0}%", 100.0 * x);
    vec![
        Measure::new("chunk", CHUNK.to_string()),
        Measure::new("chunk_sweep", format!("{:?}", CHUNK_SWEEP)),
        Measure::new("fused_block", crate::delta::FUSED_STEPS.to_string()),
        Measure::new(
            "fused_panel_kib",
            (crate::delta::FUSED_PANEL_BYTES / 1024).to_string(),
        ),
        Measure::new("lengths", list(&LENGTHS)),
        Measure::new("widths", list(&WIDTHS)),
        Measure::new("goal_t", report::GOAL_SIZE.0.to_string()),
        Measure::new("goal_d", report::GOAL_SIZE.1.to_string()),
        Measure::new("fused_goal", percent(report::FUSED_GOAL)),
        Measure::new("chunked_goal", percent(report::CHUNKED_GOAL)),
        Measure::new("decoder_goal", percent(decoder::GOAL)),
        Measure::new("decode_tokens", decoder::DECODE_TOKENS.to_string()),
        Measure::new("training_goal", format!("{:.0}×", training::GOAL)),
    ]
}

/// A kernel the bench times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mixer {
    /// [`crate::delta::softmax_attention`].
    Softmax,
    /// [`crate::delta::kda`], the readable recurrence.
    Kda,
    /// [`crate::delta::kda_fused`], one pass over the state per two steps.
    KdaFused,
    /// [`crate::delta::kda_chunked`] with chunks of [`CHUNK`].
    KdaChunked,
}

impl Mixer {
    /// Every mixer, in the order of the report.
    pub const ALL: [Mixer; 4] = [
        Mixer::Softmax,
        Mixer::Kda,
        Mixer::KdaFused,
        Mixer::KdaChunked,
    ];

    /// The kernel's name in the library.
    pub fn name(self) -> &'static str {
        match self {
            Mixer::Softmax => "softmax",
            Mixer::Kda => "kda",
            Mixer::KdaFused => "kda_fused",
            Mixer::KdaChunked => "kda_chunked",
        }
    }

    /// Run the kernel once on `x` (chunks of `chunk` for the chunked form).
    pub fn run(self, x: &DeltaInput, chunk: usize) {
        match self {
            Mixer::Softmax => drop(black_box(x.softmax_attention())),
            Mixer::Kda => drop(black_box(x.kda())),
            Mixer::KdaFused => drop(black_box(x.kda_fused())),
            Mixer::KdaChunked => drop(black_box(x.kda_chunked(chunk))),
        }
    }

    /// Counted flops at length `t`, `K = V = d` (see [`crate::delta::flops_softmax`] and its siblings).
    pub fn flops(self, t: usize, d: usize) -> f64 {
        match self {
            Mixer::Softmax => flops_softmax(t, d, d),
            Mixer::Kda | Mixer::KdaFused => flops_recurrent(t, d, d),
            Mixer::KdaChunked => flops_chunked(t, d, d, CHUNK),
        }
    }

    /// Whether the kernel is a recurrence, which must stream its `[K, V]`
    /// state through the cache once per step (read and written: `16 K V` bytes in `f64`).
    pub fn streams_state(self) -> bool {
        matches!(self, Mixer::Kda | Mixer::KdaFused)
    }
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

/// One measured kernel at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The kernel.
    pub mixer: Mixer,
    /// Sequence length `T`.
    pub t: usize,
    /// Head width `K = V`.
    pub d: usize,
    /// Median seconds.
    pub seconds: f64,
    /// Counted flops ([`Mixer::flops`]).
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

/// The bench's inputs at length `t` and width `K = V = d`: [`DeltaInput::random`]
/// (unit q and k, `g = −0.1 · U(0, 1)`, `β ~ U(0, 1)`, scale `d^-1/2`) from a zero state.
pub fn inputs(t: usize, d: usize) -> DeltaInput {
    DeltaInput::random(t as u64 + d as u64, t, d, d, 0.1).with_initial_state(None)
}

/// Time every mixer at every `T` in `ts` and `K = V = d` in `ds` (see [`inputs`]).
pub fn run(ts: &[usize], ds: &[usize], mut progress: impl FnMut(&Row)) -> Vec<Row> {
    let mut rows = Vec::new();
    for &d in ds {
        for &t in ts {
            let x = inputs(t, d);
            let seconds = median_seconds(repeats(t), Mixer::ALL.len(), |i| {
                Mixer::ALL[i].run(&x, CHUNK)
            });
            for (mixer, seconds) in Mixer::ALL.into_iter().zip(seconds) {
                let row = Row {
                    mixer,
                    t,
                    d,
                    seconds,
                    flops: mixer.flops(t, d),
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
    let x = inputs(4096, 128);
    let seconds = median_seconds(repeats(4096), CHUNK_SWEEP.len(), |i| {
        Mixer::KdaChunked.run(&x, CHUNK_SWEEP[i])
    });
    CHUNK_SWEEP.into_iter().zip(seconds).collect()
}
