//! The claim that the decoder's prediction settles before its last blocks,
//! decided by the fitted lens against the norm-matched null (both fixed
//! before the result), with the plain logit lens, the random twin and the
//! shuffled block orders as choices a referee would vary.

use super::lens_fitted::{self, Findings};
use super::lens_shuffled;
use super::logit_lens::{self, ModelFindings, Positions};
use crate::claim::{Claim, Evidence, Test};
use crate::random::seeded;
use crate::stats::{bootstrap_ci, mean, spearman};

/// The graded reading: the final top-1 among the lens's top `TOP` (fixed before the result).
pub const TOP: u32 = 10;

/// Resamples of the sentences for the intervals.
const RESAMPLES: usize = 2_000;

/// The bootstrap's seed (disjoint from every other seed of chapter 5).
const BOOTSTRAP_SEED: u64 = 5_400;

/// The trained blocks in shuffled orders, every order's positions together.
pub fn shuffled() -> ModelFindings {
    lens_shuffled::pooled(lens_shuffled::book())
}

/// Spearman ρ between the boundary `0 … 29` and the mean KL of the lens from the output.
pub fn kl_falls(r: &ModelFindings) -> f64 {
    let kl = r.kl(Positions::All);
    let before: Vec<f64> = kl[..kl.len() - 1].to_vec();
    let depth: Vec<f64> = (0..before.len()).map(|l| l as f64).collect();
    spearman(&depth, &before)
}

/// How arrival is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The boundary from which the lens keeps the final top-1 to the end.
    Settled,
    /// The first boundary whose lens top-1 is the final top-1.
    First,
}

impl Arrival {
    pub fn of(self, r: &ModelFindings, p: Positions) -> f64 {
        match self {
            Arrival::Settled => r.settled(p),
            Arrival::First => r.first(p),
        }
    }

    fn phrase(self) -> &'static str {
        match self {
            Arrival::Settled => "mean boundary (0–30) from which the lens keeps the final top-1",
            Arrival::First => "mean first boundary (0–30) whose lens top-1 is the final top-1",
        }
    }
}

/// The positions' phrase in a test's quantity.
fn over(p: Positions) -> &'static str {
    match p {
        Positions::All => "every position",
        Positions::Later => "every position but the first",
        Positions::Open => "positions not answered at boundary 0",
    }
}

/// A fixed-point reading of depth: the final top-1 arrives earlier than in
/// the null `r` (named `null`) and, once there, is kept more.
fn settles(
    t: &ModelFindings,
    r: &ModelFindings,
    null: &str,
    arrival: Arrival,
    p: Positions,
) -> Vec<Test> {
    vec![
        Test::below(
            format!("{}, {}, trained − {null}", arrival.phrase(), over(p)),
            arrival.of(t, p) - arrival.of(r, p),
            0.0,
            2,
        ),
        Test::above(
            format!(
                "mean share of the later boundaries (to 29) that keep it, {}, trained − {null}",
                over(p)
            ),
            t.stay(p) - r.stay(p),
            0.0,
            3,
        ),
    ]
}

/// The null's sentence `s`, every rotation seed's positions together (fitted lens).
fn null_sentence(f: &Findings, s: usize) -> ModelFindings {
    let each: Vec<ModelFindings> = f
        .null
        .iter()
        .map(|n| n.fitted.sentences[s].clone())
        .collect();
    lens_shuffled::pooled(&each)
}

/// 95% bootstrap interval over sentences of the mean per-sentence gap,
/// trained − null, of `stat` on the open positions (fitted lens).
pub fn interval(f: &Findings, stat: fn(&ModelFindings, Positions) -> f64) -> (f64, f64) {
    let gaps: Vec<f64> = (0..f.fitted.trained.sentences.len())
        .map(|s| {
            stat(&f.fitted.trained.sentences[s], Positions::Open)
                - stat(&null_sentence(f, s), Positions::Open)
        })
        .filter(|g| g.is_finite())
        .collect();
    bootstrap_ci(&gaps, mean, 0.95, RESAMPLES, &mut seeded(BOOTSTRAP_SEED))
}

