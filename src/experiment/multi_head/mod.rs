//! Chapter 3: multi-head attention as stacked local coverings — heads that
//! see different relations of one token field, the rank a narrow head can
//! express, head ablation, and two layers composed into an induction head.

pub mod specialisation;
pub mod trained;

use std::sync::OnceLock;

use nalgebra::DMatrix;
use rand::RngExt;

use crate::attention::{Head, softmax_rows};
use crate::experiment::par_map;
use crate::measure::{Measure, fixed, pm};
use crate::multi_head::{MultiHead, best_ranks};
use crate::random::{gaussian, seeded};
use crate::stats::{Summary, mean};
use crate::train;

/// Number of seeds behind every summary in the chapter.
pub const SEEDS: u64 = 200;

/// Token types; the last one is the start token `BOS`.
pub const V: usize = 10;
/// Length of the segment that the sequence repeats.
pub const L: usize = 8;
/// Sequence length: `BOS`, the segment, the segment again.
pub const N: usize = 2 * L + 1;
/// Offsets of the four blocks of the residual stream: token type, position,
/// previous token's type (written by layer 1), prediction (written by layer 2).
pub const TYPE: usize = 0;
pub const POS: usize = V;
pub const PREV: usize = V + N;
pub const OUT: usize = 2 * V + N;
/// Residual-stream width.
pub const D: usize = 3 * V + N;
/// Heads per layer.
pub const H: usize = 4;
/// Logit gap of the constructed heads (before the `1/√d_k` scale, which is undone).
pub const GAP: f64 = 8.0;

/// A token sequence and its residual stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Type of each position; `types[0]` is `BOS = V − 1`.
    pub types: Vec<usize>,
    /// `(N, D)`: one-hot type and one-hot position, the other blocks zero.
    pub x: DMatrix<f64>,
}

/// `BOS`, then `L` distinct random types, then the same `L` again.
pub fn field(seed: u64) -> Field {
    let mut rng = seeded(seed);
    let mut pool: Vec<usize> = (0..V - 1).collect();
    // Fisher–Yates: the first L of a random permutation
    for i in 0..L {
        let j = rng.random_range(i..pool.len());
        pool.swap(i, j);
    }
    let segment = &pool[..L];
    let types: Vec<usize> = [&[V - 1][..], segment, segment].concat();
    let x = DMatrix::from_fn(N, D, |i, c| f64::from(c == TYPE + types[i] || c == POS + i));
    Field { types, x }
}

/// `(D, size)` with an identity in rows `offset..offset + size`: reads (or,
/// transposed, writes) one block of the stream.
pub fn selector(offset: usize, size: usize) -> DMatrix<f64> {
    DMatrix::from_fn(D, size, |r, c| f64::from(r == offset + c))
}

/// The previous-token head (`d_k = N`, `d_v = V`) and its `W_O`: position
/// `i` queries position `i − 1`; it copies that token's type into `PREV`.
pub fn previous_token_head() -> (Head, DMatrix<f64>) {
    let w_q = selector(POS, N) * (GAP * (N as f64).sqrt());
    // k_j = e_{j+1}: key j answers the query of position j + 1
    let w_k = DMatrix::from_fn(D, N, |r, c| f64::from(c >= 1 && r == POS + c - 1));
    (
        Head {
            w_q,
            w_k,
            w_v: selector(TYPE, V),
        },
        selector(PREV, V).transpose(),
    )
}

/// The content head (`d_k = N`, `d_v = V`): each token queries earlier tokens
/// of its own type. It writes nothing (`W_O = 0`).
pub fn content_head() -> (Head, DMatrix<f64>) {
    let mut w_q = DMatrix::zeros(D, N);
    let mut w_k = DMatrix::zeros(D, N);
    w_q.columns_mut(0, V)
        .copy_from(&(selector(TYPE, V) * (GAP * (N as f64).sqrt())));
    w_k.columns_mut(0, V).copy_from(&selector(TYPE, V));
    (
        Head {
            w_q,
            w_k,
            w_v: selector(TYPE, V),
        },
        DMatrix::zeros(V, D),
    )
}

/// The induction head (`d_k = d_v = V`) and its `W_O`: a token's type queries
/// the `PREV` block that layer 1 wrote, so it finds the token *after* an
/// earlier copy of itself, and copies that token's type into `OUT`.
pub fn induction_head() -> (Head, DMatrix<f64>) {
    let w_q = selector(TYPE, V) * (GAP * (V as f64).sqrt());
    (
        Head {
            w_q,
            w_k: selector(PREV, V),
            w_v: selector(TYPE, V),
        },
        selector(OUT, V).transpose(),
    )
}

