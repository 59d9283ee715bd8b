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

use std::path::PathBuf;

use nalgebra::DMatrix;

use super::minilm::{HEADS, LAYERS, Minilm};

/// How `attend` is called.
pub const USAGE: &str =
    "attention-geometry attend \"TEXT\" [--layer L] [--head H] [--out FILE.svg | --tsv]";

/// Where `attend` writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// An SVG figure at this path (default `attend.svg` in the current directory).
    Svg(PathBuf),
    /// Tab-separated weights of one head on standard output.
    Tsv,
}

/// The parsed arguments of `attend`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttendArgs {
    /// The sentence.
    pub text: String,
    /// Layer, `0..6`.
    pub layer: usize,
    /// One head `0..12`, or all of them.
    pub head: Option<usize>,
    /// SVG or TSV.
    pub format: Format,
}

impl AttendArgs {
    /// Parse the arguments after `attend`.
    ///
    /// ```
    /// use attention_geometry::pretrained::attention_map::{AttendArgs, Format};
    /// let args: Vec<String> = ["a b", "--head", "3", "--tsv"].map(String::from).into();
    /// let a = AttendArgs::parse(&args).unwrap();
    /// assert_eq!((a.layer, a.head, a.format), (5, Some(3), Format::Tsv));
    /// assert!(AttendArgs::parse(&["x".into(), "--layer".into(), "6".into()]).is_err());
    /// ```
    ///
    /// # Errors
    /// One line naming the problem and what is valid: no text or more than one, an
    /// empty text, an unknown or repeated option, a missing value, a layer or head out
    /// of range, `--tsv` without `--head` or with `--out`.
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let (mut texts, mut layer, mut head, mut out, mut tsv) =
            (Vec::new(), None, None, None, false);
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |slot_taken: bool| match (slot_taken, it.next()) {
                (true, _) => Err(format!("{a} given twice; {USAGE}")),
                (false, Some(v)) => Ok(v.clone()),
                (false, None) => Err(format!("{a} needs a value; {USAGE}")),
            };
            match a.as_str() {
                "--layer" => {
                    layer = Some(index(
                        &value(layer.is_some())?,
                        "--layer",
                        "layers",
                        LAYERS,
                    )?)
                }
                "--head" => head = Some(index(&value(head.is_some())?, "--head", "heads", HEADS)?),
                "--out" => out = Some(PathBuf::from(value(out.is_some())?)),
                "--tsv" => tsv = true,
                o if o.starts_with("--") => {
                    return Err(format!(
                        "unknown option '{o}'; attend takes --layer L, --head H, --out FILE.svg, --tsv"
                    ));
                }
                text => texts.push(text.to_string()),
            }
        }
        let text = match texts.as_slice() {
            [t] => t.clone(),
            [] => return Err(format!("attend needs a TEXT; {USAGE}")),
            _ => {
                return Err(format!(
                    "attend takes one TEXT, got {} ({}); quote the sentence",
                    texts.len(),
                    texts.join(" | ")
                ));
            }
        };
        if text.trim().is_empty() {
            return Err(
                "the text is empty; give a sentence, e.g. attend \"The cat sat on the mat.\""
                    .into(),
            );
        }
        let format = match (tsv, out, head) {
            (true, Some(_), _) => return Err("--tsv prints to standard output; drop --out".into()),
            (true, None, None) => {
                return Err(format!(
                    "--tsv prints one head; add --head H (0..={})",
                    HEADS - 1
                ));
            }
            (true, None, Some(_)) => Format::Tsv,
            (false, out, _) => Format::Svg(out.unwrap_or_else(|| PathBuf::from("attend.svg"))),
        };
        Ok(AttendArgs {
            text,
            layer: layer.unwrap_or(LAYERS - 1),
            head,
            format,
        })
    }
}

/// `value` as an index below `count`, or an error naming the valid range.
fn index(value: &str, flag: &str, what: &str, count: usize) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&i| i < count)
        .ok_or_else(|| {
            format!(
                "{flag} {value} is out of range; {what} are 0..={} (0-based, as in the checkpoint)",
                count - 1
            )
        })
}

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
    /// If `layer ≥ 6` or `head ≥ 12` (the arguments' parser refuses both).
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
