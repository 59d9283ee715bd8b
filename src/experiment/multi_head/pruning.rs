//! Chapter 3's redundancy question asked of the decoder SmolLM2: how many of
//! its 270 heads can be removed before next-token prediction degrades, heads
//! removed least important first, against the same heads removed in random
//! order and against the random-weight decoder (Llama's initialisation).
//!
//! ```text
//! text        P paragraphs, each S context sentences joined by spaces; every
//!             position i < n − 1 predicts token i + 1
//! importance  I_lh = mean_i |δ_lh(i)|, δ the first-order direct effect of
//!             removing head (l, h) on the next-token loss (see [`direct`])
//! agreement   a(K) = share of positions whose top-1 token with the heads K
//!             removed equals the unablated model's
//! loss kept   ℓ(K) = (L_all − L_K) / (L_all − L_clean)   1 clean, 0 every head removed
//! prunable    the most heads removed, in steps of `step`, with the task kept
//!             ≥ 1 − drop at that level and every level before it
//! ```
//!
//! The levels and the prunable reading are [`curve`]'s, the encoder's too.
//!
//! A pruning run starts from the clean stream at its earliest ablated layer
//! (the blocks before it are unchanged), through [`Transformer::run_from`];
//! only the readout (logits through the final norm) is the decoder's own.
//!
//! Introduced in chapter 3.

pub mod curve;
pub mod direct;
pub mod verdict;

use nalgebra::DMatrix;
use rand::seq::SliceRandom;

use crate::experiment::relations::trained::pairs;
use crate::parallel;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::smollm2::forward;
use crate::pretrained::trace::Trace;
use crate::pretrained::transformer::{Architecture, Transformer};
use crate::random::seeded;

/// Sizes of the decoder's pruning experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Paragraphs of text.
    pub paragraphs: usize,
    /// Context sentences per paragraph (paragraph p: the A sentences of pairs p·S..(p+1)·S).
    pub sentences: usize,
    /// Heads removed at each pruning level.
    pub step: usize,
    /// The drop of the task (on its kept scale) that counts as "degrades".
    pub drop: f64,
    /// Random removal orders of the trained decoder's heads (seeds 0..orders).
    pub orders: u64,
    /// The most important heads (by the first pass) each removed alone, trained decoder.
    pub singles: usize,
}

/// The size the book reports: 10% of the heads per level, as Michel et al. prune.
pub const BOOK: Setup = Setup {
    paragraphs: 2,
    sentences: 5,
    step: 27,
    drop: 0.1,
    orders: 3,
    singles: 9,
};

/// What the decoder's task scores on a set of positions, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Positions whose top-1 next token equals the unablated model's.
    pub agree: usize,
    /// Σ −log p(next token), nats.
    pub loss: f64,
    /// Positions scored.
    pub positions: usize,
}

impl Tally {
    fn add(self, o: Tally) -> Tally {
        Tally {
            agree: self.agree + o.agree,
            loss: self.loss + o.loss,
            positions: self.positions + o.positions,
        }
    }

    /// Share of positions whose top-1 is the unablated model's.
    pub fn agreement(&self) -> f64 {
        self.agree as f64 / self.positions as f64
    }

    /// Mean next-token loss, nats.
    pub fn mean_loss(&self) -> f64 {
        self.loss / self.positions as f64
    }
}

/// Which score of the decoder counts as the task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Top-1 agreement with the unablated model.
    Agreement,
    /// The share of the next-token loss kept, `ℓ(K)`.
    Loss,
}

impl Task {
    pub const BOTH: [Task; 2] = [Task::Agreement, Task::Loss];

    /// The task kept with heads removed (`t`), 1 with none removed (`clean`).
    pub fn kept(self, t: &Tally, clean: &Tally, all: &Tally) -> f64 {
        match self {
            Task::Agreement => t.agreement(),
            Task::Loss => (all.mean_loss() - t.mean_loss()) / (all.mean_loss() - clean.mean_loss()),
        }
    }