/// A two-layer model: layer 1 = [previous-token, content, random, random],
/// layer 2 = [induction, random, random, random]; the random heads are drawn from `seed`.
pub fn model(seed: u64) -> [MultiHead; 2] {
    let mut rng = seeded(seed + 10_000);
    let (p, p_o) = previous_token_head();
    let (c, c_o) = content_head();
    let (ind, ind_o) = induction_head();
    let first = MultiHead::random(&mut rng, D, H, N, V)
        .with_head(0, &p, &p_o)
        .with_head(1, &c, &c_o);
    let second = MultiHead::random(&mut rng, D, H, V, V).with_head(0, &ind, &ind_o);
    [first, second]
}

/// Positions whose next token the repeat determines: `L + 1 ..= 2L − 1`.
pub fn scored() -> std::ops::Range<usize> {
    L + 1..2 * L
}

/// Fraction of scored positions where the `OUT` block's largest entry of
/// the final stream `h: (N, D)` is the type of the next token.
pub fn readout(f: &Field, h: &DMatrix<f64>) -> f64 {
    let hits = scored()
        .filter(|&i| {
            let out = h.view((i, OUT), (1, V));
            let guess = (0..V)
                .max_by(|&a, &b| out[(0, a)].total_cmp(&out[(0, b)]))
                .expect("V > 0");
            guess == f.types[i - L + 1]
        })
        .count();
    hits as f64 / scored().len() as f64
}

/// Induction accuracy with the heads whose `keep` flag is false removed.
pub fn accuracy(model: &[MultiHead; 2], f: &Field, keep: &[[bool; H]; 2]) -> f64 {
    let h1 = model[0].residual(&f.x, true, &keep[0]);
    readout(f, &model[1].residual(&h1, true, &keep[1]))
}

/// `x + Σ_{t ≠ skip} o_t W_Oᵗ`: a residual layer with at most one head
/// removed, from the heads' outputs `o_t` of one pass.
fn residual_without(
    layer: &MultiHead,
    x: &DMatrix<f64>,
    heads: &[DMatrix<f64>],
    skip: Option<usize>,
) -> DMatrix<f64> {
    heads
        .iter()
        .enumerate()
        .filter(|&(t, _)| Some(t) != skip)
        .fold(x.clone(), |acc, (t, o)| acc + o * layer.w_o_block(t))
}

/// Every head's attention pattern on the field of `seed`: `[layer][head]`.
pub fn patterns(seed: u64) -> [Vec<DMatrix<f64>>; 2] {
    let (m, f) = (model(seed), field(seed));
    let all = [true; H];
    let h1 = m[0].residual(&f.x, true, &all);
    [
        m[0].forward(&f.x, true).weights,
        m[1].forward(&h1, true).weights,
    ]
}

/// Ablation of one seed: accuracy with every head, then with each of the
/// `2H` heads removed (layer 1's heads first).
pub fn ablation(seed: u64) -> (f64, Vec<f64>) {
    let (m, f) = (model(seed), field(seed));
    // out = Σ_t o_t W_Oᵗ, so removing head t subtracts its term: one pass per input
    let first = m[0].forward(&f.x, true).heads;
    let second_on = |h1: &DMatrix<f64>, skip: Option<usize>| {
        let heads = m[1].forward(h1, true).heads;
        readout(&f, &residual_without(&m[1], h1, &heads, skip))
    };
    let h1 = residual_without(&m[0], &f.x, &first, None);
    let full = second_on(&h1, None);
    let mut without: Vec<f64> = (0..H)
        .map(|t| second_on(&residual_without(&m[0], &f.x, &first, Some(t)), None))
        .collect();
    let heads = m[1].forward(&h1, true).heads;
    without.extend((0..H).map(|t| readout(&f, &residual_without(&m[1], &h1, &heads, Some(t)))));
    (full, without)
}

/// Heads in the random layer whose ablation concentration is measured.
pub const RANDOM_HEADS: usize = 8;

/// Each head's share of the total ablation effect `‖out − out₍₋ₜ₎‖_F` in a
/// random layer (`d = 32`, `h = 8`, `d_k = d_v = 4`, 16 Gaussian tokens), largest first.
pub fn random_shares(seed: u64) -> Vec<f64> {
    let mut rng = seeded(seed + 20_000);
    let layer = MultiHead::random(&mut rng, 32, RANDOM_HEADS, 4, 4);
    let x = gaussian(&mut rng, 16, 32, 1.0);
    // out − out₍₋ₜ₎ = o_t W_Oᵗ
    let heads = layer.forward(&x, true).heads;
    let mut effects: Vec<f64> = heads
        .iter()
        .enumerate()
        .map(|(t, o)| (o * layer.w_o_block(t)).norm())
        .collect();
    let total: f64 = effects.iter().sum();
    effects.iter_mut().for_each(|e| *e /= total);
    effects.sort_by(|a, b| b.total_cmp(a));
    effects
}

