//! Chapter 1 on real text: raw similarity against score on the input hidden
//! states of every layer of all-MiniLM-L6-v2, for its trained heads, for
//! random untied heads on the same states, and for tied heads (a trained
//! W_Q on both sides), with and without `[CLS]`/`[SEP]`.
//!
//! Statistics are computed per sentence and averaged over the corpus; each
//! head's average is one value, and a layer reports mean ± sd over its heads.

use nalgebra::DMatrix;

use super::row_ranks::{random_heads, row_rhos, variant_scores};
use crate::measure::{Measure, fixed, pm, table};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::{D, D_K, HEADS, LAYERS};
use crate::pretrained::transformer::{Architecture, Mask, Transformer};
use crate::projection::{knn_overlap, off_diagonal, self_match_rate};
use crate::stats::{Summary, mean, pearson, ranks};

/// The corpus: one English sentence per line.
pub const CORPUS: &str = include_str!("../../../models/corpus.txt");

/// The corpus's sentences.
pub fn sentences() -> Vec<&'static str> {
    CORPUS.lines().filter(|l| !l.trim().is_empty()).collect()
}

pub use super::row_ranks::Variant;

/// Which tokens enter a statistic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tokens {
    /// Every token, `[CLS]` and `[SEP]` included.
    All,
    /// Without `[CLS]` and `[SEP]`, the tokens that soak up attention.
    Inner,
}

impl Tokens {
    pub const ALL: [Tokens; 2] = [Tokens::All, Tokens::Inner];

    pub fn name(self) -> &'static str {
        match self {
            Tokens::All => "all",
            Tokens::Inner => "inner",
        }
    }

    /// The square submatrix of these tokens.
    fn select(self, m: &DMatrix<f64>) -> DMatrix<f64> {
        match self {
            Tokens::All => m.clone(),
            Tokens::Inner => m.view((1, 1), (m.nrows() - 2, m.ncols() - 2)).into_owned(),
        }
    }
}

/// What is compared between raw dot products and scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    /// Spearman ρ over all pairs `i ≠ j` of a sentence.
    RhoPairs,
    /// Spearman ρ over the keys `j ≠ i` of each query row, averaged over rows.
    RhoRows,
    /// Overlap of each token's `k` strongest partners.
    Knn,
    /// Fraction of tokens whose highest score is their own.
    SelfMatch,
}

impl Statistic {
    pub const ALL: [Statistic; 4] = [
        Statistic::RhoPairs,
        Statistic::RhoRows,
        Statistic::Knn,
        Statistic::SelfMatch,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Statistic::RhoPairs => "rho_pairs",
            Statistic::RhoRows => "rho_rows",
            Statistic::Knn => "knn",
            Statistic::SelfMatch => "self",
        }
    }

    /// How the book's tables name it.
    pub fn label(self) -> &'static str {
        match self {
            Statistic::RhoPairs => "Spearman ρ over pairs",
            Statistic::RhoRows => "per-row Spearman ρ",
            Statistic::Knn => "k-NN overlap",
            Statistic::SelfMatch => "own best match",
        }
    }

    fn of(self, raw: &Raw, scores: &DMatrix<f64>, k: usize) -> f64 {
        match self {
            Statistic::RhoPairs => pearson(&raw.pair_ranks, &ranks(&off_diagonal(scores))),
            Statistic::RhoRows => mean(&row_rhos(Mask::Bidirectional, &raw.m, scores, 3)),
            Statistic::Knn => knn_overlap(&raw.m, scores, k),
            Statistic::SelfMatch => self_match_rate(scores),
        }
    }
}

/// Raw dot products `x xᵀ` `(n, n)` and the ranks of their off-diagonal
/// entries, computed once for every head: Spearman ρ is the Pearson
/// correlation of ranks.
struct Raw {
    m: DMatrix<f64>,
    pair_ranks: Vec<f64>,
}

impl Raw {
    fn new(m: DMatrix<f64>) -> Raw {
        Raw {
            pair_ranks: ranks(&off_diagonal(&m)),
            m,
        }
    }
}

/// The corpus's statistics, per tokens, variant, statistic, layer and head.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Text {
    pub sentences: usize,
    /// Tokens in the corpus, `[CLS]` and `[SEP]` included.
    pub tokens: usize,
    pub k: usize,
    /// Flat `[tokens][variant][statistic][layer][head]`, each a mean over sentences.
    values: Vec<f64>,
    /// Mean chance level of the k-NN overlap, `k / (n − 1)`, per [`Tokens`].
    pub knn_chance: [f64; 2],
    /// Mean chance level of the self-match rate, `1 / n`, per [`Tokens`].
    pub self_chance: [f64; 2],
    /// Self-match rate of the raw dot products, per [`Tokens`] and layer.
    pub raw_self: [Vec<f64>; 2],
}

fn index(t: Tokens, v: Variant, s: Statistic, layer: usize, head: usize) -> usize {
    let t = Tokens::ALL.iter().position(|&x| x == t).unwrap();
    let v = Variant::ALL.iter().position(|&x| x == v).unwrap();
    let s = Statistic::ALL.iter().position(|&x| x == s).unwrap();
    (((t * 3 + v) * 4 + s) * LAYERS + layer) * HEADS + head
}

/// Values per sentence: the statistics, then for each tokens the raw self-match per layer.
const CELLS: usize = 2 * 3 * 4 * LAYERS * HEADS;

impl Text {
    /// The heads' values of one layer.
    pub fn heads(&self, t: Tokens, v: Variant, s: Statistic, layer: usize) -> &[f64] {
        let i = index(t, v, s, layer, 0);
        &self.values[i..i + HEADS]
    }