    /// How the book names it.
    pub fn name(self) -> &'static str {
        match self {
            Task::Agreement => "top-1 agreement with the unablated decoder",
            Task::Loss => "share of the next-token loss kept, (L_all − L_K)/(L_all − L_clean)",
        }
    }
}

/// What one model measures.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Side {
    /// `I_lh`, `[layer·9 + head]`.
    pub importance: Vec<f64>,
    /// Every head, least important first.
    pub order: Vec<(usize, usize)>,
    /// Heads removed at each level: `0, step, …, 270`.
    pub levels: Vec<usize>,
    /// The task at each level, heads removed in `order`, pooled over paragraphs.
    pub curve: Vec<Tally>,
    /// The same levels, heads removed in a random order, one curve per seed
    /// (trained decoder only).
    pub random: Vec<Vec<Tally>>,
    /// The `singles` most important heads, each removed alone (trained decoder only).
    pub singles: Vec<((usize, usize), Tally)>,
}

impl Side {
    /// The task kept along `curve`, one value per level.
    pub fn kept(&self, task: Task, curve: &[Tally]) -> Vec<f64> {
        let (clean, all) = (&self.curve[0], &self.curve[self.curve.len() - 1]);
        curve.iter().map(|t| task.kept(t, clean, all)).collect()
    }

    /// The most heads removed along `curve` with the task kept ≥ 1 − drop
    /// there and at every level before.
    pub fn prunable(&self, task: Task, curve: &[Tally], drop: f64) -> usize {
        let kept = self.kept(task, curve);
        curve::prunable(self.levels.iter().copied().zip(kept), 1.0 - drop)
    }

