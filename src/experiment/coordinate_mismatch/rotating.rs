//! Chapter 1's question asked of a decoder with rotary positions
//! (SmolLM2-135M-Instruct): its query and key coordinates are learned *and*
//! turn with position, so the same two tokens score differently at different
//! distances.
//!
//! ```text
//! s_ij = q_i R(j − i) k_jᵀ / 8,  j ≤ i               (per head, pretrained::rotary)
//! R²(cosine)    = ρ(s_ij, cos(x_i, x_j))²            raw similarity of the stream
//! R²(unrotated) = ρ(s_ij, q_i k_jᵀ / 8)²             the learned W_QK at offset 0
//! R²(offset)    = 1 − Σ (s − s̄_{i−j})² / Σ (s − s̄)²  the mean score per offset alone
//! share(Δ)      = ‖sym M(Δ)‖² / ‖M(Δ)‖²,  M(Δ) = diag(g) W_Q R(Δ) W_Kᵀ diag(g)
//! ```
//!
//! Every statistic is asked of the trained decoder and of the same
//! architecture at Llama's initialisation (the null), on the context
//! sentences. The chapter's per-row rank statistic (a raw similarity
//! of the states against a head's scores, Spearman ρ over each query's keys)
//! is asked of the trained decoder's heads, of random untied heads and of tied
//! heads on the same states; causal rows see only their earlier keys. The raw
//! similarity is each [`Similarity`]: the normed dot product `a aᵀ`
//! (`a = rms(x) ⊙ g`, what the heads read), the cosine, and the plain `x xᵀ`,
//! which the first token's massive activation dominates.
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use super::row_ranks::{random_heads, row_rhos, variant_scores};
use crate::experiment::relations::trained::contexts;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::rotary::symmetric_shares;
use crate::pretrained::trace::LayerTrace;
use crate::pretrained::transformer::{Architecture, Transformer};
use crate::stats::{mean, pearson};

/// Which sentences, how far the form is turned, and the random heads' seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The first context sentences (every pair's A, then every B).
    pub sentences: usize,
    /// The symmetric share is computed at distances `0..=distances`.
    pub distances: usize,
    /// Seed of the random untied heads.
    pub seed: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    sentences: 20,
    distances: 64,
    seed: 2025,
};

/// Which keys (and queries) enter a statistic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// Every position.
    All,
    /// Without the first token, where a causal model parks its attention sink.
    Later,
}

impl Keys {
    pub const ALL: [Keys; 2] = [Keys::All, Keys::Later];

    /// The first position counted.
    pub fn first(self) -> usize {
        match self {
            Keys::All => 0,
            Keys::Later => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Keys::All => "all",
            Keys::Later => "later",
        }
    }
}

pub use super::row_ranks::Variant;

/// Which raw similarity of the decoder's states a head's scores are ranked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Similarity {
    /// `a_i · a_j`, `a = rms(x) ⊙ g`: the normed states the heads read.
    Normed,
    /// `cos(x_i, x_j)`.
    Cosine,
    /// `x_i · x_j` on the stream itself, where the first token's norm dominates.
    Dot,
}

impl Similarity {
    pub const ALL: [Similarity; 3] = [Similarity::Normed, Similarity::Cosine, Similarity::Dot];

    pub fn name(self) -> &'static str {
        match self {
            Similarity::Normed => "normed",
            Similarity::Cosine => "cosine",
            Similarity::Dot => "dot",
        }
    }

    /// How the book's tables and cards name it.
    pub fn label(self) -> &'static str {
        match self {
            Similarity::Normed => "normed dot product rms(x)·g",
            Similarity::Cosine => "cosine",
            Similarity::Dot => "raw dot product x·x",
        }
    }

    fn index(self) -> usize {
        Similarity::ALL
            .iter()
            .position(|&x| x == self)
            .expect("a similarity")
    }
}

/// How much of one head's score variance each explanation carries.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Explained {
    pub cosine: f64,
    pub unrotated: f64,
    pub offset: f64,
}

/// One explanation of the score: its measure key, its label, its field.
pub struct Explanation {
    pub key: &'static str,
    pub label: &'static str,
    pub of: fn(&Explained) -> f64,
}

/// The three explanations, in the order tables and figures show them.
pub const EXPLANATIONS: [Explanation; 3] = [
    Explanation {
        key: "cosine",
        label: "raw cosine",
        of: |e| e.cosine,
    },
    Explanation {
        key: "unrotated",
        label: "W_QK, offset 0",
        of: |e| e.unrotated,
    },
    Explanation {
        key: "offset",
        label: "offset alone",
        of: |e| e.offset,
    },
];

