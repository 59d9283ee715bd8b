//! One layer's attention weights for a reader's own sentence: what
//! `attention-geometry attend` computes, prints as TSV, and hands to
//! `figures::attend` to draw.
//!
//! ```text
//! attention-geometry attend "TEXT" [--layer L] [--head H] [--out FILE.svg]
//! attention-geometry attend "TEXT" [--layer L] --head H --tsv
//! ```
//!
//! Layers and heads are 0-based, as in the checkpoint's keys
//! (`encoder.layer.{L}`, rows `H·32..(H+1)·32`): layers 0..=5 (default 5, the last),
//! heads 0..=11 (default: all twelve).
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use super::minilm::{HEADS, Minilm};

/// The attention weights of some heads of one layer for one text.
///
/// # Shapes
/// `tokens: n`, each `heads[i].1: (n, n)`, queries as rows and keys as columns.
#[derive(Clone, Debug)]
pub struct AttentionMap {
    /// The tokens, `[CLS]` and `[SEP]` included, as the tokenizer gives them.
    pub tokens: Vec<String>,
    /// The layer, `0..6`.
    pub layer: usize,
    /// `(head, weights)` for each head shown, in head order.
    pub heads: Vec<(usize, DMatrix<f64>)>,
}

impl AttentionMap {
    /// Run `text` through the model and keep layer `layer`'s weights of `head` (or all heads).
    ///
    /// ```
    /// use attention_geometry::pretrained::{attention_map::AttentionMap, minilm::Minilm};
    /// let map = AttentionMap::compute(Minilm::shared(), "The cat sat.", 5, Some(0)).unwrap();
    /// assert_eq!(map.tokens, ["[CLS]", "the", "cat", "sat", ".", "[SEP]"]);
    /// assert!((map.heads[0].1.row(2).sum() - 1.0).abs() < 1e-12);
    /// ```
    ///
    /// # Errors
    /// If the text has no tokens besides `[CLS]` and `[SEP]`, or more than 512 in all.
    ///
    /// # Panics
    /// If `layer ≥ 6` or `head ≥ 12` (the command line refuses both).
    pub fn compute(
        model: &Minilm,
        text: &str,
        layer: usize,
        head: Option<usize>,
    ) -> Result<Self, String> {
        let encoding = model.encode(text).map_err(|e| e.to_string())?;
        if encoding.len() <= 2 {
            return Err(
                "the text is empty after tokenisation (only [CLS] and [SEP]); give a sentence"
                    .into(),
            );
        }
        let trace = model.run(&encoding.ids);
        let heads = (0..HEADS)
            .filter(|h| head.is_none_or(|only| only == *h))
            .map(|h| (h, trace.layers[layer].heads[h].weights.clone()))
            .collect();
        Ok(AttentionMap {
            tokens: encoding.tokens,
            layer,
            heads,
        })
    }

    /// The tokens on the first line, then one line of weights (6 decimals) per query,
    /// all tab-separated, for the first head held.
    ///
    /// # Panics
    /// If the map holds no head.
    pub fn tsv(&self) -> String {
        let w = &self.heads[0].1;
        let mut out = self.tokens.join("\t");
        out.push('\n');
        for row in w.row_iter() {
            let cells: Vec<String> = row.iter().map(|x| format!("{x:.6}")).collect();
            out.push_str(&cells.join("\t"));
            out.push('\n');
        }
        out
    }
}