    /// Mean ± sd over the heads of one layer.
    pub fn layer(&self, t: Tokens, v: Variant, s: Statistic, layer: usize) -> Summary {
        Summary::of(self.heads(t, v, s, layer))
    }

    /// Mean ± sd over every head of every layer.
    pub fn summary(&self, v: Variant, t: Tokens, s: Statistic) -> Summary {
        Summary::over((0..LAYERS).flat_map(|l| self.heads(t, v, s, l).to_vec()))
    }

    /// The mean over every head of every layer.
    pub fn overall(&self, v: Variant, t: Tokens, s: Statistic) -> f64 {
        self.summary(v, t, s).mean
    }
}

/// One sentence's statistics (`CELLS` of them), then the raw self-match per tokens and layer.
fn sentence(
    model: &dyn Transformer,
    ids: &[u32],
    random: &[(DMatrix<f64>, DMatrix<f64>)],
    k: usize,
) -> Vec<f64> {
    let trace = model.run(ids);
    let mut out = vec![0.0; CELLS + 2 * LAYERS];
    for (l, layer) in trace.layers.iter().enumerate() {
        let x = &layer.input;
        // raw dot products x_i·x_j: (n, n)
        let raw = x * x.transpose();
        let raws = Tokens::ALL.map(|t| Raw::new(t.select(&raw)));
        for h in 0..HEADS {
            let scores = variant_scores(model, layer, h, &random[l * HEADS + h]);
            for (t, raw_t) in Tokens::ALL.into_iter().zip(&raws) {
                for (v, sc) in Variant::ALL.iter().zip(&scores) {
                    let sc_t = t.select(sc);
                    for s in Statistic::ALL {
                        out[index(t, *v, s, l, h)] = s.of(raw_t, &sc_t, k);
                    }
                }
            }
        }
        for (ti, r) in raws.iter().enumerate() {
            out[CELLS + ti * LAYERS + l] = self_match_rate(&r.m);
        }
    }
    out
}

/// Run the encoder on the corpus and measure every layer's heads.
///
/// # Panics
/// If `models/minilm` is missing or corrupted, or a sentence is too short for `k`.
pub fn run(k: usize, seed: u64) -> Text {
    let model = Architecture::Minilm.with(Model::Trained);
    let random = random_heads(LAYERS * HEADS, D, D_K, seed);
    let encoded: Vec<Vec<u32>> = sentences()
        .iter()
        .map(|s| {
            model
                .encode(s)
                .expect("corpus sentences fit in 512 positions")
                .ids
        })
        .collect();
    let per = crate::parallel::map(0..encoded.len() as u64, |i| {
        sentence(model, &encoded[i as usize], &random, k)
    });
    let avg = |j: usize| mean(&per.iter().map(|p| p[j]).collect::<Vec<_>>());
    let lens: Vec<f64> = encoded.iter().map(|e| e.len() as f64).collect();
    let chance = |drop: f64, f: &dyn Fn(f64) -> f64| {
        mean(&lens.iter().map(|n| f(n - drop)).collect::<Vec<_>>())
    };
    Text {
        sentences: encoded.len(),
        tokens: encoded.iter().map(Vec::len).sum(),
        k,
        values: (0..CELLS).map(avg).collect(),
        knn_chance: [0.0, 2.0].map(|drop| chance(drop, &|n| k as f64 / (n - 1.0))),
        self_chance: [0.0, 2.0].map(|drop| chance(drop, &|n| 1.0 / n)),
        raw_self: [0, 1].map(|ti| (0..LAYERS).map(|l| avg(CELLS + ti * LAYERS + l)).collect()),
    }
}

/// Every statistic of every variant per layer, mean ± sd over the heads, as a table.
fn layer_table(t: &Text, tok: Tokens) -> String {
    let mut header = vec!["statistic", "heads"];
    let layers: Vec<String> = (0..LAYERS).map(|l| format!("layer {l}")).collect();
    header.extend(layers.iter().map(String::as_str));
    let mut rows = Vec::new();
    for s in Statistic::ALL {
        for v in Variant::ALL {
            let mut row = vec![s.label().to_string(), v.name().to_string()];
            row.extend((0..LAYERS).map(|l| pm(t.layer(tok, v, s, l), 2)));
            rows.push(row);
        }
    }
    table(&header, &rows)
}

/// The numbers the prose quotes: every statistic overall, and per layer as a table.
pub fn measures(t: &Text) -> Vec<Measure> {
    let mut m = vec![
        Measure::new("trained_sentences", t.sentences.to_string()),
        Measure::new("trained_tokens", t.tokens.to_string()),
        Measure::new("trained_k", t.k.to_string()),
    ];
    for (ti, tok) in Tokens::ALL.iter().enumerate() {
        let tn = tok.name();
        m.push(Measure::new(
            format!("trained_knn_chance_{tn}"),
            fixed(t.knn_chance[ti], 2),
        ));
        m.push(Measure::new(
            format!("trained_self_chance_{tn}"),
            fixed(t.self_chance[ti], 2),
        ));
        m.push(Measure::new(
            format!("trained_self_raw_{tn}"),
            fixed(mean(&t.raw_self[ti]), 2),
        ));
        for v in Variant::ALL {
            for s in Statistic::ALL {
                let key = format!("trained_{}_{}_{tn}", s.name(), v.name());
                m.push(Measure::new(key, pm(t.summary(v, *tok, s), 2)));
            }
        }
        m.push(Measure::new(
            format!("trained_layers_{tn}"),
            layer_table(t, *tok),
        ));
    }
    m
}
