//! Chapter 7: is KDA better read as a learned operator than as a similarity?
//! Softmax, linear, DeltaNet and KDA stacks are trained on associative
//! recall with updates ([`Updates`]: a key's value changes mid-sequence, the
//! query wants the latest), then two accounts of each trained model
//! ([`accounts`]) are scored against the measured effect of replacing an
//! earlier value on a later query's output.
//!
//! ```text
//! task    vocab 24 (keys 1..12, values 12..24), T = 24, 4 keys, 2 of them written twice
//! model   d = 32, 2 blocks, conv width 4, K = V = 8, KDA's gates initialised for T (horizon)
//! score   per run: Spearman ρ(account, effect) over the (value write, query) pairs of 32 held-out sequences
//! null    the same KDA before training (it has delta correction and decay, but has learned nothing)
//! ```
//! One Adam step at batch 32 costs about 3 ms here; runs stop at the plateau
//! (not before step 600) or at the cap of 2000 steps.

pub mod accounts;
pub mod claims;
pub mod report;

pub use accounts::{Pair, Role};
pub use report::measures;

use crate::mixer::Mixer;
use crate::mixer::Schedule;
use crate::mixer::layer::GateInit;
use crate::mixer::stack::{self, Config, Engine, Recipe, Stack, StackRun, Training};
use crate::parallel;
use crate::recall::{Sequence, Updates};
use crate::stats::{argmax, mean, share, spearman};
use crate::train::{Plateau, Stop};

/// The experiment's size.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// The task at the default update share.
    pub task: Updates,
    /// The task at the other update share the referee varies.
    pub other: Updates,
    pub d: usize,
    /// `K = V`.
    pub k: usize,
    pub layers: usize,
    pub conv: usize,
    pub training: Training,
    /// Seeds per arm.
    pub seeds: u64,
    /// Held-out sequences intervened on per run.
    pub looked_at: usize,
    /// Of those, the sequences whose pairs the figure draws (seed 0).
    pub drawn: usize,
}

/// The size the book reports.
pub fn setup() -> Setup {
    Setup {
        task: Updates {
            vocab: 24,
            pairs: 4,
            updates: 2,
            len: 24,
        },
        other: Updates {
            vocab: 24,
            pairs: 4,
            updates: 4,
            len: 24,
        },
        d: 32,
        k: 8,
        layers: 2,
        conv: 4,
        training: Training {
            schedule: Schedule {
                steps: 2000,
                batch: 32,
                lr: 0.01,
                test: 256,
            },
            every: 50,
            plateau: Plateau::BOOK.after(600),
            engine: Engine::Fast,
            recipe: Recipe::Book,
        },
        seeds: 5,
        looked_at: 32,
        drawn: 8,
    }
}

/// The trained mixers, in the book's order.
pub const MIXERS: [Mixer; 4] = [Mixer::Softmax, Mixer::Linear, Mixer::DeltaNet, Mixer::Kda];

/// The effect measures: the drop in the answer's log-probability, and the total variation.
pub const EFFECTS: [&str; 2] = ["drop", "tv"];

/// How well one model's accounts predict its intervention effects.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reading {
    /// `[block][span][effect]`: Spearman ρ of the similarity account with the
    /// effect (span 0: over the convolution's window, 1: at the write alone).
    pub similarity: Vec<[[f64; 2]; 2]>,
    /// `[block][span][effect]`: the same for the operator account.
    pub operator: Vec<[[f64; 2]; 2]>,
    /// Per block: share of the queries of a rewritten key on which the
    /// similarity account weighs the answer above the stale write.
    pub latest_similarity: Vec<f64>,
    /// The same for the operator account.
    pub latest_operator: Vec<f64>,
    /// The same for the measured drop.
    pub latest_effect: f64,
}

