//! Seeded recall tasks that separate a symmetric relation from a directional one.
//!
//! Each example is a context of `n` (key, label) pairs and a query key. The
//! context always holds the query's own key `q`, its successor `q + 1` and
//! its predecessor `q − 1` (mod `vocab`), plus `n − 3` other distinct keys,
//! shuffled; every position carries a uniformly random label. Token rows are
//!
//! ```text
//! context:  x_j = e[key_j] + u[label_j] + noise,   query: x_T = e[q] + noise
//! Match:     target = label of the position whose key is q        (symmetric)
//! Successor: target = label of the position whose key is q + 1    (directional)
//! Both:      target = vocab · (label at q) + (label at q + 1)     (two relations at once)
//! Offsets:   target = label of the position whose key is q + r,  r < k drawn per example
//! TwoHop:    label at q is a context key k ≠ q;  target = label at the position of k
//! ```
//! For [`Relation::Offsets`] the context holds `q, q + 1, …, q + n − 1` (so
//! every relation's answer is present and the others are distractors) and
//! the query names the relation through its [`Cue`].
//! with `e, u: (vocab, d)` fixed N(0, 1) embedding tables and noise
//! N(0, noise²) drawn fresh for every token. Both relations share the same
//! inputs; only the relation read differs. Introduced in chapter 6.

use nalgebra::DMatrix;
use rand::RngExt;

use crate::random::{Rng, gaussian};

/// Which context position holds the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Relation {
    /// The position whose key equals the query: raw similarity is the right geometry.
    Match,
    /// The position whose key is the query's successor in the cyclic order `0 → 1 → … → vocab−1 → 0`.
    Successor,
    /// Both labels as one ordered pair: `vocab²` classes, two positions to read.
    Both,
    /// `k` relations `key = q + r`, `r < k` (`r = 0` is the match); each
    /// example draws one, and the query names it through `cue`. Introduced in chapter 4.
    Offsets { k: usize, cue: Cue },
    /// Two hops: the label at the query's key names another context key; the
    /// answer is that key's label. One layer cannot find the second position.
    /// Introduced in chapter 3.
    TwoHop,
}

/// How the query of a [`Relation::Offsets`] example names its relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Cue {
    /// `x_T = g[r · vocab + q]`, a fixed N(0, 1) embedding of the pair `(q, r)`:
    /// which key the pair relates to must be learned.
    Pair,
    /// `x_T = e[q + r]`, the key the relation names: the relation's structure
    /// is given, as if `W_QK` were fixed to map `g[r · vocab + q]` to `e[q + r]`.
    Answer,
}

impl Relation {
    /// The two single relations, in the book's order.
    pub const ALL: [Relation; 2] = [Relation::Match, Relation::Successor];

    /// Lower-case name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Relation::Match => "match",
            Relation::Successor => "successor",
            Relation::Both => "both",
            Relation::Offsets { .. } => "offsets",
            Relation::TwoHop => "two-hop",
        }
    }
}

/// The knobs of a task.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Task {
    pub relation: Relation,
    /// Number of keys (and of labels).
    pub vocab: usize,
    /// Context length `n` (the input has `n + 1` rows).
    pub context: usize,
    /// Token width `d`.
    pub d: usize,
    /// Standard deviation of the per-token embedding noise.
    pub noise: f64,
    /// Size of the fixed training set; `None` draws fresh examples every step.
    pub examples: Option<usize>,
}

/// One input and its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// `(context + 1, d)`; the last row is the query.
    pub x: DMatrix<f64>,
    /// The class to predict: a label, or for [`Relation::Both`] a pair of labels.
    pub target: usize,
    /// The context position holding the answer (for [`Relation::Both`], the match).
    pub position: usize,
    /// The context positions of the query's key `q` and of its successor `q + 1`
    /// (for [`Relation::TwoHop`]: of `q` and of the key its label names).
    pub pair: [usize; 2],
}

/// A task's fixed embedding tables, from which examples are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub task: Task,
    /// Key embeddings `e: (vocab, d)`.
    pub keys: DMatrix<f64>,
    /// Label embeddings `u: (vocab, d)`.
    pub labels: DMatrix<f64>,
    /// Query embeddings `g: (k · vocab, d)` of [`Relation::Offsets`]; `(0, d)` otherwise.
    pub queries: DMatrix<f64>,
}

impl Task {
    /// Number of answer classes: `vocab`, or `vocab²` for [`Relation::Both`].
    pub fn classes(&self) -> usize {
        match self.relation {
            Relation::Both => self.vocab * self.vocab,
            _ => self.vocab,
        }
    }

