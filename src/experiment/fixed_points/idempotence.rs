//! Chapter 5, trained: is a block's output a fixed point of the same block?
//! No trained layer was trained to be iterated, and a pre-norm block
//! `Z + f(rms Z)` has fixed points only where its write `f` vanishes, so
//! iterating a block tests the architecture. Idempotence asks what was
//! learned: apply each block once more to its own output, and re-pass the
//! decoder's final state through its last blocks; both models against their
//! random twins, on the same sentences.
//!
//! ```text
//! ratio_l(s) = ‖B_l(h_{l+1}) − h_{l+1}‖ / ‖h_{l+1} − h_l‖     h_{l+1} = B_l(h_l), Frobenius over s's rows
//! kept_k(s)  = share of s's positions i with top1(B_{L−1} ∘ ⋯ ∘ B_{L−k}(h_L))_i = top1(h_L)_i
//! ```
//!
//! A fixed point of `B_l` gives `ratio = 0`; a contraction by `c` gives
//! `ratio ≤ c`, and eight applications reach 1% only if `c ≤ 0.01^{1/8} ≈ 0.56`.

pub mod verdict;

pub use verdict::{claim, measures};

use nalgebra::DMatrix;

use super::logit_lens::lens_top1;
use crate::experiment::relations::trained::contexts;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::transformer::{Architecture, ByArch};
use crate::stats::Summary;

/// How many sentences and how many of the decoder's last blocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Context sentences, the stream's.
    pub sentences: usize,
    /// The decoder's output re-passed through its last `1 ..= tail` blocks.
    pub tail: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    sentences: 20,
    tail: 3,
};

/// The contraction rate at which eight applications reach 1%: `0.01^{1/8}`.
pub fn rate_for_eight_steps() -> f64 {
    0.01f64.powf(1.0 / 8.0)
}

/// One model's findings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    /// `ratio[l][s]`: block `l` re-applied to its output on sentence `s`, every row.
    pub ratio: Vec<Vec<f64>>,
    /// The same over rows `1..` (the first token's row left out).
    pub later: Vec<Vec<f64>>,
    /// `kept[k − 1][s]`: the decoder's output re-passed through its last `k`
    /// blocks, share of sentence `s`'s positions whose top-1 is kept; empty
    /// for the encoder.
    pub kept: Vec<Vec<f64>>,
}

/// `‖b2 − b‖ / ‖b − z‖` over rows `from..`.
fn ratio(z: &DMatrix<f64>, b: &DMatrix<f64>, b2: &DMatrix<f64>, from: usize) -> f64 {
    let n = z.nrows() - from;
    (b2.rows(from, n) - b.rows(from, n)).norm() / (b.rows(from, n) - z.rows(from, n)).norm()
}

impl ModelFindings {
    pub fn run(arch: Architecture, model: Model, setup: Setup) -> ModelFindings {
        let m = arch.with(model);
        let layers = m.layers();
        let decoder = arch == Architecture::Smollm2;
        let texts = &contexts()[..setup.sentences];
        let per = crate::parallel::map(0..texts.len() as u64, |s| {
            let ids = m
                .encode(&texts[s as usize])
                .unwrap_or_else(|e| panic!("{e}"))
                .ids;
            let h = m.run(&ids).states();
            let (mut all, mut later) = (Vec::new(), Vec::new());
            for l in 0..layers {
                let again = m.block(l, &h[l + 1]);
                all.push(ratio(&h[l], &h[l + 1], &again, 0));
                later.push(ratio(&h[l], &h[l + 1], &again, 1));
            }
            let kept = if decoder {
                let lm = model.smollm2();
                let top = lens_top1(lm, &h[layers]);
                (1..=setup.tail)
                    .map(|k| {
                        let z = (layers - k..layers).fold(h[layers].clone(), |z, l| m.block(l, &z));
                        let again = lens_top1(lm, &z);
                        let same = top.iter().zip(&again).filter(|(a, b)| a == b).count();
                        same as f64 / top.len() as f64
                    })
                    .collect()
            } else {
                vec![]
            };
            [all, later, kept]
        });
        // per[s][series][i] → series[i][s]
        let column = |k: usize| -> Vec<Vec<f64>> {
            (0..per[0][k].len())
                .map(|i| per.iter().map(|p| p[k][i]).collect())
                .collect()
        };
        ModelFindings {
            ratio: column(0),
            later: column(1),
            kept: column(2),
        }
    }

    /// Per sentence, the mean ratio over `blocks` (rows `1..` if `later`).
    pub fn per_sentence(&self, blocks: std::ops::Range<usize>, later: bool) -> Vec<f64> {
        let r = if later { &self.later } else { &self.ratio };
        let n = blocks.len() as f64;
        (0..r[0].len())
            .map(|s| blocks.clone().map(|l| r[l][s]).sum::<f64>() / n)
            .collect()
    }

    /// Summary over sentences of the mean ratio over `blocks`.
    pub fn ratio_over(&self, blocks: std::ops::Range<usize>, later: bool) -> Summary {
        Summary::of(&self.per_sentence(blocks, later))
    }

    /// Summary over sentences of the share kept after the last `k` blocks.
    pub fn kept(&self, k: usize) -> Summary {
        Summary::of(&self.kept[k - 1])
    }
}

/// Each architecture, trained and random.
pub type Findings = ByArch<ByModel<ModelFindings>>;

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => {
        ByArch::run(|arch| ByModel::run(|model| ModelFindings::run(arch, model, BOOK)))
    })
}

/// Summary over sentences of trained − random, paired on the sentence.
pub fn paired(t: &[f64], r: &[f64]) -> Summary {
    Summary::over(t.iter().zip(r).map(|(a, b)| a - b))
}