impl Reading {
    /// Score the accounts of `pairs` (from [`accounts::pairs`]) against their effects.
    pub fn of(pairs: &[Pair], blocks: usize) -> Reading {
        let effects: [Vec<f64>; 2] = [
            pairs.iter().map(|p| p.drop).collect(),
            pairs.iter().map(|p| p.tv).collect(),
        ];
        let rho = |account: &dyn Fn(&Pair) -> f64| -> [f64; 2] {
            let a: Vec<f64> = pairs.iter().map(account).collect();
            [spearman(&a, &effects[0]), spearman(&a, &effects[1])]
        };
        let both = |l: usize, of: fn(&Pair) -> &Vec<[f64; 2]>| {
            [rho(&|p| of(p)[l][0]), rho(&|p| of(p)[l][1])]
        };
        Reading {
            similarity: (0..blocks).map(|l| both(l, |p| &p.similarity)).collect(),
            operator: (0..blocks).map(|l| both(l, |p| &p.operator)).collect(),
            latest_similarity: (0..blocks)
                .map(|l| latest(pairs, |p| p.similarity[l][1]))
                .collect(),
            latest_operator: (0..blocks)
                .map(|l| latest(pairs, |p| p.operator[l][1]))
                .collect(),
            latest_effect: latest(pairs, |p| p.drop),
        }
    }

    /// `ρ(operator) − ρ(similarity)` for `block`, `span` (0: window, 1: the
    /// write alone) and `effect` (an index of [`EFFECTS`]).
    pub fn margin(&self, block: usize, span: usize, effect: usize) -> f64 {
        self.operator[block][span][effect] - self.similarity[block][span][effect]
    }
}

/// Share of the rewritten keys' queries on which `score` puts the answer
/// above the stale write.
fn latest(pairs: &[Pair], score: impl Fn(&Pair) -> f64) -> f64 {
    share(pairs.iter().filter(|p| p.role == Role::Stale).map(|stale| {
        let answer = pairs
            .iter()
            .find(|p| p.query == stale.query && p.role == Role::Answer)
            .expect("a rewritten key's query has its answer");
        score(answer) > score(stale)
    }))
}

/// One trained run and what it shows.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Arm {
    /// [`Mixer::name`].
    pub mixer: String,
    /// Keys written twice per sequence (the task's `updates`).
    pub updates: usize,
    pub seed: u64,
    /// Held-out accuracy at the end, over all queries and over the rewritten keys' queries.
    pub accuracy: f64,
    pub accuracy_rewritten: f64,
    pub stop: Stop,
    /// `(step, held-out accuracy)`.
    pub curve: Vec<(usize, f64)>,
    /// The trained model's accounts, and the same model's before training.
    pub trained: Reading,
    pub untrained: Reading,
    /// Per block: mean β at first writes and at rewrites (delta mixers; empty otherwise).
    pub beta_first: Vec<f64>,
    pub beta_rewrite: Vec<f64>,
    /// `[block][channel]`: mean decay rate `−g` after training and before (KDA; empty otherwise).
    pub decay: Vec<Vec<f64>>,
    pub decay_init: Vec<Vec<f64>>,
    /// The trained pairs of the first [`Setup::drawn`] held-out sequences (seed 0 only).
    pub drawn: Vec<Pair>,
}

/// Per block: mean β at the value positions of first writes and of rewrites.
fn betas(model: &Stack, task: Updates, seqs: &[Sequence]) -> (Vec<f64>, Vec<f64>) {
    let blocks = model.blocks.len();
    let (mut first, mut rewrite) = (vec![Vec::new(); blocks], vec![Vec::new(); blocks]);
    for s in seqs {
        let pass = model.forward(s);
        for (l, b) in pass.blocks.iter().enumerate() {
            let Some(beta) = &b.mix.beta else {
                return (Vec::new(), Vec::new());
            };
            for w in 0..task.writes() {
                let repeat = (0..w).any(|u| s.tokens[2 * u] == s.tokens[2 * w]);
                let into = if repeat {
                    &mut rewrite[l]
                } else {
                    &mut first[l]
                };
                into.push(beta[2 * w + 1]);
            }
        }
    }
    let means = |xs: Vec<Vec<f64>>| xs.iter().map(|x| mean(x)).collect();
    (means(first), means(rewrite))
}