    /// Draw the embedding tables.
    ///
    /// # Panics
    /// If `context < 3` or `vocab < context` (the context needs `q − 1, q, q + 1`
    /// and distinct keys), or [`Relation::Offsets`] has `k = 0` or `k > context`.
    pub fn world(&self, rng: &mut Rng) -> World {
        assert!(
            self.context >= 3 && self.vocab >= self.context.max(4),
            "Task::world: need context ≥ 3 and vocab ≥ max(context, 4), got context {} and vocab {}",
            self.context,
            self.vocab
        );
        let keys = gaussian(rng, self.vocab, self.d, 1.0);
        let labels = gaussian(rng, self.vocab, self.d, 1.0);
        let queries = match self.relation {
            Relation::Offsets { k, .. } => {
                assert!(
                    k > 0 && k <= self.context,
                    "Task::world: need 0 < k ≤ context for Offsets, got k {k} and context {}",
                    self.context
                );
                gaussian(rng, k * self.vocab, self.d, 1.0)
            }
            _ => DMatrix::zeros(0, self.d),
        };
        World {
            task: *self,
            keys,
            labels,
            queries,
        }
    }
}

impl World {
    /// One seeded example.
    ///
    /// ```
    /// use attention_geometry::random::seeded;
    /// use attention_geometry::train::{Relation, Task};
    /// let task = Task { relation: Relation::Successor, vocab: 12, context: 5, d: 8, noise: 0.0, examples: None };
    /// let mut rng = seeded(1);
    /// let world = task.world(&mut rng);
    /// let ex = world.example(&mut rng);
    /// assert_eq!(ex.x.shape(), (6, 8));
    /// assert!(ex.target < 12 && ex.position < 5);
    /// ```
    pub fn example(&self, rng: &mut Rng) -> Example {
        let Task {
            relation,
            vocab,
            context,
            d,
            noise,
            ..
        } = self.task;
        let q = rng.random_range(0..vocab);
        let (r, mut keys) = match relation {
            Relation::Offsets { k, .. } => (
                rng.random_range(0..k),
                (0..context).map(|o| (q + o) % vocab).collect(),
            ),
            _ => (0, vec![q, (q + 1) % vocab, (q + vocab - 1) % vocab]),
        };
        while keys.len() < context {
            let k = rng.random_range(0..vocab);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        // Fisher–Yates shuffle of the context keys
        for i in (1..context).rev() {
            keys.swap(i, rng.random_range(0..=i));
        }
        let mut labels: Vec<usize> = (0..context).map(|_| rng.random_range(0..vocab)).collect();
        let at = |wanted: usize| {
            keys.iter()
                .position(|&k| k == wanted)
                .expect("the context holds q and q + 1")
        };
        let mut pair = [at(q), at((q + 1) % vocab)];
        if relation == Relation::TwoHop {
            // the label at q names another context key: the second hop
            let hop = (pair[0] + rng.random_range(1..context)) % context;
            labels[pair[0]] = keys[hop];
            pair[1] = hop;
        }
        let (position, target) = match relation {
            Relation::Match => (pair[0], labels[pair[0]]),
            Relation::Successor | Relation::TwoHop => (pair[1], labels[pair[1]]),
            Relation::Both => (pair[0], vocab * labels[pair[0]] + labels[pair[1]]),
            Relation::Offsets { .. } => {
                let p = at((q + r) % vocab);
                (p, labels[p])
            }
        };
        let mut x = if noise > 0.0 {
            gaussian(rng, context + 1, d, noise)
        } else {
            DMatrix::zeros(context + 1, d)
        };
        for (j, (&k, &b)) in keys.iter().zip(&labels).enumerate() {
            let mut row = x.row_mut(j);
            row += self.keys.row(k) + self.labels.row(b);
        }
        let mut row = x.row_mut(context);
        match relation {
            Relation::Offsets { cue: Cue::Pair, .. } => row += self.queries.row(r * vocab + q),
            Relation::Offsets {
                cue: Cue::Answer, ..
            } => row += self.keys.row((q + r) % vocab),
            _ => row += self.keys.row(q),
        }
        Example {
            x,
            target,
            position,
            pair,
        }
    }

    /// `count` seeded examples.
    pub fn examples(&self, rng: &mut Rng, count: usize) -> Vec<Example> {
        (0..count).map(|_| self.example(rng)).collect()
    }
}
