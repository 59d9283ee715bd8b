//! Rollout against raw attention as Abnar & Zuidema (2020) measured it and as
//! the book does, on one footing: every choice a referee would vary —
//! the counterfactual that removes a token, the target whose change is its
//! importance, and the token set the correlation runs over — measured on
//! the same sentences, written once over [`Transformer`] and asked of the
//! encoder and the decoder alike.
//!
//! ```text
//! importance of token j for target t:  ‖t(x) − t(x with token j removed)‖
//!                                      (next token: ½ Σ_v |p_v − p'_v|)
//! relation of t to j:                  raw   = A_L[t, j]       (head mean, last layer)
//!                                      rollout = R[t, j],  R = (½I + ½A_L) ⋯ (½I + ½A_1)
//!                                      flow    = F[t, j],  max flow through the same M_l
//!                                      without sinks, carried: see super::composite
//! agreement:                           Spearman ρ over the keys j
//! ```
//!
//! Where the two models differ in kind the mask decides ([`Target::of`]):
//! the encoder's targets are its states (each word, `[CLS]`, the pooled
//! vector), the decoder's the last token's state and the next token read
//! from it. The sink the key sets leave out is found in the data
//! ([`Keys::NoSinks`]: `[CLS]` and others in the encoder) or is the model's
//! sink position ([`Keys::NoFirst`]: the decoder's first token).

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use super::composite::{carried_mix, without_sinks};
use super::flow::flow_rows;
use crate::pretrained::bpe::Encoding;
use crate::pretrained::corpus::pooled;
use crate::pretrained::trace::{LayerTrace, Trace};
use crate::pretrained::transformer::{Mask, Transformer};
use crate::relation::{chain, rollout, total_variation};
use crate::stats::{mean, spearman};

/// How token `j` is removed from the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Counterfactual {
    /// Its embedding replaced by the sentence's mean embedding (the book's default).
    Mean,
    /// Its embedding set to zero.
    Zero,
    /// Its id replaced by `[UNK]`, then embedded (Abnar & Zuidema's blank-out).
    Unk,
    /// Its id replaced by `[MASK]`, then embedded.
    Mask,
    /// Its embedding scaled by `1 + ε` ([`STEP`]): the change is ε times
    /// input × gradient, `‖J_j x_j‖`, to first order (the ranks ignore ε).
    Gradient,
}

/// The step ε of [`Counterfactual::Gradient`]'s forward difference.
pub const STEP: f64 = 1e-4;

impl Counterfactual {
    pub const ALL: [Counterfactual; 5] = [
        Counterfactual::Mean,
        Counterfactual::Zero,
        Counterfactual::Unk,
        Counterfactual::Mask,
        Counterfactual::Gradient,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Counterfactual::Mean => "mean ablation",
            Counterfactual::Zero => "zero ablation",
            Counterfactual::Unk => "blank-out by [UNK]",
            Counterfactual::Mask => "blank-out by [MASK]",
            Counterfactual::Gradient => "input × gradient (forward difference)",
        }
    }
}

/// Whose change measures a token's importance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// Each word's final state (rows: the words, keys `j ≠ i`); the encoder's default.
    Words,
    /// The `[CLS]` token's final state (Abnar & Zuidema's target).
    Cls,
    /// The mean-pooled sentence vector (what all-MiniLM-L6-v2 outputs); its
    /// relation to `j` is the mean over rows of `A[·, j]`.
    Pooled,
    /// The last token's final state (keys `j ≠ n − 1`); the decoder's default.
    Last,
    /// The next-token distribution read from it, changed by total variation.
    Next,
}

impl Target {
    pub const ALL: [Target; 5] = [
        Target::Words,
        Target::Cls,
        Target::Pooled,
        Target::Last,
        Target::Next,
    ];

    /// The targets a model's mask admits. Bidirectional: every position reads
    /// every token, and the encoder outputs its states (pooled by
    /// sentence-transformers; `[CLS]` is Abnar & Zuidema's). Causal: only the
    /// last position reads every token, and the decoder outputs the next token
    /// read from it.
    pub fn of(mask: Mask) -> &'static [Target] {
        match mask {
            Mask::Bidirectional => &[Target::Words, Target::Cls, Target::Pooled],
            Mask::Causal => &[Target::Last, Target::Next],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Target::Words => "each word's final state",
            Target::Cls => "the [CLS] final state",
            Target::Pooled => "the mean-pooled sentence vector",
            Target::Last => "the last token's final state",
            Target::Next => "the next-token distribution (total variation)",
        }
    }
}

/// Which tokens the correlation runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Keys {
    /// Every token (for a token target: every token but the target itself).
    All,
    /// Without the sinks found in the data ([`sinks`]).
    NoSinks,
    /// Without the model's sink position ([`Transformer::sink`]: the first token).
    NoFirst,
}

impl Keys {
    pub const ALL: [Keys; 3] = [Keys::All, Keys::NoSinks, Keys::NoFirst];

