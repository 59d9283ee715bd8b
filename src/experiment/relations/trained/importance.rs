//! Rollout against raw attention as Abnar & Zuidema (2020) measured it and as
//! the book does, on one footing: every choice a referee would vary —
//! the counterfactual that removes a token, the target whose change is its
//! importance, and the token set the correlation runs over — measured on
//! the same sentences.
//!
//! ```text
//! importance of token j for target t:  ‖t(x) − t(x with token j removed)‖
//! relation of t to j:                  raw   = A_6[t, j]       (head mean, last layer)
//!                                      rollout = R[t, j],  R = (½I + ½A_6) ⋯ (½I + ½A_1)
//!                                      flow    = F[t, j],  max flow through the same M_l
//! agreement:                           Spearman ρ over the keys j
//! ```

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use super::flow::flow;
use super::{Clean, Sentence, ablations};
use crate::pretrained::corpus::pooled;
use crate::pretrained::intervention::run_parts;
use crate::pretrained::minilm::forward::embed;
use crate::pretrained::minilm::{HEADS, LAYERS, Minilm, Weights};
use crate::relation::rollout;
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
}

impl Counterfactual {
    pub const ALL: [Counterfactual; 4] = [
        Counterfactual::Mean,
        Counterfactual::Zero,
        Counterfactual::Unk,
        Counterfactual::Mask,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Counterfactual::Mean => "mean ablation",
            Counterfactual::Zero => "zero ablation",
            Counterfactual::Unk => "blank-out by [UNK]",
            Counterfactual::Mask => "blank-out by [MASK]",
        }
    }
}

/// Whose change measures a token's importance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// Each word's final state (rows: the words, keys `j ≠ i`); the book's default.
    Words,
    /// The `[CLS]` token's final state (Abnar & Zuidema's target).
    Cls,
    /// The mean-pooled sentence vector (what all-MiniLM-L6-v2 outputs); its
    /// relation to `j` is the mean over rows of `A[·, j]`.
    Pooled,
}

impl Target {
    pub const ALL: [Target; 3] = [Target::Words, Target::Cls, Target::Pooled];

    pub fn name(self) -> &'static str {
        match self {
            Target::Words => "each word's final state",
            Target::Cls => "the [CLS] final state",
            Target::Pooled => "the mean-pooled sentence vector",
        }
    }
}

/// Which tokens the correlation runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Keys {
    /// Every token (for the word target: every token but the word itself).
    All,
    /// Without the sinks found in the data ([`sinks`]).
    NoSinks,
}

impl Keys {
    pub const ALL: [Keys; 2] = [Keys::All, Keys::NoSinks];

