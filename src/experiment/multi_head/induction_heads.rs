//! Chapter 3's constructed induction circuit asked of a real decoder:
//! induction heads in SmolLM2 on Olsson et al.'s (2022) protocol, sequences of
//! uniformly random tokens repeated once, against the same architecture at
//! Llama's initialisation.
//!
//! ```text
//! ids        [lead] r_0 … r_{T−1} r_0 … r_{T−1}          lead optional; o = 1 with it
//! prefix     mean over j of A[o+T+j, o+j+1]              the token after r_j's first copy
//! previous   mean over i ≥ o+1 of A[i, i−1]              the previous token
//! copying    Σ Re λ / Σ |λ|,  λ = eig(E W_V W_O W_U)     Olsson's eigenvalue positivity
//! direct     the head's write at the repeat, through the final norm and E,
//!            on the next token's logit minus the mean logit
//! loss       −log p(r_j | …) for j = 1..T, first copy against the repeat
//! ```
//!
//! The ablations and their random-head controls are in [`ablation`]; the
//! copying score in [`copying`]; the claim and the measures in [`verdict`].
//!
//! Introduced in chapter 3.

pub mod ablation;
pub mod copying;
pub mod verdict;

use std::ops::Range;

use nalgebra::DMatrix;
use rand::RngExt;

use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::smollm2::forward::{self, Cache, Options};
use crate::pretrained::trace::Trace;
use crate::pretrained::transformer::Transformer;
use crate::random::seeded;

/// The ids the random tokens are drawn from: every id after SmolLM2's 17
/// control tokens (`<|endoftext|>` … `<empty_output>`, ids 0–16).
pub const ORDINARY: Range<u32> = 17..49_152;

/// The token before the random sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Lead {
    /// `<|im_start|>` (id 1), the checkpoint's declared BOS, which its chat
    /// template puts first.
    ImStart,
    /// `<|endoftext|>` (id 0), the document separator of its pretraining.
    EndOfText,
    /// No lead: the first random token is the first position.
    Nothing,
}

impl Lead {
    pub const ALL: [Lead; 3] = [Lead::ImStart, Lead::EndOfText, Lead::Nothing];

    /// The lead token's id, if any.
    pub fn id(self) -> Option<u32> {
        match self {
            Lead::ImStart => Some(1),
            Lead::EndOfText => Some(0),
            Lead::Nothing => None,
        }
    }

    /// The vocabulary's string, as claims and prose name it.
    pub fn name(self) -> &'static str {
        match self {
            Lead::ImStart => "<|im_start|>",
            Lead::EndOfText => "<|endoftext|>",
            Lead::Nothing => "no lead token",
        }
    }
}

/// One sequence of random tokens repeated once.
#[derive(Clone, Debug, PartialEq)]
pub struct Repeat {
    /// `[lead] r r`, `o + 2T` ids.
    pub ids: Vec<u32>,
    /// `o`: 1 with a lead token, else 0.
    pub start: usize,
    /// `T`: the random sequence's length.
    pub length: usize,
}

impl Repeat {
    /// Sequence `seed`: `length` ids uniform over [`ORDINARY`], after `lead`.
    pub fn draw(lead: Lead, length: usize, seed: u64) -> Repeat {
        let mut rng = seeded(seed);
        let r: Vec<u32> = (0..length).map(|_| rng.random_range(ORDINARY)).collect();
        let mut ids: Vec<u32> = lead.id().into_iter().collect();
        let start = ids.len();
        ids.extend(&r);
        ids.extend(&r);
        Repeat { ids, start, length }
    }

    /// `(query, key)` of the prefix-matching score: each repeat position and
    /// the position after its token's first copy.
    pub fn prefix_pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let (o, t) = (self.start, self.length);
        (0..t).map(move |j| (o + t + j, o + j + 1))
    }

    /// Positions whose next token is scored: `(first, repeat)`, each
    /// predicting `r_1 … r_{T−1}`.
    pub fn scored(&self) -> (Range<usize>, Range<usize>) {
        let (o, t) = (self.start, self.length);
        (o..o + t - 1, o + t..o + 2 * t - 1)
    }
}

/// Per-head mean of `weight(layer, head, query, key)` over `pairs`, `[layer][head]`.
fn head_means(trace: &Trace, pairs: &[(usize, usize)]) -> Vec<Vec<f64>> {
    trace
        .layers
        .iter()
        .map(|l| {
            l.heads
                .iter()
                .map(|h| pairs.iter().map(|&(i, j)| h.weights[(i, j)]).sum::<f64>())
                .map(|s| s / pairs.len() as f64)
                .collect()
        })
        .collect()
}