    pub fn name(self) -> &'static str {
        match self {
            Keys::All => "all tokens",
            Keys::NoSinks => "without the sinks found in the data",
            Keys::NoFirst => "without the first token (the sink)",
        }
    }
}

/// One setting's agreement with the importance, for raw attention and rollout.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub counterfactual: Counterfactual,
    pub target: Target,
    pub keys: Keys,
    pub raw: f64,
    pub rollout: f64,
    /// Attention flow ([`flow`](super::flow::flow)), Abnar & Zuidema's second measure.
    pub flow: f64,
    /// Rollout of the attention with the sink columns removed ([`without_sinks`]).
    pub sinkless: f64,
    /// The composite of what each layer carries ([`carried_mix`]).
    pub carried: f64,
    /// The objects alone: cosine similarity of the target's and the key's embeddings `h_0`.
    pub object: f64,
}

/// What one sentence measures under every setting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Importance {
    pub cells: Vec<Cell>,
    /// The sinks found in this sentence, as tokens.
    pub sinks: Vec<String>,
    /// Heads (of layers × heads) with a sink.
    pub sink_heads: usize,
}

impl Importance {
    /// The cell of one setting, if it was measured on this sentence.
    pub fn cell(&self, c: Counterfactual, t: Target, k: Keys) -> Option<&Cell> {
        self.cells
            .iter()
            .find(|x| x.counterfactual == c && x.target == t && x.keys == k)
    }
}

/// Share of a head's weight, averaged over its query rows, that makes the
/// token receiving it a sink.
pub const SINK_SHARE: f64 = 0.5;

/// The sinks of one pass: every token that receives more than [`SINK_SHARE`]
/// of some head's weight, averaged over the head's query rows; and how many
/// of the heads have one.
pub fn sinks(trace: &Trace) -> (Vec<usize>, usize) {
    let mut found = Vec::new();
    let mut heads = 0;
    for a in trace
        .layers
        .iter()
        .flat_map(|l| l.heads.iter().map(|h| &h.weights))
    {
        // column means: the share of the head's weight each key receives
        let share = a.row_mean();
        let j = crate::stats::argmax(0..share.len(), |j| share[j]).expect("n > 0");
        if share[j] > SINK_SHARE {
            heads += 1;
            if !found.contains(&j) {
                found.push(j);
            }
        }
    }
    found.sort_unstable();
    (found, heads)
}

/// Layer `l`'s attention averaged over heads, `(n, n)`.
pub fn head_mean(t: &LayerTrace) -> DMatrix<f64> {
    let sum = t.heads[1..]
        .iter()
        .fold(t.heads[0].weights.clone(), |s, h| s + &h.weights);
    sum / t.heads.len() as f64
}

/// The one token id `token` encodes to in `m`'s vocabulary (`[UNK]`, `[MASK]`).
///
/// # Panics
/// If `token` is not one token between the encoder's `[CLS]` and `[SEP]`.
fn special_id(m: &dyn Transformer, token: &str) -> u32 {
    let e = m.encode(token).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(e.ids.len(), 3, "'{token}' must encode as one token");
    e.ids[1]
}

/// For each token `j`, the row that removes it from the embedded input `x0` under `c`.
///
/// # Shapes
/// `ids: n`, `x0: (n, d)` → `n` edits `(j, (d))`.
pub fn removals(
    m: &dyn Transformer,
    ids: &[u32],
    x0: &DMatrix<f64>,
    c: Counterfactual,
) -> Vec<(usize, DVector<f64>)> {
    let n = ids.len();
    let row = |r: DVector<f64>| (0..n).map(move |j| (j, r.clone()));
    match c {
        Counterfactual::Mean => row(x0.row_mean().transpose()).collect(),
        Counterfactual::Zero => row(DVector::zeros(x0.ncols())).collect(),
        Counterfactual::Gradient => (0..n)
            .map(|j| (j, x0.row(j).transpose() * (1.0 + STEP)))
            .collect(),
        Counterfactual::Unk | Counterfactual::Mask => {
            let id = special_id(
                m,
                if c == Counterfactual::Unk {
                    "[UNK]"
                } else {
                    "[MASK]"
                },
            );
            (0..n)
                .map(|j| {
                    let mut blank = ids.to_vec();
                    blank[j] = id;
                    // the embedding is row-wise: only row j changes
                    (j, m.embed(&blank).row(j).transpose())
                })
                .collect()
        }
    }
}

/// Spearman ρ of a relation's row with an importance row over `keys`.
fn rho(relation: &[f64], importance: &[f64], keys: &[usize]) -> f64 {
    let pick = |v: &[f64]| keys.iter().map(|&j| v[j]).collect::<Vec<_>>();
    spearman(&pick(relation), &pick(importance))
}

/// `½ Σ_v |p_v − q_v|` of two distributions.
fn distance(p: &[f64], q: &[f64]) -> f64 {
    let row = |v: &[f64]| DVector::from_column_slice(v).transpose();
    total_variation(&row(p), &row(q))
}

