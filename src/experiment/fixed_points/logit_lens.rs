//! The logit lens on SmolLM2: each layer boundary's stream decoded as if it
//! were the last, with the final norm and the tied embedding. When does the
//! model's eventual next token become the decoded top-1, and does it stay?
//!
//! ```text
//! lens_l(i) = argmax_t (rms(h_l[i]) ⊙ g_out) · e_t        l = 0 … 30
//! agree_l(i) = [lens_l(i) = lens_30(i)]                   lens_30 is the model's own top-1
//! first(i)   = min { l : agree_l(i) }
//! settled(i) = min { l : agree_m(i) for every m ≥ l }
//! stay(i)    = mean of agree_m(i), m = first(i) + 1 … 29  (tokens with first(i) < 29)
//! rank_l(i)  = #{t : z_l(i)_t > z_l(i)_{lens_30(i)}}       0: the final top-1 is the lens top-1
//! kl_l(i)    = KL(p_30(i) ‖ p_l(i))  (nats)               p_l = softmax of the lens logits z_l
//! ```
//!
//! A graded reading replaces `agree` by `rank < k` ([`Token::within`]).
//!
//! A fixed-point reading of depth predicts that the answer arrives before
//! the last blocks and stays. Even random blocks end at their own top-1, and
//! the stream is a running sum, so agreement grows towards the last layer in
//! any decoder: the random-weight decoder (Llama's initialisation) is the
//! null.
//!
//! Introduced in chapter 5.

use nalgebra::DMatrix;

use crate::experiment::relations::trained::contexts;
use crate::pretrained::corpus::{ByModel, Model};
use crate::pretrained::smollm2::SmolLm2;
use crate::pretrained::smollm2::forward::{log_softmax, logits};
use crate::stats::{argmax, mean};

/// Which sentences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The first context sentences (every pair's A, then every B).
    pub sentences: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup { sentences: 12 };

/// Which positions a statistic counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Every position.
    All,
    /// Every position but the first (where the attention sink sits).
    Later,
    /// Every position whose reading at boundary 0 is not already the final
    /// top-1 (the embedding's bigram guess is the baseline, not an arrival).
    Open,
}

/// One position's agreement with the final top-1 at every layer boundary.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Token {
    /// The position in its sentence.
    pub position: usize,
    /// `agree[l]`, `l = 0 … 30`; the last is true by construction.
    pub agree: Vec<bool>,
    /// `rank[l]`: how many tokens the lens at `l` scores above the final top-1.
    pub rank: Vec<u32>,
    /// `kl[l]`: KL divergence (nats) of the lens at `l` from the final distribution.
    pub kl: Vec<f64>,
}

impl Token {
    /// The same position read gradedly: `agree[l]` ⇔ the final top-1 is among the lens's top `k`.
    pub fn within(&self, k: u32) -> Token {
        Token {
            agree: self.rank.iter().map(|&r| r < k).collect(),
            ..self.clone()
        }
    }

    /// The first layer boundary whose lens top-1 is the final top-1.
    pub fn first(&self) -> usize {
        self.agree
            .iter()
            .position(|&a| a)
            .expect("the last boundary agrees")
    }

    /// The first boundary from which the lens keeps the final top-1 to the end.
    pub fn settled(&self) -> usize {
        self.agree.iter().rposition(|&a| !a).map_or(0, |l| l + 1)
    }

    /// The share of boundaries `first + 1 … L − 1` that agree; `None` if there are none.
    pub fn stay(&self) -> Option<f64> {
        let later = self.agree.get(self.first() + 1..self.agree.len() - 1)?;
        (!later.is_empty())
            .then(|| later.iter().filter(|&&a| a).count() as f64 / later.len() as f64)
    }
}

/// One model's findings: every position of every sentence.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelFindings {
    pub tokens: Vec<Token>,
}

/// The top-1 token of each row of the lens on the stream `x`.
///
/// # Shapes
/// `x: (n, 576)` → `n` token ids.
pub fn lens_top1(m: &SmolLm2, x: &DMatrix<f64>) -> Vec<usize> {
    let z = logits(&m.weights, &x.map(|v| v as f32));
    (0..z.nrows())
        .map(|i| argmax(0..z.ncols(), |t| f64::from(z[(i, t)])).expect("a vocabulary"))
        .collect()
}

/// The ids of the first `sentences` context sentences (every pair's A, then every B).
pub fn sentence_ids(m: &SmolLm2, sentences: usize) -> Vec<Vec<u32>> {
    contexts()
        .iter()
        .take(sentences)
        .map(|t| m.encode(t).unwrap_or_else(|e| panic!("{e}")).ids)
        .collect()
}

