//! The logit lens as chapter 5 quotes it: measures (keys `lens_…`) and the
//! claim that the decoder's prediction settles before its last blocks.

use super::lens_shuffled;
use super::logit_lens::{BOOK, ModelFindings, Positions, book};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed};
use crate::pretrained::corpus::Model;
use crate::stats::spearman;

/// The graded reading: the final top-1 among the lens's top `TOP` (fixed before the result).
const TOP: u32 = 10;

/// What arriving means under the default reading.
const TOP1: &str = "lens top-1 is the final top-1";

/// The trained blocks in shuffled orders, every order's positions together.
fn shuffled() -> ModelFindings {
    lens_shuffled::pooled(lens_shuffled::book())
}

/// Spearman ρ between the boundary `0 … 29` and the mean KL of the lens from the output.
fn kl_falls(r: &ModelFindings) -> f64 {
    let kl = r.kl(Positions::All);
    let before: Vec<f64> = kl[..kl.len() - 1].to_vec();
    let depth: Vec<f64> = (0..before.len()).map(|l| l as f64).collect();
    spearman(&depth, &before)
}

/// The numbers the prose quotes (keys `lens_…`).
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (t, shuffled) = (&f.trained, shuffled());
    let kl = t.kl(Positions::All);
    let last = kl.len() - 1;
    // the trained lens's largest KL after the embedding boundary, and where
    let peak = (1..last)
        .max_by(|&a, &b| kl[a].total_cmp(&kl[b]))
        .expect("inner boundaries");
    let mut m = vec![
        Measure::new("lens_sentences", BOOK.sentences.to_string()),
        Measure::new("lens_tokens", t.tokens.len().to_string()),
        Measure::new("lens_top", TOP.to_string()),
        Measure::new("lens_orders", lens_shuffled::BOOK.seeds.to_string()),
        Measure::new(
            "lens_first_shuffled",
            fixed(shuffled.first(Positions::All), 1),
        ),
        Measure::new(
            "lens_stay_shuffled",
            fixed(shuffled.stay(Positions::All), 2),
        ),
        Measure::new(
            "lens_stay_gap_shuffled",
            fixed(t.stay(Positions::All) - shuffled.stay(Positions::All), 3),
        ),
        Measure::new("lens_kl_rho_shuffled", fixed(kl_falls(&shuffled), 2)),
        Measure::new("lens_kl_first_trained", fixed(kl[0], 0)),
        Measure::new("lens_kl_l1_trained", fixed(kl[1], 1)),
        Measure::new("lens_kl_peak_trained", fixed(kl[peak], 1)),
        Measure::new("lens_kl_peak_at_trained", peak.to_string()),
        Measure::new("lens_kl_before_last_trained", fixed(kl[last - 1], 1)),
    ];
    // the shuffled null per order: trained stay − that order's
    let orders = lens_shuffled::book();
    let gaps: Vec<f64> = orders
        .iter()
        .map(|o| t.stay(Positions::All) - o.stay(Positions::All))
        .collect();
    let first = lens_shuffled::pooled(&orders[..lens_shuffled::FIRST_SEEDS]);
    m.extend([
        Measure::new(
            "lens_orders_positive",
            gaps.iter().filter(|&&g| g > 0.0).count().to_string(),
        ),
        Measure::new("lens_first_orders", lens_shuffled::FIRST_SEEDS.to_string()),
        Measure::new(
            "lens_first_gap_shuffled",
            fixed(t.first(Positions::All) - shuffled.first(Positions::All), 1),
        ),
        Measure::new(
            "lens_first_gap_first_orders",
            fixed(t.first(Positions::All) - first.first(Positions::All), 1),
        ),
        Measure::new(
            "lens_stay_gap_first_orders",
            fixed(t.stay(Positions::All) - first.stay(Positions::All), 3),
        ),
        Measure::new(
            "lens_first_orders_positive",
            gaps[..lens_shuffled::FIRST_SEEDS]
                .iter()
                .filter(|&&g| g > 0.0)
                .count()
                .to_string(),
        ),
    ]);
    for model in Model::BOTH {
        let (r, name) = (f.model(model), model.name());
        let a = r.agreement(Positions::All);
        let top = r.within(TOP);
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
                fixed(a[a.len() - 2], 2),
            ),
            Measure::new(format!("lens_agree_{name}_l1"), fixed(a[1], 2)),
            Measure::new(
                format!("lens_top_first_{name}"),
                fixed(top.first(Positions::All), 1),
            ),
            Measure::new(
                format!("lens_top_stay_{name}"),
                fixed(top.stay(Positions::All), 2),
            ),
            Measure::new(format!("lens_kl_rho_{name}"), fixed(kl_falls(r), 2)),
        ]);
    }
    m
}

