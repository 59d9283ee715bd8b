//! The logit lens as chapter 5 quotes it: measures (keys `lens_…`) and the
//! claim that the decoder's prediction settles before its last blocks.

use super::logit_lens::{BOOK, ModelFindings, Positions, book};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed};
use crate::pretrained::corpus::Model;

/// The numbers the prose quotes (keys `lens_…`).
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("lens_sentences", BOOK.sentences.to_string()),
        Measure::new("lens_tokens", f.trained.tokens.len().to_string()),
    ];
    for model in Model::BOTH {
        let (r, name) = (f.model(model), model.name());
        let a = r.agreement(Positions::All);
        let last = a.len() - 1;
        m.extend([
            Measure::new(
                format!("lens_first_{name}"),
                fixed(r.first(Positions::All), 1),
            ),
            Measure::new(
                format!("lens_settled_{name}"),
                fixed(r.settled(Positions::All), 1),
            ),
            Measure::new(
                format!("lens_stay_{name}"),
                fixed(r.stay(Positions::All), 2),
            ),
            Measure::new(
                format!("lens_agree_{name}_before_last"),
                fixed(a[last - 1], 2),
            ),
            Measure::new(format!("lens_agree_{name}_l1"), fixed(a[1], 2)),
        ]);
    }
    m
}

/// A fixed-point reading of depth: the eventual top-1 arrives earlier and,
/// once there, stays more than in the random decoder.
fn settles(positions: Positions) -> Vec<Test> {
    let f = book();
    let (t, r): (&ModelFindings, &ModelFindings) = (&f.trained, &f.random);
    vec![
        Test::below(
            "mean first boundary (0–30) whose lens top-1 is the final top-1, trained − random",
            t.first(positions) - r.first(positions),
            0.0,
            2,
        ),
        Test::above(
            "mean share of the later boundaries (to 29) that keep it, trained − random",
            t.stay(positions) - r.stay(positions),
            0.0,
            3,
        ),
    ]
}

/// The logit-lens claim (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    let f = book();
    let [first, stay] =
        <[Test; 2]>::try_from(settles(Positions::All)).unwrap_or_else(|_| unreachable!());
    vec![
        Claim::empirical(
            "trained-prediction-settles",
            "the network computes by iteration toward a fixed point: the answer is reached before the last layer and kept",
        )
        .evidence(Evidence::Pretrained)
        .default_choice("positions: every position; arrival: the first boundary that agrees")
        .core(first)
        .core(stay)
        .under("positions: every position but the first (where the attention sink sits)", settles(Positions::Later))
        .under(
            "arrival: the boundary from which the lens keeps the final top-1 to the end",
            vec![
                Test::below(
                    "mean settled boundary, trained − random",
                    f.trained.settled(Positions::All) - f.random.settled(Positions::All),
                    0.0,
                    2,
                ),
                Test::above(
                    "share of positions settled before the last block, trained − random",
                    f.trained.held_before_last(Positions::All)
                        - f.random.held_before_last(Positions::All),
                    0.0,
                    3,
                ),
            ],
        )
        .setting(format!(
            "SmolLM2-135M-Instruct against the same architecture at Llama's initialisation (smollm2::random_init); the logit lens (final RMSNorm and the tied embedding on the stream at each of the 31 layer boundaries) on every position of the first {} context sentences ({} tokens) of models/contexts.txt",
            BOOK.sentences,
            f.trained.tokens.len(),
        )),
    ]
}