/// Every position's lens readings, given the stream at every layer boundary
/// (`states[l]: (n, 576)`, the last is the stream the model decodes).
pub fn tokens(m: &SmolLm2, states: &[DMatrix<f64>]) -> Vec<Token> {
    let n = states[0].nrows();
    // every boundary stacked, (31 n, 576): one blocked product over the vocabulary
    let mut stacked = DMatrix::zeros(states.len() * n, states[0].ncols());
    for (l, x) in states.iter().enumerate() {
        stacked.rows_mut(l * n, n).copy_from(x);
    }
    // (vocab, 31 n): each boundary's row of logits a contiguous column
    let z = logits(&m.weights, &stacked.map(|v| v as f32)).transpose();
    let row = |l: usize, i: usize| -> Vec<f32> { z.column(l * n + i).iter().copied().collect() };
    let last = states.len() - 1;
    (0..n)
        .map(|i| {
            let out = row(last, i);
            let top = argmax(0..out.len(), |t| f64::from(out[t])).expect("a vocabulary");
            let p_out = log_softmax(&out);
            let (mut agree, mut rank, mut kl) = (Vec::new(), Vec::new(), Vec::new());
            for l in 0..=last {
                let zl = row(l, i);
                let lens = argmax(0..zl.len(), |t| f64::from(zl[t])).expect("a vocabulary");
                agree.push(lens == top);
                rank.push(zl.iter().filter(|&&v| v > zl[top]).count() as u32);
                let p_l = log_softmax(&zl);
                kl.push(p_out.iter().zip(&p_l).map(|(a, b)| a.exp() * (a - b)).sum());
            }
            Token {
                position: i,
                agree,
                rank,
                kl,
            }
        })
        .collect()
}

impl ModelFindings {
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let m = model.smollm2();
        let ids = sentence_ids(m, setup.sentences);
        let per = crate::parallel::map(0..ids.len() as u64, |s| {
            tokens(m, &m.run(&ids[s as usize]).states())
        });
        ModelFindings {
            tokens: per.into_iter().flatten().collect(),
        }
    }

    /// The same positions read gradedly: the final top-1 among the lens's top `k`.
    pub fn within(&self, k: u32) -> ModelFindings {
        ModelFindings {
            tokens: self.tokens.iter().map(|t| t.within(k)).collect(),
        }
    }

    /// Per layer boundary, the mean over positions of the lens's KL from the final distribution.
    pub fn kl(&self, positions: Positions) -> Vec<f64> {
        let boundaries = self.tokens[0].kl.len();
        (0..boundaries)
            .map(|l| mean(&self.at(positions).map(|t| t.kl[l]).collect::<Vec<_>>()))
            .collect()
    }

    /// The tokens at `positions`.
    pub fn at(&self, positions: Positions) -> impl Iterator<Item = &Token> {
        self.tokens.iter().filter(move |t| match positions {
            Positions::All => true,
            Positions::Later => t.position > 0,
            Positions::Open => !t.agree[0],
        })
    }

    /// Per layer boundary, the share of positions whose lens top-1 is the final top-1.
    pub fn agreement(&self, positions: Positions) -> Vec<f64> {
        let boundaries = self.tokens[0].agree.len();
        (0..boundaries)
            .map(|l| {
                let all: Vec<f64> = self
                    .at(positions)
                    .map(|t| f64::from(u8::from(t.agree[l])))
                    .collect();
                mean(&all)
            })
            .collect()
    }

    /// Mean over positions of the first agreeing boundary.
    pub fn first(&self, positions: Positions) -> f64 {
        mean(
            &self
                .at(positions)
                .map(|t| t.first() as f64)
                .collect::<Vec<_>>(),
        )
    }

    /// Mean over positions of the settled boundary.
    pub fn settled(&self, positions: Positions) -> f64 {
        mean(
            &self
                .at(positions)
                .map(|t| t.settled() as f64)
                .collect::<Vec<_>>(),
        )
    }

    /// The share of positions whose lens holds the final top-1 from before the last block on.
    pub fn held_before_last(&self, positions: Positions) -> f64 {
        let last = self.tokens[0].agree.len() - 1;
        crate::stats::share(self.at(positions).map(|t| t.settled() < last))
    }

    /// Mean over positions (that have later boundaries) of the stay share.
    pub fn stay(&self, positions: Positions) -> f64 {
        mean(
            &self
                .at(positions)
                .filter_map(Token::stay)
                .collect::<Vec<_>>(),
        )
    }
}

/// The lens on the decoder, trained and random.
pub type Findings = ByModel<ModelFindings>;

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => {
        ByModel::run(|model| ModelFindings::run(model, BOOK))
    })
}
