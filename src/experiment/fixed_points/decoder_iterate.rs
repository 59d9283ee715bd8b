//! One decoder block applied again and again to its own output, from the
//! real stream that enters it: does SmolLM2's block converge, as chapter 5
//! asks of the encoder's layers?
//!
//! ```text
//! Z_0 = h_l (the stream entering block l),   Z_{k+1} = B_l(Z_k) = Z_k + a(rms Z_k) + f(rms(·))
//! update_k     = ‖Z_{k+1} − Z_k‖ / ‖Z_k‖                       the iterate itself
//! normalised_k = ‖u(Z_{k+1}) − u(Z_k)‖ / ‖u(Z_k)‖,  u = rows / rms(row)   what the block reads
//! ```
//!
//! Pre-LN makes the write `B_l(Z) − Z` depend on each row's direction
//! only, so the iterate can grow without bound while its relative update
//! falls like 1/k: a shrinking update of the iterate is not yet a fixed
//! point. The normalised iterate is what the block sees; it stops moving
//! only if the direction settles. The first token carries the sink's
//! massive activation and dominates a norm over all rows, so every series is
//! also taken over the other rows. The random-weight decoder is the null.
//!
//! Introduced in chapter 5.

use std::sync::OnceLock;

use nalgebra::DMatrix;

use crate::experiment::cache;
use crate::experiment::relations::trained::pairs;
use crate::fixed_point::residual;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::smollm2::forward::block;

/// Which sentences and how many steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The first context sentences iterated on.
    pub sentences: usize,
    /// Applications of one block.
    pub steps: usize,
}

/// The size the book reports: as many sentences and steps as for the encoder.
pub const BOOK: Setup = Setup {
    sentences: super::trained::BOOK.iterate_sentences,
    steps: super::trained::BOOK.steps,
};

/// What a step's size is measured on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measured {
    /// The iterate, every row.
    Iterate,
    /// The iterate, every row but the first.
    IterateLater,
    /// The rms-normalised iterate, every row but the first.
    NormalisedLater,
}

impl Measured {
    pub const ALL: [Measured; 3] = [
        Measured::Iterate,
        Measured::IterateLater,
        Measured::NormalisedLater,
    ];
}

/// One block iterated on one sentence: `steps[m][k]` for each [`Measured`] `m`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Loop {
    pub steps: Vec<Vec<f64>>,
}

impl Loop {
    /// The size of the last step, measured as `m`.
    pub fn last(&self, m: Measured) -> f64 {
        let i = Measured::ALL
            .iter()
            .position(|&x| x == m)
            .expect("a series");
        *self.steps[i].last().expect("steps > 0")
    }
}

/// Each row divided by its root mean square (no gain).
///
/// # Shapes
/// `(n, d)` → `(n, d)`.
fn unit_rms(z: &DMatrix<f64>) -> DMatrix<f64> {
    let mut u = z.clone();
    for mut row in u.row_iter_mut() {
        let rms = (row.norm_squared() / row.len() as f64).sqrt();
        row /= rms;
    }
    u
}

/// Iterate `f` from `z0` for `steps` steps and record every [`Measured`] step size.
pub fn iterate(z0: &DMatrix<f64>, steps: usize, f: impl Fn(&DMatrix<f64>) -> DMatrix<f64>) -> Loop {
    let later = |z: &DMatrix<f64>| z.rows(1, z.nrows() - 1).into_owned();
    let mut z = z0.clone();
    let mut out = vec![Vec::with_capacity(steps); Measured::ALL.len()];
    for _ in 0..steps {
        let next = f(&z);
        out[0].push(residual(&next, &z));
        out[1].push(residual(&later(&next), &later(&z)));
        out[2].push(residual(&unit_rms(&later(&next)), &unit_rms(&later(&z))));
        z = next;
    }
    Loop { steps: out }
}

/// One model's loops: `blocks[l][sentence]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    pub blocks: Vec<Vec<Loop>>,
}