/// The query rows a target reads its relation from.
fn rows(t: Target, n: usize) -> Vec<usize> {
    match t {
        // every position but the encoder's [CLS] and [SEP] at either end
        Target::Words => (1..n - 1).collect(),
        Target::Cls => vec![0],
        Target::Pooled => (0..n).collect(),
        Target::Last | Target::Next => vec![n - 1],
    }
}

/// Measure one sentence under every setting its model admits ([`Target::of`]).
pub fn importance(
    m: &dyn Transformer,
    e: &Encoding,
    counterfactuals: &[Counterfactual],
) -> Importance {
    let ids = &e.ids;
    let trace = m.run(ids);
    let n = ids.len();
    let targets = Target::of(m.mask());
    let (sink, sink_heads) = sinks(&trace);
    let means: Vec<DMatrix<f64>> = trace.layers.iter().map(head_mean).collect();
    let raw = &means[means.len() - 1];
    let needed: Vec<usize> = (0..n)
        .filter(|i| targets.iter().any(|&t| rows(t, n).contains(i)))
        .collect();
    let (roll, flows) = (rollout(&means), flow_rows(&means, &needed));
    // the sinks found in the data and the model's own sink position
    let mut removed = sink.clone();
    removed.push(m.sink());
    let sinkless = rollout(
        &means
            .iter()
            .map(|a| without_sinks(a, &removed))
            .collect::<Vec<_>>(),
    );
    let carried = chain(
        &trace
            .layers
            .iter()
            .map(|t| carried_mix(m, t))
            .collect::<Vec<_>>(),
    );
    let h = &trace.output;
    // the raw geometry of the objects: cos(h_0(i), h_0(j)), and for the pooled target the mean row
    let x0 = &trace.layers[0].input;
    let unit = |i: usize| x0.row(i).normalize();
    let x0_mean = x0.row_mean().normalize();
    let similarity = DMatrix::from_fn(n, n, |i, j| unit(i).dot(&unit(j)));
    let pooled_similarity: Vec<f64> = (0..n).map(|j| x0_mean.dot(&unit(j))).collect();
    let row = |m: &DMatrix<f64>, i: usize| m.row(i).iter().copied().collect::<Vec<f64>>();
    let column_mean = |m: &DMatrix<f64>| m.row_mean().iter().copied().collect::<Vec<f64>>();
    let key_set = |k: Keys, skip: Option<usize>| -> Vec<usize> {
        (0..n)
            .filter(|&j| Some(j) != skip)
            .filter(|&j| match k {
                Keys::All => true,
                Keys::NoSinks => !sink.contains(&j),
                Keys::NoFirst => j != m.sink(),
            })
            .collect()
    };
    let read = |h: &DMatrix<f64>| m.next_token(&h.row(n - 1).transpose());
    let clean_next = targets.contains(&Target::Next).then(|| read(h)).flatten();
    let mut cells = Vec::new();
    for &c in counterfactuals {
        let outs = m.run_edits(x0, &removals(m, ids, x0, c));
        // effect[(i, j)] = ‖h_L(i) − h_L(i | token j removed)‖
        let effect = DMatrix::from_fn(n, n, |i, j| (h.row(i) - outs[j].row(i)).norm());
        for &t in targets {
            // per key j: the change of a whole-sentence target
            let whole: Vec<f64> = match t {
                Target::Pooled => {
                    let clean = pooled(h);
                    outs.iter().map(|o| (pooled(o) - &clean).norm()).collect()
                }
                Target::Next => {
                    let p = clean_next.as_ref().expect("a decoder reads the next token");
                    outs.iter()
                        .map(|o| distance(p, &read(o).expect("a decoder")))
                        .collect()
                }
                _ => Vec::new(),
            };
            for k in Keys::ALL {
                let agree = |rel: &DMatrix<f64>| -> f64 {
                    match t {
                        Target::Words => {
                            let rhos: Vec<f64> = rows(t, n)
                                .into_iter()
                                .map(|i| rho(&row(rel, i), &row(&effect, i), &key_set(k, Some(i))))
                                .collect();
                            mean(&rhos)
                        }
                        Target::Cls => rho(&row(rel, 0), &row(&effect, 0), &key_set(k, None)),
                        Target::Pooled => rho(&column_mean(rel), &whole, &key_set(k, None)),
                        Target::Last => rho(
                            &row(rel, n - 1),
                            &row(&effect, n - 1),
                            &key_set(k, Some(n - 1)),
                        ),
                        Target::Next => rho(&row(rel, n - 1), &whole, &key_set(k, Some(n - 1))),
                    }
                };
                let object = match t {
                    Target::Pooled => rho(&pooled_similarity, &whole, &key_set(k, None)),
                    _ => agree(&similarity),
                };
                cells.push(Cell {
                    counterfactual: c,
                    target: t,
                    keys: k,
                    raw: agree(raw),
                    rollout: agree(&roll),
                    flow: agree(&flows),
                    sinkless: agree(&sinkless),
                    carried: agree(&carried),
                    object,
                });
            }
        }
    }
    Importance {
        cells,
        sinks: sink.iter().map(|&j| e.tokens[j].clone()).collect(),
        sink_heads,
    }
}
