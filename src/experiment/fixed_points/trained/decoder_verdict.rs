//! The decoder's column of chapter 5's trained-model section: the choices
//! under which SmolLM2 is asked the stream and iteration claims, and the
//! numbers the prose quotes (keys `tr_dec_…`). The measurement is the one
//! the encoder's column uses ([`super::ModelFindings`]).

use super::verdict::{Rows, iteration_rows};
use super::{BOOK, Iteration, ModelFindings, Series, Stream, book};
use crate::claim::{Claim, Test};
use crate::measure::{Measure, fixed};
use crate::pretrained::corpus::Model;
use crate::stats::mean;

/// A setting of the decoder that the stream claim varies.
struct StreamChoice {
    /// Measure key suffix.
    key: &'static str,
    /// Every token but the first.
    later: bool,
    /// The first block counted.
    from: usize,
    label: &'static str,
}

impl StreamChoice {
    fn stream<'a>(&self, f: &'a ModelFindings) -> &'a Stream {
        match self.later {
            true => &f.later,
            false => &f.all,
        }
    }

    /// Slope of `series` over blocks `from..`.
    fn slope(&self, f: &ModelFindings, series: Series) -> f64 {
        let s = self.stream(f);
        s.slope(series, self.from..s.update.len())
    }
}

const STREAM_CHOICES: [StreamChoice; 3] = [
    StreamChoice {
        key: "",
        later: false,
        from: 0,
        label: "model: SmolLM2-135M-Instruct, a pre-RMSNorm decoder, blocks 1–30",
    },
    StreamChoice {
        key: "_from2",
        later: false,
        from: 1,
        label: "model: SmolLM2-135M-Instruct, blocks 2–30 (its first write onto the small embedding left out)",
    },
    StreamChoice {
        key: "_from2_later",
        later: true,
        from: 1,
        label: "model: SmolLM2-135M-Instruct, blocks 2–30, every token but the first (where the attention sink sits)",
    },
];

/// `claim` (the stream settles) asked of the decoder under every stream choice.
pub fn with_decoder_stream(claim: Claim) -> Claim {
    let d = &book().smollm2;
    STREAM_CHOICES.iter().fold(claim, |claim, c| {
        let gap = |s: Series| c.slope(&d.trained, s) - c.slope(&d.random, s);
        claim.under(
            c.label,
            vec![
                Test::below(
                    "slope over blocks of the mean relative update, trained − random",
                    gap(Series::Update),
                    0.0,
                    3,
                ),
                Test::above(
                    "slope over blocks of the mean cosine of consecutive states, trained − random",
                    gap(Series::Cosine),
                    0.0,
                    3,
                ),
            ],
        )
    })
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

/// A setting of the decoder under which the iterated-layer claim is asked.
struct IterateChoice {
    label: &'static str,
    reading: Reading,
    blocks: std::ops::Range<usize>,
}

const ITERATE_CHOICES: [IterateChoice; 5] = [
    IterateChoice {
        label: "model: SmolLM2-135M-Instruct, pre-RMSNorm: each of its 30 blocks iterated on its own input, Z ↦ Z + f(rms Z); step: ‖ΔZ‖/‖Z‖",
        reading: Reading::Iterate,
        blocks: 0..30,
    },
    IterateChoice {
        label: "model: SmolLM2-135M-Instruct, every row but the first (the sink's massive activation)",
        reading: Reading::Later,
        blocks: 0..30,
    },
    IterateChoice {
        label: "model: SmolLM2-135M-Instruct, step measured on the rms-normalised iterate (what the block reads), every row but the first",
        reading: Reading::Normalised,
        blocks: 0..30,
    },
    IterateChoice {
        label: "model: SmolLM2-135M-Instruct, blocks 1–10 only",
        reading: Reading::Iterate,
        blocks: 0..10,
    },
    IterateChoice {
        label: "model: SmolLM2-135M-Instruct, blocks 21–30 only",
        reading: Reading::Iterate,
        blocks: 20..30,
    },
];

/// `claim` (an iterated layer converges) asked of the decoder under every
/// iterate choice, and with its whole stack looped as the encoder's is.
pub fn with_decoder_iterate(claim: Claim) -> Claim {
    let d = &book().smollm2;
    let claim = ITERATE_CHOICES.iter().fold(claim, |claim, c| {
        claim.under(
            c.label,
            vec![Test::below(
                format!(
                    "SmolLM2 trained: step size after step {} (random decoder: {})",
                    BOOK.steps,
                    fixed(last(&d.random, c.reading, c.blocks.clone()), 3)
                ),
                last(&d.trained, c.reading, c.blocks.clone()),
                0.01,
                2,
            )],
        )
    });
    let looped = |f: &ModelFindings| {
        mean(
            &f.stack[0]
                .iter()
                .map(|i| Reading::Iterate.last(i))
                .collect::<Vec<_>>(),
        )
    };
    claim.under(
        "model: SmolLM2-135M-Instruct, the whole stack looped",
        vec![Test::below(
            format!(
                "SmolLM2 trained: ‖f(Z) − Z‖/‖Z‖ after the last loop (random decoder: {})",
                fixed(looped(&d.random), 3)
            ),
            looped(&d.trained),
            0.01,
            2,
        )],
    )
}

/// The decoder's numbers (keys `tr_dec_…`), and its rows of the iteration
/// tables appended to `layer` and `stack`. The stream: every token but the
/// first, the relative update of the second and last blocks, the trained
/// model's range over blocks 4–29, and the slopes over blocks 2–30 (the
/// claim card shows the other settings).
pub fn decoder_measures(layer: &mut Rows, stack: &mut Rows) -> Vec<Measure> {
    let d = &book().smollm2;
    let mut m = vec![
        Measure::new("tr_dec_sentences", BOOK.stream_sentences.to_string()),
        Measure::new("tr_dec_iter_sentences", BOOK.iterate_sentences.to_string()),
        Measure::new("tr_dec_iter_steps", BOOK.steps.to_string()),
    ];
    // the prose quotes the last choice: blocks 2–30, every token but the first
    let quoted = &STREAM_CHOICES[2];
    for model in Model::BOTH {
        let (f, name) = (d.model(model), model.name());
        let s = quoted.stream(f);
        let blocks = s.update.len();
        m.push(Measure::new(
            format!("tr_dec_update_{name}_l2"),
            fixed(s.mean(Series::Update, 1), 2),
        ));
        m.push(Measure::new(
            format!("tr_dec_update_{name}_last"),
            fixed(s.mean(Series::Update, blocks - 1), 2),
        ));
        for (key, series) in [("update", Series::Update), ("cosine", Series::Cosine)] {
            m.push(Measure::new(
                format!("tr_dec_slope_{key}_{name}{}", quoted.key),
                fixed(quoted.slope(f, series), 4),
            ));
        }
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
    let t = quoted.stream(&d.trained);
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