/// Every head's prefix-matching score on `r`, `[layer][head]`.
pub fn prefix_matching(trace: &Trace, r: &Repeat) -> Vec<Vec<f64>> {
    head_means(trace, &r.prefix_pairs().collect::<Vec<_>>())
}

/// Every head's previous-token score on `r` (queries after the first random
/// token, so the previous token is never the lead), `[layer][head]`.
pub fn previous_token(trace: &Trace, r: &Repeat) -> Vec<Vec<f64>> {
    let pairs: Vec<_> = (r.start + 1..r.ids.len()).map(|i| (i, i - 1)).collect();
    head_means(trace, &pairs)
}

/// Mean next-token loss (nats) on the first copy and on the repeat, with the
/// heads in `ablate` zeroed before W_O.
pub fn losses(m: &SmolLm2, r: &Repeat, ablate: &[(usize, usize)]) -> (f64, f64) {
    let x = forward::embed(&m.weights, &r.ids);
    let opts = Options {
        ablate,
        record: false,
    };
    let (out, _) = forward::run_from(&m.weights, 0, x, &mut Cache::new(&m.config), opts);
    let (first, repeat) = r.scored();
    (mean_loss(m, r, &out, first), mean_loss(m, r, &out, repeat))
}

/// Mean next-token loss (nats) of the positions `range` of `r`, read from
/// the final stream `out` through the final norm and the tied embedding.
pub fn mean_loss(m: &SmolLm2, r: &Repeat, out: &DMatrix<f32>, range: Range<usize>) -> f64 {
    let n = range.len() as f64;
    // (|range|, 576) → (|range|, vocab)
    let logits = forward::logits(&m.weights, &out.rows(range.start, range.len()).into());
    let loss: f64 = range
        .enumerate()
        .map(|(row, p)| {
            let row: Vec<f32> = logits.row(row).iter().copied().collect();
            -forward::log_softmax(&row)[r.ids[p + 1] as usize]
        })
        .sum();
    loss / n
}

/// Sizes and choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Sequences, seeds `0..sequences`.
    pub sequences: usize,
    /// Sequences (seeds `0..`) under each other lead token.
    pub lead_sequences: usize,
    /// `T`, the random sequence's length.
    pub length: usize,
    /// The default lead token.
    pub lead: Lead,
    /// Heads ablated in each set (induction heads, previous-token heads, each control).
    pub k: usize,
    /// Sequences every ablation is run on: held-out seeds
    /// `held_out..held_out + ablated`, and seeds `0..ablated` in sample.
    pub ablated: usize,
    /// Random head sets per control.
    pub draws: usize,
    /// The held-out sequences' first seed: seeds `held_out..held_out + ablated`,
    /// disjoint from the `0..sequences` the heads are selected on.
    pub held_out: u64,
    /// Heads per set in the held-out ablations (controls from the same layers).
    pub held_out_k: [usize; 3],
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    sequences: 16,
    lead_sequences: 8,
    length: 25,
    lead: Lead::ImStart,
    k: 5,
    ablated: 4,
    draws: 24,
    held_out: 100,
    held_out_k: [3, 5, 10],
};

/// Olsson et al.'s threshold for an induction head's prefix-matching score.
pub const INDUCTION_AT: f64 = 0.3;

/// One model's scores, every sequence with the default lead.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Scores {
    /// `[layer][head]`, mean over sequences.
    pub prefix: Vec<Vec<f64>>,
    /// `[layer][head]`, mean over sequences.
    pub previous: Vec<Vec<f64>>,
    /// `[layer][head]`, Olsson's eigenvalue positivity of the OV circuit.
    pub copying: Vec<Vec<f64>>,
    /// `[layer][head]`, mean over sequences: the direct logit effect of the
    /// head's write on the next token at the repeat ([`copying::direct`]).
    pub direct: Vec<Vec<f64>>,
    /// Per sequence: mean loss on the first copy.
    pub first: Vec<f64>,
    /// Per sequence: mean loss on the repeat.
    pub repeat: Vec<f64>,
}

/// One sequence's per-head grids and losses.
struct Sequence {
    grids: [Vec<Vec<f64>>; 3],
    first: f64,
    repeat: f64,
}

