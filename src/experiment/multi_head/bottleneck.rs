//! Chapter 3: the rank bottleneck — how well a head whose logits have rank
//! `r` can express a positional and a content relation, and whether one wide
//! head or two narrow heads of the same total width express a task that
//! needs two relations at once.

use nalgebra::DMatrix;
use rand::RngExt;

use crate::attention::softmax_rows;
use crate::measure::{Measure, pm, table_of};
use crate::multi_head::best_ranks;
use crate::parallel;
use crate::random::seeded;
use crate::relation::total_variation;
use crate::stats::Summary;

/// The relation field: `n` tokens, each with two independent random
/// attributes of `types` values; the floor `eps` added to target patterns
/// before taking logs (a logit gap of `−ln ε`); and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub types: usize,
    pub eps: f64,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    n: 16,
    types: 4,
    eps: 1e-3,
    seeds: 50,
};

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

    /// Position in [`Task::ALL`].
    pub fn index(self) -> usize {
        Task::ALL
            .iter()
            .position(|&x| x == self)
            .expect("every task is listed")
    }

    /// Short key for measures.
    pub fn key(self) -> &'static str {
        match self {
            Task::PositionAndContent => "pc",
            Task::TwoContents => "cc",
        }
    }

    /// The names of `R₁`, `R₂` and the task `M`.
    pub fn relation_names(self) -> [&'static str; 3] {
        match self {
            Task::PositionAndContent => ["previous token", "same attribute", "both at once"],
            Task::TwoContents => ["first attribute", "second attribute", "both at once"],
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
pub fn relations(setup: Setup, task: Task, seed: u64) -> [DMatrix<f64>; 3] {
    let mut rng = seeded(seed + 30_000);
    let n = setup.n;
    let a: Vec<usize> = (0..n).map(|_| rng.random_range(0..setup.types)).collect();
    let b: Vec<usize> = (0..n).map(|_| rng.random_range(0..setup.types)).collect();
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
pub fn rank_patterns(setup: Setup, target: &DMatrix<f64>) -> Vec<DMatrix<f64>> {
    best_ranks(&target.map(|t| (t + setup.eps).ln()), target.nrows())
        .iter()
        .map(softmax_rows)
        .collect()
}

/// Total widths compared: one wide head of width `D` against two narrow heads of `D/2`.
pub fn total_widths(setup: Setup) -> Vec<usize> {
    (1..=setup.n / 2).map(|k| 2 * k).collect()
}

/// One seed of the bottleneck: `tv[rel][r − 1]` for `r = 1..=setup.n`
/// (`rel` = R₁, R₂, M), and per total width `D`: `(wide, narrow)` errors on `M`.
pub fn bottleneck(setup: Setup, task: Task, seed: u64) -> (Vec<Vec<f64>>, Vec<(f64, f64)>) {
    let targets = relations(setup, task, seed);
    let pats: Vec<Vec<DMatrix<f64>>> = targets.iter().map(|t| rank_patterns(setup, t)).collect();
    let tv = targets
        .iter()
        .zip(&pats)
        .map(|(t, ps)| ps.iter().map(|p| total_variation(p, t)).collect())
        .collect();
    let m = &targets[2];
    let widths = total_widths(setup)
        .into_iter()
        .map(|d| {
            // two narrow heads of width d/2, one per relation, averaged by W_O
            let narrow = (&pats[0][d / 2 - 1] + &pats[1][d / 2 - 1]) * 0.5;
            (
                total_variation(&pats[2][d - 1], m),
                total_variation(&narrow, m),
            )
        })
        .collect();
    (tv, widths)
}

/// The bottleneck curves and the width comparison of both tasks.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub setup: Setup,
    /// Bottleneck curves `[task][seed][rel][r − 1]` for [`Task::ALL`].
    pub rank_tv: Vec<Vec<Vec<Vec<f64>>>>,
    /// `(wide, narrow)` per total width, `[task][seed][width]`.
    pub widths: Vec<Vec<Vec<(f64, f64)>>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let bn: Vec<Vec<_>> = Task::ALL
            .iter()
            .map(|&t| parallel::map(0..setup.seeds, |s| bottleneck(setup, t, s)))
            .collect();
        Findings {
            setup,
            rank_tv: bn
                .iter()
                .map(|t| t.iter().map(|b| b.0.clone()).collect())
                .collect(),
            widths: bn
                .into_iter()
                .map(|t| t.into_iter().map(|b| b.1).collect())
                .collect(),
        }
    }

    /// Bottleneck error of relation `rel` (R₁, R₂, M) of `task` at rank `r`, over seeds.
    pub fn rank(&self, task: Task, rel: usize, r: usize) -> Summary {
        Summary::of(
            &self.rank_tv[task.index()]
                .iter()
                .map(|s| s[rel][r - 1])
                .collect::<Vec<_>>(),
        )
    }

    /// `(wide, narrow)` error summaries of `task` at total-width index `w`.
    pub fn width(&self, task: Task, w: usize) -> (Summary, Summary) {
        let runs = &self.widths[task.index()];
        let pick = |f: fn(&(f64, f64)) -> f64| Summary::over(runs.iter().map(|s| f(&s[w])));
        (pick(|p| p.0), pick(|p| p.1))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 3 quotes from this experiment: the rank curves of the
/// first task's two relations, and both tasks' width comparison, at the
/// ranks and widths the chapter's tables show.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("rel_n", BOOK.n.to_string()),
        Measure::new("rel_types", BOOK.types.to_string()),
        Measure::new("eps", format!("{}", BOOK.eps)),
        Measure::new("rank_seeds", BOOK.seeds.to_string()),
    ];
    let ranks = [1, 2, 4, 8, 12, BOOK.n];
    let widths = total_widths(BOOK);
    let (mut by_rank, mut by_width) = (Vec::new(), Vec::new());
    for task in Task::ALL {
        let k = task.key();
        let relations = ["r1", "r2", "task"].iter().zip(task.relation_names());
        for (rel, (name, label)) in relations.enumerate() {
            let cells = ranks
                .iter()
                .map(|&r| Measure::new(format!("rank_{k}_{name}_{r}"), pm(f.rank(task, rel, r), 2)))
                .collect();
            by_rank.push((format!("{}: {label}", task.name()), cells));
        }
        let (mut wide, mut narrow) = (Vec::new(), Vec::new());
        for (w, d) in widths.iter().enumerate() {
            let (wd, nw) = f.width(task, w);
            wide.push(Measure::new(format!("wide_{k}_{d}"), pm(wd, 2)));
            narrow.push(Measure::new(format!("narrow_{k}_{d}"), pm(nw, 2)));
        }
        by_width.push((format!("{}, one wide", task.name()), wide));
        by_width.push((format!("{}, two narrow", task.name()), narrow));
    }
    let columns: Vec<String> = ranks.iter().map(|r| format!("r = {r}")).collect();
    let header: Vec<&str> = ["relation"]
        .into_iter()
        .chain(columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("rank_table", &header, by_rank));
    let columns: Vec<String> = widths.iter().map(|d| format!("D = {d}")).collect();
    let header: Vec<&str> = ["task, heads"]
        .into_iter()
        .chain(columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("width_table", &header, by_width));
    m
}
