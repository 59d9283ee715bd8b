//! Named attention patterns (previous token, next token, a sink found from the data,
//! and the hard-coded `[SEP]`) and how far apart heads' patterns are, on the trained
//! encoder and its random-weight baseline.
//!
//! ```text
//! sink       max_j mean_{i ≥ 1} α_ij per sentence: the token that receives most of the
//!            head's weight, named by what it is ([CLS], [SEP], punctuation, a word)
//! JS(p, q) = ½ KL(p ‖ m) + ½ KL(q ‖ m),  m = (p + q)/2   (bits, per query row)
//! ```

use nalgebra::DMatrix;

use crate::pretrained::corpus::{Run, is_special};
use crate::pretrained::minilm::{HEADS, LAYERS};

/// Mean weight each head puts on the named patterns, over sentences and queries.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Patterns {
    /// `[layer·12 + head]`: mean `α_{i,i−1}` over queries `i ≥ 1` (the `[CLS]` row excluded).
    pub previous: Vec<f64>,
    /// Mean `α_{i,i+1}`.
    pub next: Vec<f64>,
    /// Mean `α_{i,n−1}`, the weight on `[SEP]`.
    pub sep: Vec<f64>,
    /// Mean over sentences of the most weight one token receives (mean over queries).
    pub sink: Vec<f64>,
    /// What that token is, counted over sentences: `[CLS, SEP, punctuation, word]`.
    pub sink_kind: Vec<[usize; 4]>,
    /// Each sentence's weights on its candidate sinks, for [`super::sinks`].
    pub sentences: Vec<SentenceSinks>,
    /// Mean Jensen–Shannon divergence (bits) between the patterns of two heads of the same layer.
    pub within: f64,
    /// … of two heads of different layers.
    pub across: f64,
}

/// One sentence's column weights, each a mean over queries `i ≥ 1`, per head `[layer·12 + head]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SentenceSinks {
    /// Tokens in the sentence, `[CLS]` and `[SEP]` included: uniform weight is `1/n`.
    pub n: usize,
    /// The most weight one token receives (the head's sink in this sentence).
    pub top: Vec<f64>,
    /// The weight on `[CLS]`.
    pub cls: Vec<f64>,
    /// The weight on `[SEP]`.
    pub sep: Vec<f64>,
    /// The most weight one punctuation token receives; `None` without punctuation.
    pub punct: Option<Vec<f64>>,
}

/// Jensen–Shannon divergence in bits between two distributions.
fn js(p: &[f64], q: &[f64]) -> f64 {
    let kl = |a: &[f64], m: &[f64]| -> f64 {
        a.iter()
            .zip(m)
            .filter(|(x, _)| **x > 0.0)
            .map(|(x, y)| x * (x / y).log2())
            .sum()
    };
    let m: Vec<f64> = p.iter().zip(q).map(|(a, b)| 0.5 * (a + b)).collect();
    0.5 * kl(p, &m) + 0.5 * kl(q, &m)
}

/// `0` `[CLS]`, `1` `[SEP]`, `2` punctuation, `3` a word.
pub fn sink_kind(token: &str) -> usize {
    match token {
        "[CLS]" => 0,
        "[SEP]" => 1,
        t if is_special(t) => 2,
        _ => 3,
    }
}

/// The names of [`sink_kind`]'s classes.
pub const SINK_KINDS: [&str; 4] = ["[CLS]", "[SEP]", "punctuation", "word"];

/// The named-pattern scores and head-to-head divergences over `runs`.
pub fn patterns(runs: &[Run]) -> Patterns {
    let heads = LAYERS * HEADS;
    let (mut prev, mut next, mut sep) = (vec![0.0; heads], vec![0.0; heads], vec![0.0; heads]);
    let (mut sink, mut kind) = (vec![0.0; heads], vec![[0; 4]; heads]);
    let (mut within, mut across, mut nw, mut na) = (0.0, 0.0, 0.0, 0.0);
    let mut sentences = Vec::with_capacity(runs.len());
    for run in runs {
        let n = run.n();
        let punct: Vec<usize> = (1..n - 1)
            .filter(|&j| sink_kind(&run.tokens[j]) == 2)
            .collect();
        let mut one = SentenceSinks {
            n,
            top: vec![0.0; heads],
            cls: vec![0.0; heads],
            sep: vec![0.0; heads],
            punct: (!punct.is_empty()).then(|| vec![0.0; heads]),
        };
        let rows: Vec<&DMatrix<f64>> = (0..heads)
            .map(|k| &run.clean[k / HEADS].weights[0][k % HEADS])
            .collect();
        for (k, a) in rows.iter().enumerate() {
            let q = (n - 1) as f64 * runs.len() as f64;
            prev[k] += (1..n).map(|i| a[(i, i - 1)]).sum::<f64>() / q;
            next[k] += (0..n - 1).map(|i| a[(i, i + 1)]).sum::<f64>() / q;
            sep[k] += (1..n).map(|i| a[(i, n - 1)]).sum::<f64>() / q;
            // column means over queries i ≥ 1: the weight token j receives
            let (j, top) = (0..n)
                .map(|j| (j, (1..n).map(|i| a[(i, j)]).sum::<f64>() / (n - 1) as f64))
                .fold((0, f64::NEG_INFINITY), |b, c| if c.1 > b.1 { c } else { b });
            sink[k] += top / runs.len() as f64;
            kind[k][sink_kind(&run.tokens[j])] += 1;
            let column = |j: usize| (1..n).map(|i| a[(i, j)]).sum::<f64>() / (n - 1) as f64;
            (one.top[k], one.cls[k], one.sep[k]) = (top, column(0), column(n - 1));
            if let Some(p) = one.punct.as_mut() {
                p[k] = punct.iter().map(|&j| column(j)).fold(0.0, f64::max);
            }
        }
        sentences.push(one);
        for a in 0..heads {
            for b in a + 1..heads {
                let d: f64 = (0..n)
                    .map(|i| {
                        let r = |m: &DMatrix<f64>| m.row(i).iter().cloned().collect::<Vec<_>>();
                        js(&r(rows[a]), &r(rows[b]))
                    })
                    .sum::<f64>()
                    / n as f64;
                if a / HEADS == b / HEADS {
                    (within, nw) = (within + d, nw + 1.0);
                } else {
                    (across, na) = (across + d, na + 1.0);
                }
            }
        }
    }
    Patterns {
        previous: prev,
        next,
        sep,
        sink,
        sink_kind: kind,
        sentences,
        within: within / nw,
        across: across / na,
    }
}