/// A fixed-point reading of depth: the eventual top-1 arrives earlier and,
/// once there, stays more than in the null `r`, named `null`; `reading`
/// says what arriving is (`lens top-1 is the final top-1`).
fn settles(
    t: &ModelFindings,
    r: &ModelFindings,
    null: &str,
    reading: &str,
    positions: Positions,
) -> Vec<Test> {
    vec![
        Test::below(
            format!("mean first boundary (0–30) whose {reading}, trained − {null}"),
            t.first(positions) - r.first(positions),
            0.0,
            2,
        ),
        Test::above(
            format!("mean share of the later boundaries (to 29) that keep it, trained − {null}"),
            t.stay(positions) - r.stay(positions),
            0.0,
            3,
        ),
    ]
}

/// The logit-lens claim (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    let f = book();
    let (t, r) = (&f.trained, &f.random);
    let [first, stay] = <[Test; 2]>::try_from(settles(t, r, "random", TOP1, Positions::All))
        .unwrap_or_else(|_| unreachable!());
    let a = t.agreement(Positions::All);
    vec![
        Claim::empirical(
            "trained-prediction-settles",
            "the decoder's next-token answer is reached before the last layer and kept (read by the plain logit lens)",
        )
        .zh("解码器的下一单标答案在最后一层之前就已得到并保持（以普通对数几率透镜读出）。")
        .evidence(Evidence::Pretrained)
        .default_choice("null: the random-weight decoder; positions: every position; arrival: the first boundary that agrees; reading: the lens's top-1")
        .core(first)
        .core(stay)
        .under("positions: every position but the first (where the attention sink sits)", settles(t, r, "random", TOP1, Positions::Later))
        .under(
            "arrival: the boundary from which the lens keeps the final top-1 to the end",
            vec![
                Test::below(
                    "mean settled boundary, trained − random",
                    t.settled(Positions::All) - r.settled(Positions::All),
                    0.0,
                    2,
                ),
                Test::above(
                    "share of positions settled before the last block, trained − random",
                    t.held_before_last(Positions::All) - r.held_before_last(Positions::All),
                    0.0,
                    3,
                ),
            ],
        )
        .under(
            format!("null: the same trained blocks with blocks 1–28 in a shuffled order ({} seeded orders; block 0 and block 29 in place)", lens_shuffled::BOOK.seeds),
            settles(t, &shuffled(), "shuffled", TOP1, Positions::All),
        )
        .under(
            format!("reading: graded, the final top-1 among the lens's top {TOP}"),
            settles(&t.within(TOP), &r.within(TOP), "random", &format!("lens top {TOP} holds the final top-1"), Positions::All),
        )
        .replication(
            "nostalgebraist 2020",
            "the logit lens: in the last layers the model's final top-1 is already the lens's top-1; the share of positions whose lens top-1 at the last boundary before the output (29) is the final top-1",
            Test::above("share of positions, lens top-1 at boundary 29 = final top-1", a[a.len() - 2], 0.5, 2),
        )
        .replication(
            "Belrose et al. 2023",
            "the logit lens's KL divergence from the model's output distribution falls with depth (their Figure 2's curve, read as a rank correlation): Spearman ρ between the boundary 0–29 and the mean KL(output ‖ lens)",
            Test::below("Spearman ρ, boundary vs mean KL of the lens from the output", kl_falls(t), -0.5, 2),
        )
        .setting(format!(
            "SmolLM2-135M-Instruct against the same architecture at Llama's initialisation (smollm2::random_init), and against its own blocks 1–28 in {} seeded random orders; the logit lens (final RMSNorm and the tied embedding on the stream at each of the 31 layer boundaries) on every position of the first {} context sentences ({} tokens) of models/contexts.txt",
            lens_shuffled::BOOK.seeds,
            BOOK.sentences,
            t.tokens.len(),
        )),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_and_replication_is_computed() {
        let c = &claims()[0];
        assert_eq!(c.choices.len(), 4);
        assert_eq!(c.replications.len(), 2);
        for m in measures() {
            eprintln!("{m:?}");
        }
        eprintln!("{c:#?}\nverdict: {:?}", c.verdict());
    }
}