/// One sentence's per-head sums of the trained heads' per-row ρ, and its row count.
pub type SentenceRows = (Vec<f64>, usize);

/// One model's findings; heads are indexed `layer · 9 + head`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    /// `explained[keys][head]`.
    pub explained: Vec<Vec<Explained>>,
    /// `share[head][distance]`: the effective form's symmetric share, gain folded in.
    pub share: Vec<Vec<f64>>,
    /// `rows[similarity][keys][variant][head]`: mean per-row Spearman ρ of a raw similarity against scores.
    pub rows: Vec<Vec<Vec<Vec<f64>>>>,
    /// `by_sentence[similarity][keys][sentence]`: per head, the sum of the trained heads'
    /// per-row ρ in that sentence, and the sentence's row count (every head's).
    pub by_sentence: Vec<Vec<Vec<SentenceRows>>>,
    /// Tokens in the sentences.
    pub tokens: usize,
}

/// One head's pairs `(i, j ≤ i)` of one sentence.
#[derive(Clone, Copy, Debug)]
struct Pair {
    score: f64,
    cosine: f64,
    unrotated: f64,
    /// The key's position `j`.
    key: usize,
    /// `i − j`.
    offset: usize,
}

/// `1 − Σ (s − s̄_group)² / Σ (s − s̄)²`: the share of variance the group means explain.
pub fn eta_squared(values: &[(f64, usize)]) -> f64 {
    let groups = values.iter().map(|v| v.1).max().map_or(0, |m| m + 1);
    let (mut sum, mut count) = (vec![0.0; groups], vec![0.0; groups]);
    for &(s, g) in values {
        sum[g] += s;
        count[g] += 1.0;
    }
    let all = mean(&values.iter().map(|v| v.0).collect::<Vec<_>>());
    let total: f64 = values.iter().map(|v| (v.0 - all).powi(2)).sum();
    let within: f64 = values
        .iter()
        .map(|&(s, g)| (s - sum[g] / count[g]).powi(2))
        .sum();
    1.0 - within / total
}

/// One head in one sentence: its pairs, and `rows[similarity][keys][variant]` its per-row ρ.
type HeadFindings = (Vec<Pair>, Vec<Vec<Vec<Vec<f64>>>>);

/// Cosine of every pair of rows, `(n, n)`.
fn cosines(x: &DMatrix<f64>) -> DMatrix<f64> {
    let mut u = x.clone();
    for mut row in u.row_iter_mut() {
        let n = row.norm();
        row /= n;
    }
    &u * u.transpose()
}

/// One layer of one sentence: every head's pairs, and its per-row ρ per similarity, keys and variant.
fn layer_of(
    m: &dyn Transformer,
    layer: &LayerTrace,
    random: &[(DMatrix<f64>, DMatrix<f64>)],
) -> Vec<HeadFindings> {
    let x = &layer.input;
    let a = m.query_input(layer.layer, x);
    let cos = cosines(x);
    // in the order of Similarity::ALL, each (n, n)
    let sims = [&a * a.transpose(), cos.clone(), x * x.transpose()];
    let scale = 1.0 / (layer.heads[0].q.ncols() as f64).sqrt();
    layer
        .heads
        .iter()
        .enumerate()
        .map(|(h, head)| {
            let unrot = &head.q * head.k.transpose() * scale;
            let n = x.nrows();
            let pairs = (0..n)
                .flat_map(|i| (0..=i).map(move |j| (i, j)))
                .map(|(i, j)| Pair {
                    score: head.scores[(i, j)],
                    cosine: cos[(i, j)],
                    unrotated: unrot[(i, j)],
                    key: j,
                    offset: i - j,
                })
                .collect();
            let scores = variant_scores(m, layer, h, &random[h]);
            // the keys from k.first() on: the square block from there
            let from = |k: Keys, s: &DMatrix<f64>| {
                let f = k.first();
                s.view((f, f), (n - f, n - f)).into_owned()
            };
            let rows = sims
                .iter()
                .map(|raw| {
                    Keys::ALL
                        .iter()
                        .map(|&k| {
                            scores
                                .iter()
                                .map(|s| row_rhos(m.mask(), &from(k, raw), &from(k, s), 3))
                                .collect()
                        })
                        .collect()
                })
                .collect();
            (pairs, rows)
        })
        .collect()
}

