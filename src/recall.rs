//! Multi-query associative recall (MQAR; Arora et al. 2023, "Zoology"): a
//! sequence of key–value token pairs, then queries of keys seen earlier; at
//! each query the model must emit that key's value.
//!
//! With `vocab` tokens, keys are drawn from `1 .. vocab/2` and values from
//! `vocab/2 .. vocab`, each without replacement within a sequence (Zoology's
//! `multiquery_ar`). Every stored key is queried exactly once, at an even
//! offset of the query region; the other positions hold the filler token 0
//! (Zoology's `random_non_queries = False`, gaps uniform: its `power_a = 1`):
//!
//! ```text
//! position:  0   1   2   3  | 4   5   6   7   8   9   10  11
//! token:     k₁  v₁  k₂  v₂ | 0   0   k₂  0   k₁  0   0   0
//! target:                   |         v₂      v₁
//! ```
//! Introduced in chapter 7.

use rand::RngExt;

use crate::random::Rng;

/// The task's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mqar {
    /// Number of tokens; keys are `1 .. vocab/2`, values `vocab/2 .. vocab`, 0 is the filler.
    pub vocab: usize,
    /// Key–value pairs stored (and queried) per sequence.
    pub pairs: usize,
    /// Sequence length `T ≥ 4 · pairs`.
    pub len: usize,
}

/// One sequence: its tokens and, at each query position, the value it asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// `[T]` token ids.
    pub tokens: Vec<usize>,
    /// `(position, target value)` for each query, in position order.
    pub queries: Vec<(usize, usize)>,
}

/// `n` distinct draws from `lo..hi`: a partial Fisher–Yates shuffle.
fn distinct(rng: &mut Rng, lo: usize, hi: usize, n: usize) -> Vec<usize> {
    let mut pool: Vec<usize> = (lo..hi).collect();
    for i in 0..n {
        let j = rng.random_range(i..pool.len());
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}

/// Query every key `keys[i]` once, at an even offset `2·gap_i` of the query
/// region after `context`, asking for `answers[i]`: writes the keys into
/// `tokens` and returns the `(position, answer)` pairs in position order.
fn ask(
    rng: &mut Rng,
    tokens: &mut [usize],
    context: usize,
    keys: &[usize],
    answers: &[usize],
) -> Vec<(usize, usize)> {
    let slots = (tokens.len() - context).div_ceil(2);
    let gaps = distinct(rng, 0, slots, keys.len());
    let mut queries: Vec<(usize, usize)> = (0..keys.len())
        .map(|i| {
            let p = context + 2 * gaps[i];
            tokens[p] = keys[i];
            (p, answers[i])
        })
        .collect();
    queries.sort_unstable();
    queries
}

impl Mqar {
    /// # Panics
    /// If there are too few keys or values for `pairs`, or `len < 4 · pairs`.
    fn check(&self) {
        let half = self.vocab / 2;
        assert!(
            self.pairs >= 1 && self.pairs < half && self.pairs <= self.vocab - half,
            "Mqar: {} pairs need {} distinct keys in 1..{half}; vocab {} is too small",
            self.pairs,
            self.pairs,
            self.vocab
        );
        assert!(
            self.len >= 4 * self.pairs,
            "Mqar: length {} is shorter than 4 · pairs = {}",
            self.len,
            4 * self.pairs
        );
    }

    /// One seeded sequence.
    ///
    /// # Panics
    /// If the parameters do not fit (see [`Mqar`]).
    ///
    /// ```
    /// use attention_geometry::random::seeded;
    /// use attention_geometry::recall::Mqar;
    /// let task = Mqar { vocab: 16, pairs: 3, len: 14 };
    /// let s = task.sample(&mut seeded(0));
    /// assert_eq!((s.tokens.len(), s.queries.len()), (14, 3));
    /// for &(p, value) in &s.queries {
    ///     // the queried key sits just before its value in the context
    ///     let j = (0..6).step_by(2).find(|&j| s.tokens[j] == s.tokens[p]).unwrap();
    ///     assert!(p >= 6 && s.tokens[j + 1] == value);
    /// }
    /// ```
    pub fn sample(&self, rng: &mut Rng) -> Sequence {
        self.check();
        let (n, half) = (self.pairs, self.vocab / 2);
        let keys = distinct(rng, 1, half, n);
        let values = distinct(rng, half, self.vocab, n);
        let mut tokens = vec![0; self.len];
        for i in 0..n {
            tokens[2 * i] = keys[i];
            tokens[2 * i + 1] = values[i];
        }
        let queries = ask(rng, &mut tokens, 2 * n, &keys, &values);
        Sequence { tokens, queries }
    }

    /// `n` seeded sequences.
    pub fn batch(&self, rng: &mut Rng, n: usize) -> Vec<Sequence> {
        (0..n).map(|_| self.sample(rng)).collect()
    }
}

/// A recall task: its vocabulary and seeded batches of sequences (what the
/// trainers of [`crate::mixer`] draw from).
pub trait Task: Copy {
    /// Number of tokens.
    fn vocab(&self) -> usize;

    /// `n` seeded sequences.
    fn draw(&self, rng: &mut Rng, n: usize) -> Vec<Sequence>;
}

impl Task for Mqar {
    fn vocab(&self) -> usize {
        self.vocab
    }

    fn draw(&self, rng: &mut Rng, n: usize) -> Vec<Sequence> {
        self.batch(rng, n)
    }
}

impl Task for Updates {
    fn vocab(&self) -> usize {
        self.vocab
    }

    fn draw(&self, rng: &mut Rng, n: usize) -> Vec<Sequence> {
        self.batch(rng, n)
    }
}

/// Associative recall with updates: `pairs` keys are written, `updates` of
/// them are written again with a new value, then every key is queried once
/// and the answer is its *latest* value. The writes come in a random order
/// in which each updated key's two writes are both present, the earlier one
/// the stale value; the queries then sit at even offsets of the query region,
/// as [`Mqar`]'s. A share `updates / pairs` of the queries asks an updated
/// key, whose first write is the wrong answer.
///
/// ```text
/// position:  0   1   2   3   4   5  | 6   7   8   9   10  11
/// token:     k₁  v₁  k₂  v₂  k₁  v₃ | 0   0   k₁  0   k₂  0
/// target:                           |         v₃      v₂
/// ```
/// Introduced in chapter 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Updates {
    /// Number of tokens; keys are `1 .. vocab/2`, values `vocab/2 .. vocab`, 0 is the filler.
    pub vocab: usize,
    /// Distinct keys written (and queried) per sequence.
    pub pairs: usize,
    /// Keys written a second time with a new value, `≤ pairs`.
    pub updates: usize,
    /// Sequence length `T ≥ 2 (pairs + updates) + 2 pairs`.
    pub len: usize,
}