/// `[block][channel]`: mean `−g` over the positions of `seqs` (empty without decay).
fn decays(model: &Stack, seqs: &[Sequence]) -> Vec<Vec<f64>> {
    let (blocks, kd) = (model.blocks.len(), model.config.k);
    let mut sum = vec![vec![0.0; kd]; blocks];
    let mut n = 0usize;
    for s in seqs {
        let pass = model.forward(s);
        for (l, b) in pass.blocks.iter().enumerate() {
            let Some(g) = b.decay(kd) else {
                return Vec::new();
            };
            for row in g.row_iter() {
                row.iter().zip(sum[l].iter_mut()).for_each(|(g, a)| *a -= g);
            }
        }
        n += s.tokens.len();
    }
    sum.iter()
        .map(|c| c.iter().map(|a| a / n.max(1) as f64).collect())
        .collect()
}

/// Share of the queries of `seqs` asking a rewritten key that `model` answers right.
fn rewritten_accuracy(model: &Stack, task: Updates, seqs: &[Sequence]) -> f64 {
    share(seqs.iter().flat_map(|s| {
        let pass = model.forward(s);
        s.queries
            .iter()
            .enumerate()
            .filter(|&(_, &(p, _))| task.writes_of(s, p).len() > 1)
            .map(|(i, &(_, y))| argmax(0..task.vocab, |v| pass.probs[(i, v)]) == Some(y))
            .collect::<Vec<_>>()
    }))
}

/// Train `mixer` on `task` from `seed` and read it.
pub fn arm(setup: &Setup, mixer: Mixer, task: Updates, seed: u64) -> Arm {
    let config = Config {
        mixer,
        vocab: task.vocab,
        d: setup.d,
        k: setup.k,
        v: setup.k,
        layers: setup.layers,
        conv: setup.conv,
    };
    let StackRun {
        model,
        initial,
        accuracy,
        curve,
        stop,
        test,
    } = stack::train(
        config,
        GateInit::Horizon(task.len),
        task,
        setup.training,
        seed,
    );
    let seqs = &test[..setup.looked_at.min(test.len())];
    let pairs = accounts::pairs(&model, task, seqs, seed);
    let (beta_first, beta_rewrite) = betas(&model, task, seqs);
    let per_seq = seqs.first().map_or(0, |s| s.queries.len() * task.writes());
    Arm {
        mixer: mixer.name().to_string(),
        updates: task.updates,
        seed,
        accuracy,
        accuracy_rewritten: rewritten_accuracy(&model, task, &test),
        stop,
        curve,
        trained: Reading::of(&pairs, setup.layers),
        untrained: Reading::of(&accounts::pairs(&initial, task, seqs, seed), setup.layers),
        beta_first,
        beta_rewrite,
        decay: decays(&model, seqs),
        decay_init: decays(&initial, seqs),
        drawn: if seed == 0 {
            pairs[..(setup.drawn * per_seq).min(pairs.len())].to_vec()
        } else {
            Vec::new()
        },
    }
}

/// Every arm: the four mixers on the default task, KDA on the other.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub arms: Vec<Arm>,
}

impl Findings {
    /// Train and read every arm, seeds and arms in parallel.
    pub fn run(setup: &Setup) -> Findings {
        let mut jobs: Vec<(Mixer, Updates)> = MIXERS.iter().map(|&m| (m, setup.task)).collect();
        jobs.push((Mixer::Kda, setup.other));
        let n = setup.seeds;
        let arms = parallel::map(0..jobs.len() as u64 * n, |i| {
            let (mixer, task) = jobs[(i / n) as usize];
            arm(setup, mixer, task, i % n)
        });
        Findings {
            setup: setup.clone(),
            arms,
        }
    }

    /// The runs of `mixer` on the task with `updates` rewritten keys.
    pub fn runs(&self, mixer: Mixer, updates: usize) -> Vec<&Arm> {
        self.arms
            .iter()
            .filter(|a| a.mixer == mixer.name() && a.updates == updates)
            .collect()
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(setup() => Findings::run(&setup()))
}