impl ModelFindings {
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let m = model.smollm2();
        let c = &m.config;
        let texts = contexts();
        let ids: Vec<Vec<u32>> = texts[..setup.sentences]
            .iter()
            .map(|t| m.encode(t).unwrap_or_else(|e| panic!("{e}")).ids)
            .collect();
        let random = random_heads(c.n_head, c.d_model, c.head_dim, setup.seed);
        let arch = Architecture::Smollm2.with(model);
        // per sentence, per head (layer · 9 + h): pairs and per-row ρ
        let per = crate::parallel::map(0..ids.len() as u64, |s| {
            let t = m.run(&ids[s as usize]);
            t.layers
                .iter()
                .flat_map(|l| layer_of(arch, l, &random))
                .collect::<Vec<_>>()
        });
        let heads = c.n_layer * c.n_head;
        let explained = Keys::ALL
            .iter()
            .map(|k| {
                (0..heads)
                    .map(|h| {
                        let pooled: Vec<Pair> = per
                            .iter()
                            .flat_map(|s| s[h].0.iter())
                            .filter(|p| p.key >= k.first())
                            .copied()
                            .collect();
                        explain(&pooled)
                    })
                    .collect()
            })
            .collect();
        let sims = 0..Similarity::ALL.len();
        let rows = sims
            .clone()
            .map(|r| {
                (0..Keys::ALL.len())
                    .map(|k| {
                        (0..Variant::ALL.len())
                            .map(|v| {
                                (0..heads)
                                    .map(|h| {
                                        let all: Vec<f64> = per
                                            .iter()
                                            .flat_map(|s| s[h].1[r][k][v].clone())
                                            .collect();
                                        mean(&all)
                                    })
                                    .collect()
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        // Variant::ALL[0] is the trained head
        let by_sentence = sims
            .map(|r| {
                (0..Keys::ALL.len())
                    .map(|k| {
                        per.iter()
                            .map(|s| {
                                let sums = s.iter().map(|h| h.1[r][k][0].iter().sum()).collect();
                                (sums, s[0].1[r][k][0].len())
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let deltas: Vec<f64> = (0..=setup.distances).map(|d| -(d as f64)).collect();
        let share = (0..heads)
            .map(|i| {
                let (l, h) = (i / c.n_head, i % c.n_head);
                let g = m.attn_norm(l);
                let fold = |w: DMatrix<f64>| DMatrix::from_diagonal(&g) * w;
                symmetric_shares(
                    &fold(m.w_q(l, h)),
                    &fold(m.w_k(l, h)),
                    &deltas,
                    c.rope_theta,
                )
            })
            .collect();
        ModelFindings {
            explained,
            share,
            rows,
            by_sentence,
            tokens: ids.iter().map(Vec::len).sum(),
        }
    }

    /// Every head's value of one explanation.
    pub fn explained(&self, keys: Keys, f: fn(&Explained) -> f64) -> Vec<f64> {
        let k = Keys::ALL
            .iter()
            .position(|&x| x == keys)
            .expect("a key set");
        self.explained[k].iter().map(f).collect()
    }

    /// Every head's mean per-row ρ for one similarity, key set and variant.
    pub fn rows(&self, sim: Similarity, keys: Keys, v: Variant) -> &[f64] {
        let k = Keys::ALL
            .iter()
            .position(|&x| x == keys)
            .expect("a key set");
        let v = Variant::ALL
            .iter()
            .position(|&x| x == v)
            .expect("a variant");
        &self.rows[sim.index()][k][v]
    }

    /// Mean over heads of the symmetric share at each distance.
    pub fn share_curve(&self) -> Vec<f64> {
        (0..self.share[0].len())
            .map(|d| mean(&self.share.iter().map(|s| s[d]).collect::<Vec<_>>()))
            .collect()
    }
}

/// R² of one head's scores against each explanation, over `pairs`.
fn explain(pairs: &[Pair]) -> Explained {
    let col = |f: fn(&Pair) -> f64| pairs.iter().map(f).collect::<Vec<_>>();
    let s = col(|p| p.score);
    Explained {
        cosine: pearson(&s, &col(|p| p.cosine)).powi(2),
        unrotated: pearson(&s, &col(|p| p.unrotated)).powi(2),
        offset: eta_squared(
            &pairs
                .iter()
                .map(|p| (p.score, p.offset))
                .collect::<Vec<_>>(),
        ),
    }
}

/// The decoder's findings, trained and random.
pub type Findings = ByModel<ModelFindings>;

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => {
        ByModel::run(|model| ModelFindings::run(model, BOOK))
    })
}