    pub fn name(self) -> &'static str {
        match self {
            Keys::All => "all tokens",
            Keys::NoSinks => "without the sinks found in the data",
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
    /// Attention flow ([`flow`]), Abnar & Zuidema's second measure.
    pub flow: f64,
    /// The objects alone: cosine similarity of the target's and the key's embeddings `h_0`.
    pub object: f64,
}

/// What one sentence measures under every setting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Importance {
    pub cells: Vec<Cell>,
    /// The sinks found in this sentence, as tokens.
    pub sinks: Vec<String>,
    /// Heads (of 72) with a sink.
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

/// The sinks of one run: every token that receives more than [`SINK_SHARE`]
/// of some head's weight, averaged over the head's query rows; and how many
/// of the heads have one.
pub fn sinks(clean: &Clean) -> (Vec<usize>, usize) {
    let mut found = Vec::new();
    let mut heads = 0;
    for a in clean.heads.iter().flatten() {
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

/// The token id `[UNK]` or `[MASK]` encodes to.
fn special_id(token: &str) -> u32 {
    let e = Minilm::shared().tokenizer.encode(token);
    assert_eq!(e.len(), 3, "'{token}' must encode as one token");
    e.ids[1]
}

/// `n` copies of the embedded input, copy `j` with token `j` removed by `c`.
///
/// # Shapes
/// `ids: n` → `(n·n, 384)`.
pub fn variants(w: &Weights, ids: &[u32], x0: &DMatrix<f64>, c: Counterfactual) -> DMatrix<f64> {
    let n = ids.len();
    match c {
        Counterfactual::Mean => ablations(x0),
        Counterfactual::Zero => {
            let mut stack = DMatrix::zeros(n * n, x0.ncols());
            for j in 0..n {
                stack.rows_mut(j * n, n).copy_from(x0);
                stack.row_mut(j * n + j).fill(0.0);
            }
            stack
        }
        Counterfactual::Unk | Counterfactual::Mask => {
            let id = special_id(if c == Counterfactual::Unk {
                "[UNK]"
            } else {
                "[MASK]"
            });
            let mut stack = DMatrix::zeros(n * n, x0.ncols());
            for j in 0..n {
                let mut blank = ids.to_vec();
                blank[j] = id;
                stack.rows_mut(j * n, n).copy_from(&embed(w, &blank));
            }
            stack
        }
    }
}

/// Spearman ρ of a relation's row with an importance row over `keys`.
fn rho(relation: &[f64], importance: &[f64], keys: &[usize]) -> f64 {
    let pick = |v: &[f64]| keys.iter().map(|&j| v[j]).collect::<Vec<_>>();
    spearman(&pick(relation), &pick(importance))
}

/// Measure one sentence under every setting.
pub fn importance(w: &Weights, s: &Sentence, counterfactuals: &[Counterfactual]) -> Importance {
    let ids = &s.ids;
    let clean = Clean::run(w, ids);
    let n = ids.len();
    let (sink, sink_heads) = sinks(&clean);
    let raw = clean.mean_attention(LAYERS - 1);
    let means: Vec<DMatrix<f64>> = (0..LAYERS).map(|l| clean.mean_attention(l)).collect();
    let (roll, flows) = (rollout(&means), flow(&means));
    let h = &clean.states[LAYERS];
    // the raw geometry of the objects: cos(h_0(i), h_0(j)), and for the pooled target the mean row
    let x0 = &clean.states[0];
    let unit = |i: usize| x0.row(i).normalize();
    let x0_mean = x0.row_mean().normalize();
    let similarity = DMatrix::from_fn(n, n, |i, j| unit(i).dot(&unit(j)));
    let pooled_similarity: Vec<f64> = (0..n).map(|j| x0_mean.dot(&unit(j))).collect();
    let row = |m: &DMatrix<f64>, i: usize| m.row(i).iter().copied().collect::<Vec<f64>>();
    let column_mean = |m: &DMatrix<f64>| m.row_mean().iter().copied().collect::<Vec<f64>>();
    let key_set = |k: Keys, skip: Option<usize>| -> Vec<usize> {
        (0..n)
            .filter(|&j| Some(j) != skip && (k == Keys::All || !sink.contains(&j)))
            .collect()
    };
    let words: Vec<usize> = (1..n - 1).collect();
    let mut cells = Vec::new();
    for &c in counterfactuals {
        let stack = variants(w, ids, &clean.states[0], c);
        let out = &run_parts(w, 0, stack, n, &vec![vec![]; n])[LAYERS - 1].output;
        // effect[(i, j)] = ‖h_6(i) − h_6(i | token j removed)‖
        let effect = DMatrix::from_fn(n, n, |i, j| (h.row(i) - out.row(j * n + i)).norm());
        let clean_pooled = pooled(h);
        let pooled_effect: Vec<f64> = (0..n)
            .map(|j| (pooled(&out.rows(j * n, n).into_owned()) - &clean_pooled).norm())
            .collect();
        for t in Target::ALL {
            for k in Keys::ALL {
                let (r_raw, r_roll, r_flow, r_object) = match t {
                    Target::Words => {
                        let per_row = |rel: &DMatrix<f64>| {
                            let rhos: Vec<f64> = words
                                .iter()
                                .map(|&i| rho(&row(rel, i), &row(&effect, i), &key_set(k, Some(i))))
                                .collect();
                            mean(&rhos)
                        };
                        (
                            per_row(&raw),
                            per_row(&roll),
                            per_row(&flows),
                            per_row(&similarity),
                        )
                    }
                    Target::Cls => {
                        let keys = key_set(k, None);
                        let e = row(&effect, 0);
                        (
                            rho(&row(&raw, 0), &e, &keys),
                            rho(&row(&roll, 0), &e, &keys),
                            rho(&row(&flows, 0), &e, &keys),
                            rho(&row(&similarity, 0), &e, &keys),
                        )
                    }
                    Target::Pooled => {
                        let keys = key_set(k, None);
                        (
                            rho(&column_mean(&raw), &pooled_effect, &keys),
                            rho(&column_mean(&roll), &pooled_effect, &keys),
                            rho(&column_mean(&flows), &pooled_effect, &keys),
                            rho(&pooled_similarity, &pooled_effect, &keys),
                        )
                    }
                };
                cells.push(Cell {
                    counterfactual: c,
                    target: t,
                    keys: k,
                    raw: r_raw,
                    rollout: r_roll,
                    flow: r_flow,
                    object: r_object,
                });
            }
        }
    }
    debug_assert!(sink_heads <= LAYERS * HEADS);
    Importance {
        cells,
        sinks: sink.iter().map(|&j| s.tokens[j].clone()).collect(),
        sink_heads,
    }
}
