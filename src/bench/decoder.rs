//! The SmolLM2 decoder's forward pass timed against the machine's own f32
//! matrix-product rate: a prompt of `n` tokens run from an empty cache to the
//! next-token logits, the way `attention-geometry next` runs it. And decoding,
//! one token at a time on the packed blocks, the way `attention-geometry
//! complete` runs it, against the time to read its weights from memory.
//!
//! ```text
//! flops(n) = 2 n P_blocks                      every block's seven matrices
//!          + 30 · 9 · 2 · 2 · 64 · n(n+1)/2    scores and weighted values, causal
//!          + 2 · 576 · 49152                   the last position's logits
//! ```
//!
//! Introduced in chapter 1.

use super::median_seconds;
use crate::pretrained::smollm2::{Cache, SmolLm2, forward};

/// The prompt lengths the bench times.
pub const LENGTHS: [usize; 3] = [16, 128, 512];

/// The share of the f32 matrix-product rate the pass should reach at 128 tokens.
pub const GOAL: f64 = 0.25;

/// Counted flops of one prompt of `n` tokens (see the module's formula).
pub fn flops(model: &SmolLm2, n: usize) -> f64 {
    let c = &model.config;
    let params: usize = model
        .weights
        .blocks
        .iter()
        .map(|b| {
            [
                &b.w_q, &b.w_k, &b.w_v, &b.w_o, &b.w_gate, &b.w_up, &b.w_down,
            ]
            .iter()
            .map(|w| w.len())
            .sum::<usize>()
        })
        .sum();
    let attention = c.n_layer * c.n_head * 4 * c.head_dim * n * (n + 1) / 2;
    (2 * n * params + attention + 2 * c.d_model * c.vocab) as f64
}

/// One timed prompt length.
#[derive(Clone, Debug, PartialEq)]
pub struct DecoderRow {
    /// Prompt tokens.
    pub n: usize,
    /// Median seconds from ids to the last position's logits.
    pub seconds: f64,
    /// [`flops`] of the prompt.
    pub flops: f64,
}

impl DecoderRow {
    /// Prompt tokens per second.
    pub fn tokens_per_second(&self) -> f64 {
        self.n as f64 / self.seconds
    }

    /// Achieved GFLOP/s.
    pub fn gflops(&self) -> f64 {
        self.flops / self.seconds / 1e9
    }
}

/// Time the pass at each length in `ns` (median of `repeats`, after a warm-up).
pub fn run(model: &SmolLm2, ns: &[usize], repeats: usize) -> Vec<DecoderRow> {
    ns.iter()
        .map(|&n| {
            // ids spread over the vocabulary, the same every run
            let ids: Vec<u32> = (0..n).map(|i| (1000 + 7919 * i % 40000) as u32).collect();
            let seconds = median_seconds(repeats, 1, |_| {
                let x = model.extend(&mut Cache::new(&model.config), &ids);
                let last = x.rows(n - 1, 1).into_owned();
                std::hint::black_box(forward::logits(&model.weights, &last));
            })[0];
            DecoderRow {
                n,
                seconds,
                flops: flops(model, n),
            }
        })
        .collect()
}

/// Tokens each decode timing generates after its one-token prompt (llama-bench's `tg64`).
pub const DECODE_TOKENS: usize = 64;

/// Decoding timed: greedy steps on the packed blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeRow {
    /// Tokens generated per run.
    pub tokens: usize,
    /// Median seconds per generated token: a run of `1 + tokens` greedy
    /// tokens less a run of one (the prompt's pass and its first logits).
    pub seconds: f64,
    /// Bytes of weights one step reads: every packed matrix and the embedding.
    pub bytes: usize,
}

impl DecodeRow {
    /// Generated tokens per second.
    pub fn tokens_per_second(&self) -> f64 {
        1.0 / self.seconds
    }

    /// The least time a step could take, reading its weights at `read_gbs`.
    pub fn bound_seconds(&self, read_gbs: f64) -> f64 {
        self.bytes as f64 / (read_gbs * 1e9)
    }
}

/// Time `tokens` greedy steps after a one-token prompt (median of `repeats`).
///
/// # Panics
/// If the model has no packed blocks.
pub fn decode(model: &SmolLm2, tokens: usize, repeats: usize) -> DecodeRow {
    let packed = model
        .packed
        .as_ref()
        .expect("decode: the model has no packed blocks");
    let bytes = packed.embedding.bytes()
        + packed
            .blocks
            .iter()
            .flat_map(|b| b.matrices())
            .map(|m| m.bytes())
            .sum::<usize>();
    let prompt = [1000u32];
    let [one, all] = median_seconds(repeats, 2, |i| {
        std::hint::black_box(model.greedy(&prompt, 1 + i * tokens));
    })[..] else {
        unreachable!("two timings")
    };
    DecodeRow {
        tokens,
        seconds: (all - one) / tokens as f64,
        bytes,
    }
}

/// The report: one line per length, each against `gemm_gflops`, and the goal;
/// then the decode row against the weights' read time at `read_gbs`.
pub fn report(rows: &[DecoderRow], gemm_gflops: f64, decode: &DecodeRow, read_gbs: f64) -> String {
    let mut out = format!(
        "SmolLM2-135M forward pass, one thread, f32 activations;\n\
         f32 matrix product (128 × 576 by 576 × 1536): {gemm_gflops:.1} GFLOP/s\n\n\
         {:>6}  {:>10}  {:>9}  {:>8}  {:>6}\n",
        "tokens", "ms", "tokens/s", "GFLOP/s", "share"
    );
    for r in rows {
        out += &format!(
            "{:>6}  {:>10.1}  {:>9.0}  {:>8.1}  {:>5.0}%\n",
            r.n,
            r.seconds * 1e3,
            r.tokens_per_second(),
            r.gflops(),
            100.0 * r.gflops() / gemm_gflops
        );
    }
    if let Some(r) = rows.iter().find(|r| r.n == 128) {
        let share = r.gflops() / gemm_gflops;
        out += &format!(
            "\ngoal: at least {:.0}% of the matrix-product rate at 128 tokens: {} ({:.0}%)\n",
            100.0 * GOAL,
            if share >= GOAL { "met" } else { "not met" },
            100.0 * share
        );
    }
    let bound = decode.bound_seconds(read_gbs);
    out += &format!(
        "\ndecode, {} tokens one at a time on the packed blocks:\n\
         {:>6.2} ms a token, {:.0} tokens/s; {:.1} MB of weights a token,\n\
         read at {read_gbs:.1} GB/s (a {} MB buffer) in {:.2} ms: {:.0}% of that bound\n",
        decode.tokens,
        decode.seconds * 1e3,
        decode.tokens_per_second(),
        decode.bytes as f64 / 1e6,
        READ_BUFFER >> 20,
        bound * 1e3,
        100.0 * bound / decode.seconds
    );
    out
}

/// Bytes of the buffer the read bandwidth is measured on: eight times the
/// 32 MiB last-level cache of the machine the book was timed on.
pub const READ_BUFFER: usize = 256 << 20;