impl Scores {
    fn run(model: Model, setup: Setup, lead: Lead, sequences: usize) -> Scores {
        let m = model.smollm2();
        let per: Vec<Sequence> = (0..sequences as u64)
            .map(|s| {
                let r = Repeat::draw(lead, setup.length, s);
                let t = m.run(&r.ids);
                let out = t.output.map(|v| v as f32);
                let (first, repeat) = r.scored();
                Sequence {
                    grids: [
                        prefix_matching(&t, &r),
                        previous_token(&t, &r),
                        copying::direct(m, &t, &r),
                    ],
                    first: mean_loss(m, &r, &out, first),
                    repeat: mean_loss(m, &r, &out, repeat),
                }
            })
            .collect();
        // [layer][head] mean over sequences of grid `g`
        let mean = |g: usize| {
            let mut acc = vec![vec![0.0; m.heads()]; m.layers()];
            for p in &per {
                for (a, row) in acc.iter_mut().zip(&p.grids[g]) {
                    a.iter_mut()
                        .zip(row)
                        .for_each(|(a, x)| *a += x / per.len() as f64);
                }
            }
            acc
        };
        Scores {
            prefix: mean(0),
            previous: mean(1),
            direct: mean(2),
            copying: if lead == setup.lead {
                copying::positivities(m)
            } else {
                Vec::new()
            },
            first: per.iter().map(|p| p.first).collect(),
            repeat: per.iter().map(|p| p.repeat).collect(),
        }
    }

    /// Every head as `(layer, head, score)`, highest `pick` first.
    pub fn ranked(&self, pick: fn(&Scores) -> &Vec<Vec<f64>>) -> Vec<(usize, usize, f64)> {
        let mut all: Vec<_> = pick(self)
            .iter()
            .enumerate()
            .flat_map(|(l, row)| row.iter().enumerate().map(move |(h, &s)| (l, h, s)))
            .collect();
        all.sort_by(|a, b| b.2.total_cmp(&a.2));
        all
    }

    /// Heads whose prefix-matching score is at least [`INDUCTION_AT`].
    pub fn induction_heads(&self) -> Vec<(usize, usize, f64)> {
        self.ranked(|s| &s.prefix)
            .into_iter()
            .filter(|h| h.2 >= INDUCTION_AT)
            .collect()
    }

    /// Mean loss on the repeat over the mean loss on the first copy.
    pub fn loss_ratio(&self) -> f64 {
        crate::stats::mean(&self.repeat) / crate::stats::mean(&self.first)
    }
}

/// Everything the section reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    /// Trained and random decoder, default lead.
    pub scores: ByModel<Scores>,
    /// The trained decoder under each other lead, in [`Lead::ALL`] order
    /// without the default (no copying score), on the first `lead_sequences`.
    pub leads: Vec<(Lead, Scores)>,
    /// The ablations on the held-out sequences, trained decoder, with the
    /// same-layer and the wide controls.
    pub ablation: ablation::Ablations,
    /// The ablations on the sequences the heads were selected on (seeds
    /// `0..ablated`), same-layer controls.
    pub in_sample: ablation::Ablations,
    /// Per `k` of [`Setup::held_out_k`], the ablations on the held-out
    /// sequences, same-layer controls (at `k` = [`Setup::k`], [`Findings::ablation`]).
    pub held_out: Vec<(usize, ablation::Ablations)>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let scores = ByModel::run(|model| Scores::run(model, setup, setup.lead, setup.sequences));
        let others: Vec<Lead> = Lead::ALL.into_iter().filter(|&l| l != setup.lead).collect();
        let leads = crate::parallel::map(0..others.len() as u64, |i| {
            let lead = others[i as usize];
            (
                lead,
                Scores::run(Model::Trained, setup, lead, setup.lead_sequences),
            )
        });
        let seeds = setup.held_out..setup.held_out + setup.ablated as u64;
        let run = |k, seeds, wide| {
            ablation::Ablations::run_on(Setup { k, ..setup }, &scores.trained, seeds, wide)
        };
        let ablation = run(setup.k, seeds.clone(), true);
        let in_sample = run(setup.k, 0..setup.ablated as u64, false);
        let held_out = setup
            .held_out_k
            .iter()
            .map(|&k| {
                let a = if k == setup.k {
                    ablation.clone()
                } else {
                    run(k, seeds.clone(), false)
                };
                (k, a)
            })
            .collect();
        Findings {
            scores,
            leads,
            ablation,
            in_sample,
            held_out,
        }
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