impl ModelFindings {
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let m = model.smollm2();
        let p = pairs();
        let states: Vec<Vec<DMatrix<f64>>> = p
            .iter()
            .take(setup.sentences)
            .map(|p| {
                m.run(&m.encode(&p.a).unwrap_or_else(|e| panic!("{e}")).ids)
                    .states()
            })
            .collect();
        let blocks = crate::parallel::map(0..m.config.n_layer as u64, |l| {
            let l = l as usize;
            let f = |z: &DMatrix<f64>| block(&m.weights, l, &z.map(|v| v as f32)).map(f64::from);
            states
                .iter()
                .map(|s| iterate(&s[l], setup.steps, f))
                .collect()
        });
        ModelFindings { blocks }
    }

    /// Mean over sentences and the blocks in `range` of the last step's size.
    pub fn last(&self, m: Measured, range: std::ops::Range<usize>) -> f64 {
        let all: Vec<f64> = self.blocks[range]
            .iter()
            .flatten()
            .map(|lp| lp.last(m))
            .collect();
        crate::stats::mean(&all)
    }
}

/// The decoder's iterated blocks, trained and random.
pub type Findings = ByModel<ModelFindings>;

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| {
        cache::load_or_run(module_path!(), &BOOK, || {
            ByModel::run(|model| ModelFindings::run(model, BOOK))
        })
    })
}

/// A setting of the decoder under which `ch05.trained-layer-converges` is asked.
struct Choice {
    label: &'static str,
    measured: Measured,
    blocks: std::ops::Range<usize>,
}

const CHOICES: [Choice; 5] = [
    Choice {
        label: "model: SmolLM2-135M-Instruct, pre-RMSNorm: each of its 30 blocks iterated on its own input, Z ↦ Z + f(rms Z); step: ‖ΔZ‖/‖Z‖",
        measured: Measured::Iterate,
        blocks: 0..30,
    },
    Choice {
        label: "model: SmolLM2-135M-Instruct, every row but the first (the sink's massive activation)",
        measured: Measured::IterateLater,
        blocks: 0..30,
    },
    Choice {
        label: "model: SmolLM2-135M-Instruct, step measured on the rms-normalised iterate (what the block reads), every row but the first",
        measured: Measured::NormalisedLater,
        blocks: 0..30,
    },
    Choice {
        label: "model: SmolLM2-135M-Instruct, blocks 1–10 only",
        measured: Measured::Iterate,
        blocks: 0..10,
    },
    Choice {
        label: "model: SmolLM2-135M-Instruct, blocks 21–30 only",
        measured: Measured::Iterate,
        blocks: 20..30,
    },
];

/// `claim` (chapter 5's iterated layer) asked of the decoder under every [`CHOICES`] entry.
pub fn with_decoder(claim: crate::claim::Claim) -> crate::claim::Claim {
    let f = book();
    CHOICES.iter().fold(claim, |claim, c| {
        claim.under(
            c.label,
            vec![crate::claim::Test::below(
                format!(
                    "SmolLM2 trained: step size after step {} (random decoder: {})",
                    BOOK.steps,
                    crate::measure::fixed(f.random.last(c.measured, c.blocks.clone()), 3)
                ),
                f.trained.last(c.measured, c.blocks.clone()),
                0.01,
                2,
            )],
        )
    })
}

/// The numbers the prose quotes (keys `tr_dec_iter_…`).
pub fn measures() -> Vec<crate::measure::Measure> {
    use crate::measure::{Measure, fixed};
    let f = book();
    let mut m = vec![
        Measure::new("tr_dec_iter_sentences", BOOK.sentences.to_string()),
        Measure::new("tr_dec_iter_steps", BOOK.steps.to_string()),
    ];
    for model in Model::BOTH {
        let (r, name) = (f.model(model), model.name());
        for (key, measured) in [
            ("iterate", Measured::Iterate),
            ("later", Measured::IterateLater),
            ("normalised", Measured::NormalisedLater),
        ] {
            m.push(Measure::new(
                format!("tr_dec_iter_{key}_{name}"),
                fixed(r.last(measured, 0..r.blocks.len()), 2),
            ));
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_block_is_the_models_layer() {
        let m = Model::Trained.smollm2();
        let ids = m.encode("The cat sat on the mat.").unwrap().ids;
        let s = m.run(&ids).states();
        let once = block(&m.weights, 4, &s[4].map(|v| v as f32)).map(f64::from);
        assert!((once - &s[5]).abs().max() < 1e-3 * s[5].abs().max());
        let f = book();
        assert_eq!(f.trained.blocks.len(), 30);
    }
}
