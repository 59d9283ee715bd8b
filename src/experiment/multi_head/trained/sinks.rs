//! Chapter 3's sink heads counted against uniform attention: a head's sink
//! weight times the sentence's length, so that short sentences, where every
//! token gets more weight, do not make more sinks; beside the absolute
//! weight, over every sentence and over the shorter and longer halves.
//!
//! ```text
//! absolute   mean_s top_s        > t     (t = 0.3, 0.5, 0.7)
//! relative   mean_s n_s · top_s  > c     (c = 3, 4, 6, 8: c times uniform, 1/n)
//! ```

use super::patterns::{Patterns, SentenceSinks};
use crate::stats::mean;

/// When a head counts as a sink head.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Criterion {
    /// The sink's mean weight above `t`.
    Absolute(f64),
    /// The sink's mean weight times `n` above `c`: `c` times uniform.
    Relative(f64),
}

/// The book's criterion: four times uniform, the absolute 0.5 at the corpus's
/// mean length (8.5 tokens). The first default, eight times uniform, was fixed
/// without regard for the lengths and asks for 94% of the weight at the mean
/// length: no head passes it. It stays listed among the choices.
pub const DEFAULT: Criterion = Criterion::Relative(4.0);

/// Every criterion the section varies, the default first.
pub const CRITERIA: [Criterion; 7] = [
    DEFAULT,
    Criterion::Relative(3.0),
    Criterion::Relative(6.0),
    Criterion::Relative(8.0),
    Criterion::Absolute(0.3),
    Criterion::Absolute(0.5),
    Criterion::Absolute(0.7),
];

impl Criterion {
    /// Its measure key: `rel8`, `abs50`.
    pub fn key(self) -> String {
        match self {
            Criterion::Absolute(t) => format!("abs{}", (t * 100.0).round()),
            Criterion::Relative(c) => format!("rel{c}"),
        }
    }

    /// The bound as a weight: `0.5`, `8/n`.
    pub fn short(self) -> String {
        match self {
            Criterion::Absolute(t) => format!("{t}"),
            Criterion::Relative(c) => format!("{c}/n"),
        }
    }

    /// How cards name it.
    pub fn label(self) -> String {
        match self {
            Criterion::Absolute(t) => format!("mean weight on the sink above {t}"),
            Criterion::Relative(c) => format!("mean weight on the sink above {c}× uniform ({c}/n)"),
        }
    }

    /// One sentence's score of head `k` under this criterion.
    fn of(self, s: &SentenceSinks, k: usize) -> f64 {
        match self {
            Criterion::Absolute(_) => s.top[k],
            Criterion::Relative(_) => s.top[k] * s.n as f64,
        }
    }

    fn bound(self) -> f64 {
        match self {
            Criterion::Absolute(t) | Criterion::Relative(t) => t,
        }
    }
}

/// Which sentences count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sentences {
    All,
    /// The shorter half by token count (ties kept in corpus order).
    Shorter,
    /// The longer half.
    Longer,
}

impl Sentences {
    pub const ALL: [Sentences; 3] = [Sentences::All, Sentences::Shorter, Sentences::Longer];

    pub fn name(self) -> &'static str {
        match self {
            Sentences::All => "all",
            Sentences::Shorter => "shorter",
            Sentences::Longer => "longer",
        }
    }
}

impl Patterns {
    /// The sentences of one half, or all of them.
    pub fn subset(&self, which: Sentences) -> Vec<&SentenceSinks> {
        let mut by_length: Vec<&SentenceSinks> = self.sentences.iter().collect();
        by_length.sort_by_key(|s| s.n);
        let half = by_length.len() / 2;
        match which {
            Sentences::All => self.sentences.iter().collect(),
            Sentences::Shorter => by_length[..half].to_vec(),
            Sentences::Longer => by_length[half..].to_vec(),
        }
    }

    /// Head `k`'s mean score under `c` over `which` sentences.
    pub fn sink_score(&self, k: usize, c: Criterion, which: Sentences) -> f64 {
        mean(
            &self
                .subset(which)
                .iter()
                .map(|s| c.of(s, k))
                .collect::<Vec<_>>(),
        )
    }

    /// The heads `[layer·12 + head]` that are sink heads under `c` on `which` sentences.
    pub fn sink_heads(&self, c: Criterion, which: Sentences) -> Vec<usize> {
        (0..self.sink.len())
            .filter(|&k| self.sink_score(k, c, which) > c.bound())
            .collect()
    }

    /// The largest mean (over sentences that have it) of one column weight, over heads.
    pub fn largest_mean(&self, of: fn(&SentenceSinks) -> Option<&Vec<f64>>) -> f64 {
        (0..self.sink.len())
            .map(|k| {
                let v: Vec<f64> = self.sentences.iter().filter_map(of).map(|w| w[k]).collect();
                mean(&v)
            })
            .fold(0.0, f64::max)
    }

    /// Mean sentence length of `which` sentences.
    pub fn mean_length(&self, which: Sentences) -> f64 {
        mean(
            &self
                .subset(which)
                .iter()
                .map(|s| s.n as f64)
                .collect::<Vec<_>>(),
        )
    }
}