impl Updates {
    /// Number of writes, `pairs + updates`: the write region is twice as long.
    pub fn writes(&self) -> usize {
        self.pairs + self.updates
    }

    /// # Panics
    /// If there are too few keys or values, `updates > pairs`, or the sequence is too short.
    fn check(&self) {
        let half = self.vocab / 2;
        assert!(
            self.pairs >= 1
                && self.pairs < half
                && self.updates <= self.pairs
                && self.writes() <= self.vocab - half,
            "Updates: {} pairs and {} updates need {} keys in 1..{half} and {} values; vocab {} is too small",
            self.pairs,
            self.updates,
            self.pairs,
            self.writes(),
            self.vocab
        );
        assert!(
            self.len >= 2 * self.writes() + 2 * self.pairs,
            "Updates: length {} is shorter than 2 (pairs + updates) + 2 pairs = {}",
            self.len,
            2 * self.writes() + 2 * self.pairs
        );
    }

    /// One seeded sequence.
    ///
    /// # Panics
    /// If the parameters do not fit (see [`Updates`]).
    ///
    /// ```
    /// use attention_geometry::random::seeded;
    /// use attention_geometry::recall::Updates;
    /// let task = Updates { vocab: 32, pairs: 4, updates: 2, len: 20 };
    /// let s = task.sample(&mut seeded(0));
    /// assert_eq!((s.tokens.len(), s.queries.len()), (20, 4));
    /// for &(p, value) in &s.queries {
    ///     // the answer is the value after the key's last write
    ///     let last = (0..12).step_by(2).filter(|&j| s.tokens[j] == s.tokens[p]).last().unwrap();
    ///     assert!(p >= 12 && s.tokens[last + 1] == value);
    /// }
    /// ```
    pub fn sample(&self, rng: &mut Rng) -> Sequence {
        self.check();
        let (n, half) = (self.pairs, self.vocab / 2);
        let keys = distinct(rng, 1, half, n);
        let values = distinct(rng, half, self.vocab, self.writes());
        // the written keys: each once, the first `updates` twice, in a random order
        let mut order: Vec<usize> = (0..n).chain(0..self.updates).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let mut tokens = vec![0; self.len];
        let mut latest = vec![0; n];
        for (w, &i) in order.iter().enumerate() {
            tokens[2 * w] = keys[i];
            tokens[2 * w + 1] = values[w];
            latest[i] = values[w];
        }
        let queries = ask(rng, &mut tokens, 2 * self.writes(), &keys, &latest);
        Sequence { tokens, queries }
    }

    /// `n` seeded sequences.
    pub fn batch(&self, rng: &mut Rng, n: usize) -> Vec<Sequence> {
        std::iter::repeat_with(|| self.sample(rng))
            .take(n)
            .collect()
    }

    /// The write positions of the key queried at `p` in `seq`: the positions
    /// of the values written with it, in order (the last is the answer).
    pub fn writes_of(&self, seq: &Sequence, p: usize) -> Vec<usize> {
        (0..2 * self.writes())
            .step_by(2)
            .filter(|&j| seq.tokens[j] == seq.tokens[p])
            .map(|j| j + 1)
            .collect()
    }
}