/// Tokens and types of the relation field: `RELATION_N` tokens, each with
/// two independent random attributes of `RELATION_TYPES` values.
pub const RELATION_N: usize = 16;
pub const RELATION_TYPES: usize = 4;
/// Floor added to target patterns before taking logs: a logit gap of `−ln ε`.
pub const EPS: f64 = 1e-3;
/// Number of seeds behind the rank measurements.
pub const RANK_SEEDS: u64 = 50;

/// A task that needs two relations at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Previous token (positional, rank `n − 1` as one-hot logits) and same first attribute (content).
    PositionAndContent,
    /// Same first attribute and same second attribute (two content relations, each of low rank).
    TwoContents,
}

impl Task {
    pub const ALL: [Task; 2] = [Task::PositionAndContent, Task::TwoContents];

    pub fn name(self) -> &'static str {
        match self {
            Task::PositionAndContent => "position + content",
            Task::TwoContents => "two contents",
        }
    }

    /// Short key for measures.
    pub fn key(self) -> &'static str {
        match self {
            Task::PositionAndContent => "pc",
            Task::TwoContents => "cc",
        }
    }
}

/// Uniform attention to the tokens `j` with `a[j] = a[i]` (itself included).
fn same_attribute(a: &[usize]) -> DMatrix<f64> {
    let n = a.len();
    let mut c = DMatrix::from_fn(n, n, |i, j| f64::from(a[j] == a[i]));
    for mut row in c.row_iter_mut() {
        let s = row.sum();
        row /= s;
    }
    c
}

/// The three target patterns of one seed (not causal; rows sum to 1): the two
/// relations `R₁`, `R₂` and the task `M = (R₁ + R₂)/2`, which needs both at once.
pub fn relations(task: Task, seed: u64) -> [DMatrix<f64>; 3] {
    let mut rng = seeded(seed + 30_000);
    let n = RELATION_N;
    let a: Vec<usize> = (0..n)
        .map(|_| rng.random_range(0..RELATION_TYPES))
        .collect();
    let b: Vec<usize> = (0..n)
        .map(|_| rng.random_range(0..RELATION_TYPES))
        .collect();
    let first = match task {
        // previous token, cyclically: a permutation, so every singular value of its logits is equal
        Task::PositionAndContent => DMatrix::from_fn(n, n, |i, j| f64::from((j + 1) % n == i)),
        Task::TwoContents => same_attribute(&b),
    };
    let second = same_attribute(&a);
    let m = (&first + &second) * 0.5;
    [first, second, m]
}

/// The patterns of heads whose logits are the best rank-`r` approximations
/// (Eckart–Young) of `ln(T + ε)`, for `r = 1..=n`.
pub fn rank_patterns(target: &DMatrix<f64>) -> Vec<DMatrix<f64>> {
    best_ranks(&target.map(|t| (t + EPS).ln()), target.nrows())
        .iter()
        .map(softmax_rows)
        .collect()
}

/// Mean over rows of the total variation `½ Σ_j |a_ij − b_ij|`.
pub fn row_tv(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    0.5 * (a - b).abs().sum() / a.nrows() as f64
}

/// Total widths compared: one wide head of width `D` against two narrow heads of `D/2`.
pub fn total_widths() -> Vec<usize> {
    (1..=RELATION_N / 2).map(|k| 2 * k).collect()
}

/// One seed of the bottleneck: `tv[rel][r − 1]` for `r = 1..=RELATION_N`
/// (`rel` = R₁, R₂, M), and per total width `D`: `(wide, narrow)` errors on `M`.
pub fn bottleneck(task: Task, seed: u64) -> (Vec<Vec<f64>>, Vec<(f64, f64)>) {
    let targets = relations(task, seed);
    let pats: Vec<Vec<DMatrix<f64>>> = targets.iter().map(rank_patterns).collect();
    let tv = targets
        .iter()
        .zip(&pats)
        .map(|(t, ps)| ps.iter().map(|p| row_tv(p, t)).collect())
        .collect();
    let m = &targets[2];
    let widths = total_widths()
        .into_iter()
        .map(|d| {
            // two narrow heads of width d/2, one per relation, averaged by W_O
            let narrow = (&pats[0][d / 2 - 1] + &pats[1][d / 2 - 1]) * 0.5;
            (row_tv(&pats[2][d - 1], m), row_tv(&narrow, m))
        })
        .collect();
    (tv, widths)
}

