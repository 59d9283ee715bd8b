//! The attention explorer's data: for each sentence, every layer's and
//! head's attention weights and carried norms, as the book's explorer page
//! and `attention-geometry attend "TEXT" --out FILE.html` show them.
//!
//! ```text
//! weight   α_ij                     query i's weight on key j (a row sums to 1)
//! f_j      f(x_j) = v_j W_O,h       key j's value carried through head h's slice of W_O
//! carried  ‖α_ij f(x_j)‖ = α_ij ‖f_j‖   what key j writes into query i's stream
//!                                   (Kobayashi et al. 2020's norm-based analysis)
//! ```
//!
//! Rows are kept as far as the mask lets a query see: every key in the
//! encoder, keys `0..=i` in the decoder (the rest are zero). Every number is
//! rounded to [`DECIMALS`] decimals, which keeps the JSON of the book's
//! sentences small enough for a page.
//!
//! Introduced with the explorer (appendix).

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use super::corpus::Model;
use super::transformer::{Architecture, Mask, Transformer};

/// Decimals kept of every weight and norm.
pub const DECIMALS: i32 = 4;

/// One head of one layer for one sentence.
///
/// # Shapes
/// `weights`, `carried`: one row per query `i`, of length `n` (bidirectional)
/// or `i + 1` (causal).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadView {
    /// `α_ij`, rounded.
    pub weights: Vec<Vec<f64>>,
    /// `‖α_ij f(x_j)‖`, rounded.
    pub carried: Vec<Vec<f64>>,
}

/// One sentence run through one model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentenceView {
    /// The text as given.
    pub text: String,
    /// The tokens as the vocabulary spells them (`[CLS]`, `Ġcat`, `##ing`).
    pub tokens: Vec<String>,
    /// `layers[l][h]`: head `h` of layer `l`.
    pub layers: Vec<Vec<HeadView>>,
}

/// One model and the sentences it was run on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelView {
    /// The command line's name (`minilm`, `smollm2`).
    pub key: String,
    /// The checkpoint's name.
    pub name: String,
    /// `bidirectional` or `causal`.
    pub mask: String,
    pub layers: usize,
    pub heads: usize,
    pub sentences: Vec<SentenceView>,
}

/// Decimals the live explorer keeps (`attention-geometry serve`), as many as
/// `attend --tsv` prints.
pub const LIVE_DECIMALS: i32 = 6;

/// `x` rounded to `decimals` decimals.
fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

/// The first `seen(i)` entries of each row of `m`, rounded to `decimals`.
fn rows(m: &DMatrix<f64>, seen: impl Fn(usize) -> usize, decimals: i32) -> Vec<Vec<f64>> {
    m.row_iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .take(seen(i))
                .map(|&x| round(x, decimals))
                .collect()
        })
        .collect()
}

/// `text` run through `model`: every layer's and head's weights and carried
/// norms, rounded to [`DECIMALS`].
///
/// # Errors
/// The tokenizer's one-line message if the text is longer than the model takes.
pub fn sentence(model: &dyn Transformer, text: &str) -> Result<SentenceView, String> {
    sentence_to(model, text, DECIMALS)
}

/// As [`sentence`], rounded to `decimals` decimals.
///
/// # Errors
/// As [`sentence`].
pub fn sentence_to(
    model: &dyn Transformer,
    text: &str,
    decimals: i32,
) -> Result<SentenceView, String> {
    let encoding = model.encode(text)?;
    let n = encoding.ids.len();
    let seen = |i: usize| match model.mask() {
        Mask::Bidirectional => n,
        Mask::Causal => i + 1,
    };
    let trace = model.run(&encoding.ids);
    let layers = trace
        .layers
        .iter()
        .map(|t| {
            t.heads
                .iter()
                .enumerate()
                .map(|(h, head)| {
                    // f: (n, d); ‖f_j‖ per key j
                    let f = model.value_out(t.layer, h, &head.v);
                    let size: Vec<f64> = f.row_iter().map(|r| r.norm()).collect();
                    // carried_ij = α_ij ‖f_j‖
                    let carried = DMatrix::from_fn(n, n, |i, j| head.weights[(i, j)] * size[j]);
                    HeadView {
                        weights: rows(&head.weights, seen, decimals),
                        carried: rows(&carried, seen, decimals),
                    }
                })
                .collect()
        })
        .collect();
    Ok(SentenceView {
        text: text.to_string(),
        tokens: encoding.tokens,
        layers,
    })
}

/// Each model's trained weights run on its texts, the sentences in parallel.
///
/// # Errors
/// As [`sentence`], naming the model.
pub fn views(runs: &[(Architecture, Vec<String>)]) -> Result<Vec<ModelView>, String> {
    // one job per (model, sentence), in order
    let jobs: Vec<(Architecture, &String)> = runs
        .iter()
        .flat_map(|(arch, texts)| texts.iter().map(move |t| (*arch, t)))
        .collect();
    let mut done = crate::parallel::map(0..jobs.len() as u64, |k| {
        let (arch, text) = jobs[k as usize];
        sentence(arch.with(Model::Trained), text).map_err(|e| format!("{}: {e}", arch.name()))
    })
    .into_iter();
    runs.iter()
        .map(|(arch, texts)| {
            let sentences = done.by_ref().take(texts.len()).collect::<Result<_, _>>()?;
            Ok(ModelView::of(*arch, sentences))
        })
        .collect()
}

impl ModelView {
    /// `arch`'s trained checkpoint described, with `sentences`.
    pub fn of(arch: Architecture, sentences: Vec<SentenceView>) -> ModelView {
        let model = arch.with(Model::Trained);
        ModelView {
            key: arch.name().to_string(),
            name: model.name().to_string(),
            mask: match model.mask() {
                Mask::Bidirectional => "bidirectional",
                Mask::Causal => "causal",
            }
            .to_string(),
            layers: model.layers(),
            heads: model.heads(),
            sentences,
        }
    }
}

/// The explorer's data as JSON: `{"models": [ModelView, …]}`, one per run.
///
/// ```
/// use attention_geometry::pretrained::explorer::json;
/// use attention_geometry::pretrained::transformer::Architecture;
/// let data = json(&[(Architecture::Minilm, vec!["The cat sat.".into()])]).unwrap();
/// assert!(data.starts_with(r#"{"models":[{"key":"minilm""#));
/// assert!(data.contains(r#""tokens":["[CLS]","the","cat","sat",".","[SEP]"]"#));
/// ```
///
/// # Errors
/// As [`views`].
pub fn json(runs: &[(Architecture, Vec<String>)]) -> Result<String, String> {
    #[derive(Serialize)]
    struct Data {
        models: Vec<ModelView>,
    }
    let data = Data {
        models: views(runs)?,
    };
    serde_json::to_string(&data).map_err(|e| format!("explorer data: {e}"))
}