/// The lens claim (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    let f = lens_fitted::book();
    let plain = logit_lens::book();
    let (t, twin) = (f.fitted.trained.pooled(), f.fitted.random.pooled());
    let (null, null_plain) = (f.null_fitted(), f.null_plain());
    let (settled, open) = (Arrival::Settled, Positions::Open);
    let [arrive, stay] = <[Test; 2]>::try_from(settles(&t, &null, "null", settled, open))
        .unwrap_or_else(|_| unreachable!());
    let (settled_ci, stay_ci) = (
        interval(f, ModelFindings::settled),
        interval(f, ModelFindings::stay),
    );
    let seeds = lens_fitted::BOOK.seeds;
    let a = plain.trained.agreement(Positions::All);
    let fitted_a = t.agreement(Positions::All);
    // Din et al.: the fitted map beats the plain lens, mean over boundaries 1–29
    let gain = mean(
        &(1..a.len() - 1)
            .map(|l| fitted_a[l] - a[l])
            .collect::<Vec<_>>(),
    );
    vec![
        Claim::empirical(
            "trained-prediction-settles",
            "the decoder's next-token answer is reached before the last layer and kept (read by a lens fitted per layer boundary)",
        )
        .zh("解码器的下一单标答案在最后一层之前就已得到并保持（以逐层边界拟合的透镜读出）。")
        .evidence(Evidence::Pretrained)
        .default_choice(format!("reading: the fitted lens (ridge least squares per boundary on held-out text); null: norm-matched, the trained writes in random directions ({seeds} rotation seeds); positions: those not answered at boundary 0; arrival: the boundary from which the final top-1 is kept"))
        .core(arrive)
        .core(stay)
        .scope(Test::below(
            "upper end of the 95% interval over sentences of the settled-boundary gap, trained − null",
            settled_ci.1,
            0.0,
            2,
        ))
        .scope(Test::above(
            "lower end of the 95% interval over sentences of the stay-share gap, trained − null",
            stay_ci.0,
            0.0,
            3,
        ))
        .under("reading: the plain logit lens (null: norm-matched, the trained writes in random directions)", settles(&plain.trained, &null_plain, "null", settled, open))
        .under("null: the random-weight decoder (Llama's initialisation), its own fitted lens", settles(&t, &twin, "random", settled, open))
        .under("reading: the plain logit lens; null: the random-weight decoder", settles(&plain.trained, &plain.random, "random", settled, open))
        .under(
            format!("reading: the plain logit lens; null: the same trained blocks with blocks 1–28 in a shuffled order ({} seeded orders; block 0 and block 29 in place)", lens_shuffled::BOOK.seeds),
            settles(&plain.trained, &shuffled(), "shuffled", settled, open),
        )
        .under("positions: every position", settles(&t, &null, "null", settled, Positions::All))
        .under("positions: every position but the first (where the attention sink sits)", settles(&t, &null, "null", settled, Positions::Later))
        .under("arrival: the first boundary that agrees", settles(&t, &null, "null", Arrival::First, open))
        .under(
            format!("reading: graded, the final top-1 among the fitted lens's top {TOP}"),
            settles(&t.within(TOP), &null.within(TOP), "null", settled, open),
        )
        .replication(
            "nostalgebraist 2020",
            "the logit lens: in the last layers the model's final top-1 is already the lens's top-1; the share of positions whose lens top-1 at the last boundary before the output (29) is the final top-1",
            Test::above("share of positions, lens top-1 at boundary 29 = final top-1", a[a.len() - 2], 0.5, 2),
        )
        .replication(
            "Belrose et al. 2023",
            "the logit lens's KL divergence from the model's output distribution falls with depth (their Figure 2's curve, read as a rank correlation): Spearman ρ between the boundary 0–29 and the mean KL(output ‖ lens)",
            Test::below("Spearman ρ, boundary vs mean KL of the lens from the output", kl_falls(&plain.trained), -0.5, 2),
        )
        .replication(
            "Din et al. 2023",
            "a linear map fitted from a layer to the last predicts the model's final top-1 more often than reading the layer directly: the share of positions agreeing, fitted lens − plain logit lens, mean over boundaries 1–29",
            Test::above("share agreeing with the final top-1, fitted − plain, mean over boundaries 1–29", gain, 0.0, 3),
        )
        .setting(format!(
            "SmolLM2-135M-Instruct; fitted lens: per boundary 0–29 an affine map from the stream to the final stream (both at unit RMS), ridge {} × the mean eigenvalue, least squares on {} held-out tokens (models/corpus.txt and models/paraphrases.txt), then the final RMSNorm and the tied embedding; nulls: the trained writes h_(l+1) − h_l each turned by a Haar-random rotation per block ({seeds} seeds), read by their own fitted lens and against their own final top-1; the same architecture at Llama's initialisation (smollm2::random_init) with its own fitted lens; the trained blocks 1–28 in {} seeded orders; every position of the first {} context sentences ({} tokens) of models/contexts.txt; intervals: {RESAMPLES} bootstrap resamples of the sentences",
            lens_fitted::BOOK.ridge,
            f.held_out_tokens,
            lens_shuffled::BOOK.seeds,
            logit_lens::BOOK.sentences,
            t.tokens.len(),
        )),
    ]
}