/// Total head width of the trained comparison, split `(heads, d_k = d_v)`.
pub const SPLITS: [(usize, usize); 4] = [(1, 8), (2, 4), (4, 2), (8, 1)];
/// Number of seeds behind the trained comparison.
pub const TRAIN_SEEDS: u64 = 8;

/// The recall task the split heads are trained on (chapter 6's `Match`):
/// find the context position whose key equals the query, return its label.
pub const TRAIN_TASK: train::Task = train::Task {
    relation: train::Relation::Match,
    vocab: 12,
    context: 6,
    d: 8,
    noise: 0.0,
    examples: None,
};

/// How the split heads are trained.
pub const TRAIN_SCHEDULE: train::Schedule = train::Schedule {
    steps: 300,
    batch: 8,
    lr: 0.03,
    eval_every: 300,
    test: 100,
    threshold: 0.9,
};

/// Test accuracy after training one layer of `heads` heads of width `d_k`
/// (total width `heads · d_k`) on [`TRAIN_TASK`] from `seed`.
pub fn trained_split(heads: usize, d_k: usize, seed: u64) -> f64 {
    let config = train::Config {
        d: TRAIN_TASK.d,
        d_k,
        d_v: d_k,
        heads,
        layers: 1,
        qk: train::Qk::Untied,
        residual: false,
        self_attention: false,
        outputs: TRAIN_TASK.vocab,
    };
    train::train(config, TRAIN_TASK, TRAIN_SCHEDULE, seed).final_accuracy
}

/// Everything chapter 3 reports, at book size.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// Accuracy with every head, per seed.
    pub full: Vec<f64>,
    /// Accuracy with head `k` removed, `[seed][k]`.
    pub without: Vec<Vec<f64>>,
    /// Sorted ablation shares of a random layer, `[seed][rank]`.
    pub random_shares: Vec<Vec<f64>>,
    /// Bottleneck curves `[task][seed][rel][r − 1]` for [`Task::ALL`].
    pub rank_tv: Vec<Vec<Vec<Vec<f64>>>>,
    /// `(wide, narrow)` per total width, `[task][seed][width]`.
    pub widths: Vec<Vec<Vec<(f64, f64)>>>,
    /// Trained accuracy `[split][seed]` for [`SPLITS`].
    pub trained: Vec<Vec<f64>>,
}

impl Findings {
    /// Run the chapter's experiments over seeds `0..seeds`.
    pub fn run(seeds: u64) -> Findings {
        let abl = par_map(seeds, ablation);
        let bn: Vec<Vec<_>> = Task::ALL
            .iter()
            .map(|&t| par_map(seeds.min(RANK_SEEDS), |s| bottleneck(t, s)))
            .collect();
        Findings {
            full: abl.iter().map(|a| a.0).collect(),
            without: abl.into_iter().map(|a| a.1).collect(),
            random_shares: par_map(seeds, random_shares),
            rank_tv: bn
                .iter()
                .map(|t| t.iter().map(|b| b.0.clone()).collect())
                .collect(),
            widths: bn
                .into_iter()
                .map(|t| t.into_iter().map(|b| b.1).collect())
                .collect(),
            trained: SPLITS
                .iter()
                .map(|&(h, d_k)| par_map(seeds.min(TRAIN_SEEDS), |s| trained_split(h, d_k, s)))
                .collect(),
        }
    }

    /// Trained accuracy of split `k` of [`SPLITS`], over seeds.
    pub fn trained(&self, k: usize) -> Summary {
        Summary::of(&self.trained[k])
    }

    /// Accuracy with head `k` removed, over seeds.
    pub fn without(&self, k: usize) -> Summary {
        Summary::of(&self.without.iter().map(|w| w[k]).collect::<Vec<_>>())
    }

    /// Share of the total accuracy drop carried by each head `k`, over seeds
    /// (drops below zero count as zero).
    pub fn drop_shares(&self) -> Vec<Summary> {
        let shares: Vec<Vec<f64>> = self
            .full
            .iter()
            .zip(&self.without)
            .map(|(&f, w)| {
                let drops: Vec<f64> = w.iter().map(|a| (f - a).max(0.0)).collect();
                let total: f64 = drops.iter().sum::<f64>().max(1e-300);
                drops.iter().map(|d| d / total).collect()
            })
            .collect();
        (0..2 * H)
            .map(|k| Summary::of(&shares.iter().map(|s| s[k]).collect::<Vec<_>>()))
            .collect()
    }