    /// The largest drop of the task from removing one of the `singles` heads alone.
    pub fn single_drop(&self, task: Task) -> f64 {
        let (clean, all) = (&self.curve[0], &self.curve[self.curve.len() - 1]);
        self.singles
            .iter()
            .map(|(_, t)| 1.0 - task.kept(t, clean, all))
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// The decoder's findings, trained and random.
pub type Findings = ByModel<Side>;

/// The paragraphs: paragraph p joins the A sentences of pairs p·S..(p+1)·S.
pub fn paragraphs(setup: Setup) -> Vec<String> {
    let p = pairs();
    (0..setup.paragraphs)
        .map(|k| {
            let s = &p[k * setup.sentences..(k + 1) * setup.sentences];
            s.iter().map(|p| p.a.as_str()).collect::<Vec<_>>().join(" ")
        })
        .collect()
}

/// The stream after the last block with `removed` heads ablated, rerun from
/// the clean stream at the earliest ablated layer, `(n, d)`.
pub fn pruned_output(
    m: &dyn Transformer,
    clean: &Trace,
    removed: &[(usize, usize)],
) -> DMatrix<f64> {
    match removed.iter().map(|&(l, _)| l).min() {
        None => clean.output.clone(),
        Some(from) => {
            let x = clean.layers[from].input.clone();
            m.run_from(from, x, removed).output
        }
    }
}

/// One paragraph's clean run and what its positions must predict.
struct Clean {
    trace: Trace,
    ids: Vec<u32>,
    /// The unablated model's top-1 next token at each scored position.
    top1: Vec<u32>,
}

/// The task on the final stream `x` of `c`'s paragraph.
fn score(s: &SmolLm2, c: &Clean, x: &DMatrix<f64>) -> Tally {
    let n = c.ids.len() - 1;
    let logits = forward::logits(&s.weights, &x.rows(0, n).map(|v| v as f32));
    let mut t = Tally {
        positions: n,
        ..Tally::default()
    };
    for i in 0..n {
        let row: Vec<f32> = logits.row(i).iter().copied().collect();
        let lp = forward::log_softmax(&row);
        t.loss -= lp[c.ids[i + 1] as usize];
        t.agree += usize::from(argmax(&lp) == c.top1[i]);
    }
    t
}

fn argmax(xs: &[f64]) -> u32 {
    crate::stats::argmax(0..xs.len(), |i| xs[i]).unwrap_or(0) as u32
}

fn clean(model: Model, text: &str) -> Clean {
    let m = Architecture::Smollm2.with(model);
    let s = model.smollm2();
    let ids = m.encode(text).unwrap_or_else(|e| panic!("{e}")).ids;
    let trace = m.run(&ids);
    let n = ids.len() - 1;
    let logits = forward::logits(&s.weights, &trace.output.rows(0, n).map(|v| v as f32));
    let top1 = (0..n)
        .map(|i| {
            let row: Vec<f64> = logits.row(i).iter().map(|&v| f64::from(v)).collect();
            argmax(&row)
        })
        .collect();
    Clean { trace, ids, top1 }
}

/// Every head in a random order (seed `seed`).
pub fn shuffled(heads: &[(usize, usize)], seed: u64) -> Vec<(usize, usize)> {
    let mut v = heads.to_vec();
    v.shuffle(&mut seeded(seed));
    v
}

/// One removal set's tally summed over paragraphs.
fn tally(model: Model, cleans: &[Clean], removed: &[(usize, usize)]) -> Tally {
    let m = Architecture::Smollm2.with(model);
    cleans
        .iter()
        .map(|c| score(model.smollm2(), c, &pruned_output(m, &c.trace, removed)))
        .fold(Tally::default(), Tally::add)
}

impl Side {
    pub fn run(model: Model, setup: Setup) -> Side {
        let s = model.smollm2();
        let texts = paragraphs(setup);
        let cleans: Vec<Clean> =
            parallel::map(0..texts.len() as u64, |p| clean(model, &texts[p as usize]));
        let (layers, heads) = (s.config.n_layer, s.config.n_head);
        let effects: Vec<Vec<Vec<f64>>> = cleans
            .iter()
            .map(|c| direct::effects(s, &c.trace, &c.ids))
            .collect();
        let importance: Vec<f64> = (0..layers * heads)
            .map(|k| {
                let all: Vec<f64> = effects
                    .iter()
                    .flat_map(|e| e[k].iter().map(|d| d.abs()))
                    .collect();
                all.iter().sum::<f64>() / all.len() as f64
            })
            .collect();
        let mut ranked: Vec<usize> = (0..importance.len()).collect();
        ranked.sort_by(|&a, &b| importance[a].total_cmp(&importance[b]));
        let order: Vec<(usize, usize)> = ranked.iter().map(|&k| (k / heads, k % heads)).collect();
        let levels: Vec<usize> = curve::levels(&order, setup.step)
            .iter()
            .map(Vec::len)
            .collect();
        let trained = model == Model::Trained;
        let orders: Vec<Vec<(usize, usize)>> = std::iter::once(order.clone())
            .chain(
                (0..setup.orders)
                    .filter(|_| trained)
                    .map(|seed| shuffled(&order, seed)),
            )
            .collect();
        // removal sets: every level of every order (the random orders share the
        // first and last), then each single head
        let mut sets: Vec<Vec<(usize, usize)>> = Vec::new();
        for (o, heads) in orders.iter().enumerate() {
            for &k in &levels {
                if o == 0 || (k > 0 && k < heads.len()) {
                    sets.push(heads[..k].to_vec());
                }
            }
        }
        let singles: Vec<(usize, usize)> = match trained {
            true => order.iter().rev().take(setup.singles).copied().collect(),
            false => vec![],
        };
        sets.extend(singles.iter().map(|&h| vec![h]));
        let tallies = parallel::map(0..sets.len() as u64, |k| {
            tally(model, &cleans, &sets[k as usize])
        });
        let l = levels.len();
        let curve = tallies[..l].to_vec();
        let random = (0..orders.len() - 1)
            .map(|o| {
                let inner = &tallies[l + o * (l - 2)..l + (o + 1) * (l - 2)];
                let mut c = vec![curve[0]];
                c.extend_from_slice(inner);
                c.push(curve[l - 1]);
                c
            })
            .collect();
        let at = l + (orders.len() - 1) * (l - 2);
        Side {
            importance,
            order,
            levels,
            curve,
            random,
            singles: singles
                .into_iter()
                .zip(tallies[at..].iter().copied())
                .collect(),
        }
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => ByModel::run(|model| Side::run(model, BOOK)))
}
