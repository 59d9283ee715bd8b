//! The prompt as boundary condition: one word in two sentences, its state at
//! every depth and its strongest partner in every head, written once over
//! [`Transformer`] (in the decoder: the same word after two prefixes).

use super::Sentence;
use super::importance::sinks;
use crate::pretrained::transformer::{Mask, Transformer};
use crate::stats::argmax;

/// The role of token `j` as the strongest partner of token `i`.
pub fn partner(tokens: &[String], i: usize, j: usize) -> String {
    let t = tokens[j].as_str();
    match () {
        _ if t == "[CLS]" || t == "[SEP]" => t.into(),
        _ if j == i => "self".into(),
        _ if j + 1 == i => "previous".into(),
        _ if j == i + 1 => "next".into(),
        _ if t.chars().all(|c| c.is_ascii_punctuation()) => "punctuation".into(),
        _ => t.into(),
    }
}

/// The pair's word as one sentence shows it: its state at every depth and its
/// strongest partner in every head.
#[derive(Clone, Debug, PartialEq)]
pub struct WordView {
    /// `h_l(word)`, `l = 0 … L`.
    pub states: Vec<Vec<f64>>,
    /// `partners[l][h]`: the role of `argmax_j A^{l,h}[word, j]`.
    pub partners: Vec<Vec<String>>,
    /// The same with the sentence's sinks (found from the data) left out of
    /// the keys (`none` if the word sees nothing else, as early in a decoder).
    pub partners_no_sinks: Vec<Vec<String>>,
}

/// Run `m` on one sentence and read off its word.
pub fn word_view(m: &dyn Transformer, s: &Sentence) -> WordView {
    let trace = m.run(&s.ids);
    let states = trace
        .states()
        .iter()
        .map(|h| h.row(s.word).iter().cloned().collect())
        .collect();
    let (sinks, _) = sinks(&trace);
    // the keys the word's query sees: every one, or under a causal mask the earlier ones
    let seen = |j: usize| m.mask() == Mask::Bidirectional || j <= s.word;
    let strongest = |keys: &dyn Fn(usize) -> bool| -> Vec<Vec<String>> {
        trace
            .layers
            .iter()
            .map(|layer| {
                layer
                    .heads
                    .iter()
                    .map(|h| {
                        let r = h.weights.row(s.word);
                        argmax((0..r.len()).filter(|&j| seen(j) && keys(j)), |j| r[j])
                            .map_or("none".into(), |j| partner(&s.tokens, s.word, j))
                    })
                    .collect()
            })
            .collect()
    };
    WordView {
        states,
        partners: strongest(&|_| true),
        partners_no_sinks: strongest(&|j| !sinks.contains(&j)),
    }
}

/// `1 − cos(a, b)`.
pub fn cosine_distance(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    1.0 - dot / (norm(a) * norm(b))
}

/// How two views of a word differ: per depth `1 − cos`, per layer the share of heads whose partner changed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    /// `l = 0 … L`.
    pub state: Vec<f64>,
    /// Layers `0 … L − 1`.
    pub partner: Vec<f64>,
    /// The same with each sentence's sinks left out of the keys.
    pub partner_no_sinks: Vec<f64>,
}

/// Compare two word views.
pub fn change(x: &WordView, y: &WordView) -> Change {
    Change {
        state: x
            .states
            .iter()
            .zip(&y.states)
            .map(|(a, b)| cosine_distance(a, b))
            .collect(),
        partner: changed(&x.partners, &y.partners),
        partner_no_sinks: changed(&x.partners_no_sinks, &y.partners_no_sinks),
    }
}

/// Per layer, the share of heads whose partner differs.
fn changed(x: &[Vec<String>], y: &[Vec<String>]) -> Vec<f64> {
    x.iter()
        .zip(y)
        .map(|(p, q)| p.iter().zip(q).filter(|(a, b)| a != b).count() as f64 / p.len() as f64)
        .collect()
}