    /// Bottleneck error of relation `rel` (R₁, R₂, M) of `task` at rank `r`, over seeds.
    pub fn rank(&self, task: Task, rel: usize, r: usize) -> Summary {
        let t = Task::ALL
            .iter()
            .position(|&x| x == task)
            .expect("every task is run");
        Summary::of(
            &self.rank_tv[t]
                .iter()
                .map(|s| s[rel][r - 1])
                .collect::<Vec<_>>(),
        )
    }

    /// `(wide, narrow)` error summaries of `task` at total-width index `w`.
    pub fn width(&self, task: Task, w: usize) -> (Summary, Summary) {
        let t = Task::ALL
            .iter()
            .position(|&x| x == task)
            .expect("every task is run");
        let runs = &self.widths[t];
        let pick = |f: fn(&(f64, f64)) -> f64| {
            Summary::of(&runs.iter().map(|s| f(&s[w])).collect::<Vec<_>>())
        };
        (pick(|p| p.0), pick(|p| p.1))
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(SEEDS))
}

/// The numbers chapter 3's prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let shares = f.drop_shares();
    let others: Vec<f64> = f
        .without
        .iter()
        .zip(&f.full)
        .flat_map(|(w, &full)| [1, 2, 3, 5, 6, 7].map(|k| (full - w[k]).abs()))
        .collect();
    let top_random = Summary::of(&f.random_shares.iter().map(|s| s[0]).collect::<Vec<_>>());
    let widths = total_widths();
    let mut m = vec![
        Measure::new("seeds", SEEDS.to_string()),
        Measure::new("v", (V - 1).to_string()),
        Measure::new("l", L.to_string()),
        Measure::new("n", N.to_string()),
        Measure::new("d", D.to_string()),
        Measure::new("h", H.to_string()),
        Measure::new("gap", fixed(GAP, 0)),
        Measure::new("scored", scored().len().to_string()),
        Measure::new("chance", fixed(1.0 / (V - 1) as f64, 2)),
        Measure::new("acc_full", pm(Summary::of(&f.full), 2)),
        Measure::new("acc_no_prev", pm(f.without(0), 2)),
        Measure::new("acc_no_content", pm(f.without(1), 2)),
        Measure::new("acc_no_induction", pm(f.without(H), 2)),
        Measure::new("other_drop_mean", fixed(mean(&others), 3)),
        Measure::new(
            "other_drop_max",
            fixed(others.iter().cloned().fold(0.0, f64::max), 2),
        ),
        Measure::new("share_two", fixed(shares[0].mean + shares[H].mean, 2)),
        Measure::new("random_heads", RANDOM_HEADS.to_string()),
        Measure::new("random_top", pm(top_random, 2)),
        Measure::new("random_uniform", fixed(1.0 / RANDOM_HEADS as f64, 3)),
        Measure::new("rel_n", RELATION_N.to_string()),
        Measure::new("rel_types", RELATION_TYPES.to_string()),
        Measure::new("eps", format!("{EPS}")),
    ];
    m.push(Measure::new("rank_seeds", RANK_SEEDS.to_string()));
    m.push(Measure::new("train_seeds", TRAIN_SEEDS.to_string()));
    m.push(Measure::new(
        "train_steps",
        TRAIN_SCHEDULE.steps.to_string(),
    ));
    m.push(Measure::new(
        "train_context",
        TRAIN_TASK.context.to_string(),
    ));
    m.push(Measure::new("train_vocab", TRAIN_TASK.vocab.to_string()));
    m.push(Measure::new("train_d", TRAIN_TASK.d.to_string()));
    m.push(Measure::new("train_test", TRAIN_SCHEDULE.test.to_string()));
    for (k, (h, d_k)) in SPLITS.iter().enumerate() {
        m.push(Measure::new(
            format!("trained_{h}x{d_k}"),
            pm(f.trained(k), 2),
        ));
    }
    for task in Task::ALL {
        let k = task.key();
        for (rel, name) in ["r1", "r2", "task"].iter().enumerate() {
            for r in [1, 2, 4, 8, 12, RELATION_N] {
                m.push(Measure::new(
                    format!("rank_{k}_{name}_{r}"),
                    pm(f.rank(task, rel, r), 2),
                ));
            }
        }
        for (w, d) in widths.iter().enumerate() {
            let (wide, narrow) = f.width(task, w);
            m.push(Measure::new(format!("wide_{k}_{d}"), pm(wide, 2)));
            m.push(Measure::new(format!("narrow_{k}_{d}"), pm(narrow, 2)));
        }
    }
    m.extend(specialisation::measures());
    m.extend(trained::measures());
    m
}

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<crate::claim::Claim> {
    Vec::new()
}
