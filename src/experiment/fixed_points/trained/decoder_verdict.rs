//! The decoder's column of chapter 5's trained-model section: the windows
//! under which SmolLM2 is asked the stream claim, its iteration as the
//! idempotence claim keeps it (a choice), and the numbers the prose quotes
//! (keys `tr_dec_…`). The measurement is the one
//! the encoder's column uses ([`super::ModelFindings`]).

use super::tail;
use super::verdict::{Rows, iteration_rows};
use super::{BOOK, Iteration, ModelFindings, Series, book};
use crate::claim::Claim;
use crate::measure::{Measure, fixed};
use crate::pretrained::corpus::Model;
use crate::stats::mean;

/// `claim` (the stream settles) asked of the decoder under every window.
pub fn with_decoder_stream(claim: Claim) -> Claim {
    let d = &book().smollm2;
    let blocks = d.trained.all.update.len();
    claim.under_each(tail::smollm2().iter().map(|w| {
        (
            format!("model: SmolLM2-135M-Instruct, {}", w.label(blocks, "block")),
            w.tests(&d.trained, &d.random),
        )
    }))
}

/// How a step of the iterated decoder is read.
#[derive(Clone, Copy)]
enum Reading {
    /// The iterate, every row.
    Iterate,
    /// The iterate, every row but the first.
    Later,
    /// The rms-normalised iterate, every row but the first.
    Normalised,
}

impl Reading {
    fn last(self, i: &Iteration) -> f64 {
        let series = match self {
            Reading::Iterate => &i.residual,
            Reading::Later => &i.later,
            Reading::Normalised => &i.normalised,
        };
        *series.last().expect("steps > 0")
    }
}

/// Mean over sentences and the blocks in `blocks` of the last step, read as `r`.
fn last(f: &ModelFindings, r: Reading, blocks: std::ops::Range<usize>) -> f64 {
    let all: Vec<f64> = f.layer[0][blocks]
        .iter()
        .flatten()
        .map(|i| r.last(i))
        .collect();
    mean(&all)
}

/// The decoder's iteration read as the encoder's (every row, every block):
/// the last step, trained and random.
pub fn decoder_iterate() -> (f64, f64) {
    let d = &book().smollm2;
    let blocks = d.trained.layer[0].len();
    (
        last(&d.trained, Reading::Iterate, 0..blocks),
        last(&d.random, Reading::Iterate, 0..blocks),
    )
}

/// The decoder's numbers (keys `tr_dec_…`), and its rows of the iteration
/// tables appended to `layer` and `stack`. The stream: every token but the
/// first, the relative update of the second and last blocks, the trained
/// model's range over blocks 4–29, and the tail-over-middle ratios of every
/// window ([`tail::measures`]).
pub fn decoder_measures(layer: &mut Rows, stack: &mut Rows) -> Vec<Measure> {
    let d = &book().smollm2;
    let mut m = vec![
        Measure::new("tr_dec_sentences", BOOK.stream_sentences.to_string()),
        Measure::new("tr_dec_iter_sentences", BOOK.iterate_sentences.to_string()),
        Measure::new("tr_dec_iter_steps", BOOK.steps.to_string()),
    ];
    m.extend(tail::measures(
        "tr_dec",
        d,
        &tail::smollm2(),
        d.trained.all.update.len(),
        "block",
    ));
    for model in Model::BOTH {
        let (f, name) = (d.model(model), model.name());
        let s = &f.later;
        let blocks = s.update.len();
        m.push(Measure::new(
            format!("tr_dec_update_{name}_l2"),
            fixed(s.mean(Series::Update, 1), 2),
        ));
        m.push(Measure::new(
            format!("tr_dec_update_{name}_last"),
            fixed(s.mean(Series::Update, blocks - 1), 2),
        ));
        for (key, reading) in [
            ("iterate", Reading::Iterate),
            ("later", Reading::Later),
            ("normalised", Reading::Normalised),
        ] {
            m.push(Measure::new(
                format!("tr_dec_iter_{key}_{name}"),
                fixed(last(f, reading, 0..f.layer[0].len()), 2),
            ));
        }
        let (l, k) = iteration_rows("tr_dec", &format!("SmolLM2 {name}"), name, f);
        layer.extend(l);
        stack.extend(k);
    }
    let t = &d.trained.later;
    let mid: Vec<f64> = (3..t.update.len() - 1)
        .map(|l| t.mean(Series::Update, l))
        .collect();
    let (lo, hi) = mid
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    m.push(Measure::new(
        "tr_dec_update_trained_mid",
        format!("{}–{}", fixed(lo, 2), fixed(hi, 2)),
    ));
    m
}
