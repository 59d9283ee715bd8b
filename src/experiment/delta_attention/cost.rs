//! Chapter 7: how the flops and the cache of softmax attention and of the
//! delta family grow with sequence length.

use crate::delta::{flops_chunked, flops_recurrent, flops_softmax};
use crate::measure::{Measure, fixed};

/// Widths `d = K = V` and the chunk size of the comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub d: usize,
    pub chunk: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup { d: 128, chunk: 64 };

impl Setup {
    /// Sequence lengths of the cost figure: powers of two from 64 to 2²⁰.
    pub fn lengths(&self) -> Vec<usize> {
        (6..=20).map(|p| 1usize << p).collect()
    }

    /// The smallest length at which `kda_chunked` counts fewer flops than softmax attention.
    pub fn crossover(&self) -> usize {
        let d = self.d;
        self.lengths()
            .into_iter()
            .find(|&t| flops_chunked(t, d, d, self.chunk) < flops_softmax(t, d, d))
            .expect("the chunked form wins within 2^20")
    }

    /// The share of a 3:1 hybrid's cache saved at length `t` against full
    /// attention, if three of four layers keep a `K·V` state instead of a
    /// `T·(K + V)` cache.
    pub fn hybrid_cache_saving(&self, t: usize) -> f64 {
        let (kv, cache) = ((self.d * self.d) as f64, (t * 2 * self.d) as f64);
        1.0 - (0.25 * cache + 0.75 * kv) / cache
    }
}

/// The numbers chapter 7 quotes from this comparison.
pub fn measures() -> Vec<Measure> {
    let (d, c) = (BOOK.d, BOOK.chunk);
    let t_big = 1 << 20;
    vec![
        Measure::new("cost_d", d.to_string()),
        Measure::new("cost_chunk", c.to_string()),
        Measure::new("crossover", BOOK.crossover().to_string()),
        Measure::new(
            "flops_ratio_1m",
            fixed(
                flops_softmax(t_big, d, d) / flops_chunked(t_big, d, d, c),
                0,
            ),
        ),
        Measure::new(
            "chunked_over_recurrent",
            fixed(
                flops_chunked(4096, d, d, c) / flops_recurrent(4096, d, d),
                2,
            ),
        ),
        Measure::new(
            "hybrid_saving",
            fixed(100.0 * BOOK.hybrid_cache_saving(t_big), 2),
        ),
    ]
}
