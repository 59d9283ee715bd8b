//! One layer's attention weights for a reader's own sentence: what
//! `attention-geometry attend` computes, prints as TSV, and hands to
//! `figures::attend` to draw.
//!
//! ```text
//! attention-geometry attend "TEXT" [--model minilm|smollm2] [--layer L] [--head H] [--out FILE.svg]
//! attention-geometry attend "TEXT" [--model minilm|smollm2] [--layer L] --head H --tsv
//! ```
//!
//! Layers and heads are 0-based, as in the checkpoints' keys: MiniLM's
//! `encoder.layer.{L}` (layers 0..=5, heads 0..=11), SmolLM2's `blk.{L}`
//! (layers 0..=29, heads 0..=8); the default layer is the last, the default
//! heads all. SmolLM2's rows are causal: zero past the diagonal.
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use super::transformer::Transformer;

/// The attention weights of some heads of one layer for one text.
///
/// # Shapes
/// `tokens: n`, each `heads[i].1: (n, n)`, queries as rows and keys as columns.
#[derive(Clone, Debug)]
pub struct AttentionMap {
    /// The model's name, e.g. `all-MiniLM-L6-v2`.
    pub model: &'static str,
    /// The tokens, `[CLS]` and `[SEP]` included, as the tokenizer gives them.
    pub tokens: Vec<String>,
    /// The layer.
    pub layer: usize,
    /// `(head, weights)` for each head shown, in head order.
    pub heads: Vec<(usize, DMatrix<f64>)>,
}

impl AttentionMap {
    /// Run `text` through `model` and keep layer `layer`'s weights of `head`
    /// (or all heads); tokens as the tokenizer gives them (`[CLS]`, `Ġcat`).
    ///
    /// ```
    /// use attention_geometry::pretrained::attention_map::AttentionMap;
    /// use attention_geometry::pretrained::minilm::Minilm;
    /// let map = AttentionMap::compute(Minilm::shared(), "The cat sat.", 5, Some(0)).unwrap();
    /// assert_eq!(map.tokens, ["[CLS]", "the", "cat", "sat", ".", "[SEP]"]);
    /// assert!((map.heads[0].1.row(2).sum() - 1.0).abs() < 1e-12);
    /// ```
    ///
    /// The decoder's map (tokens such as `Ġcat`, causal rows) is checked
    /// through the command line in `tests/models/cli.rs`.
    ///
    /// # Errors
    /// If the text has no token of its own (only `[CLS]` and `[SEP]`, or
    /// nothing) or more than the model takes.
    ///
    /// # Panics
    /// If `layer` or `head` is out of the model's range (the command line refuses both).
    pub fn compute(
        model: &dyn Transformer,
        text: &str,
        layer: usize,
        head: Option<usize>,
    ) -> Result<Self, String> {
        let encoding = model.encode(text)?;
        if encoding.tokens.iter().all(|t| t == "[CLS]" || t == "[SEP]") {
            return Err(
                "the text is empty after tokenisation (only [CLS] and [SEP]); give a sentence"
                    .into(),
            );
        }
        let trace = model.run(&encoding.ids);
        let weights = trace.layers[layer].heads.iter().map(|h| &h.weights);
        Ok(AttentionMap::keep(
            model.name(),
            encoding.tokens,
            layer,
            weights,
            head,
        ))
    }

    /// Keep `head`'s weights (or every head's) of one layer.
    fn keep<'a>(
        model: &'static str,
        tokens: Vec<String>,
        layer: usize,
        weights: impl Iterator<Item = &'a DMatrix<f64>>,
        head: Option<usize>,
    ) -> Self {
        let heads = weights
            .enumerate()
            .filter(|(h, _)| head.is_none_or(|only| only == *h))
            .map(|(h, w)| (h, w.clone()))
            .collect();
        AttentionMap {
            model,
            tokens,
            layer,
            heads,
        }
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
