//! The decoder's column of chapter 2's trained-model claims: the choices
//! `model: SmolLM2-135M-Instruct, …` that [`super::trained_claims`] adds to
//! the encoder's claims, Xiao et al.'s replication, and the measures (keys
//! `dec_…`), all read from the one measurement both models answer
//! ([`super::readings`]), where the decoder's special key is its first token.
//! Predictions written from the essay and the paper before the run.

use super::sensitivity::{Effect, Keys};
use super::trained::{BOOK, HeadStats, Side, Start as First, book};
use super::trained_claims::weight_core;
use super::trained_report::effects;
use crate::claim::Test;
use crate::measure::{Measure, fixed, number, pm};
use crate::pretrained::corpus::Model;
use crate::pretrained::counterfactual::{Counterfactual, Target};

/// The decoder's model, as the choices name it.
pub const MODEL: &str = "model: SmolLM2-135M-Instruct (causal; the sink is the first token)";

/// Heads to a sentence: 30 layers × 9.
const PER: usize = 270;

/// Layers beyond the first two (0-based `2..30`), where Xiao et al. see the sink.
const DEEP: std::ops::Range<usize> = 2..30;

/// Mean of `g` over every head, layer and sentence.
fn all(side: &Side, first: First, g: impl Fn(&HeadStats) -> f64) -> f64 {
    side.summary(first, 0..30, g).mean
}

/// The key sets of the decoder's choices: every visible key, and every one
/// but the first token (its special key).
const KEYS: [Keys; 2] = [Keys::All, Keys::WithoutSpecial];

/// A key set as the decoder's choices name it.
fn keys_name(k: Keys) -> &'static str {
    match k {
        Keys::All => "every visible key",
        Keys::WithoutSpecial => "every visible key but the first token",
        Keys::WithoutSink => "every visible key but the head's sink",
    }
}

/// The cell of one choice, `[ρ(α, E), ρ(‖αf‖, E)]`.
fn rho(h: &HeadStats, t: Target, cf: Counterfactual, k: Keys) -> [f64; 2] {
    h.sensitivity.rho(t, cf, k)
}

/// The decoder's choices of `trained-weight-not-effect`: the same two core
/// tests as the encoder's (the gap, and the true norm against the norms
/// permuted across keys), under the encoder's counterfactuals (mean-value
/// ablation over the keys each query sees) and Mohebbi et al.'s value zeroing
/// in every head, read at the block's output. Value zeroing at the head's
/// output is left out: there `E_ij = ‖α_ij f_j‖` exactly, an identity.
pub fn weight_choices() -> Vec<(String, Vec<Test>)> {
    let heads = &book().decoder.trained.heads;
    let mut out = Vec::new();
    for effect in effects() {
        for k in KEYS {
            let target = match effect {
                Effect::Head(Target::Head, _) => "the head's output",
                Effect::Head(Target::Block, _) => {
                    "the normalised stream the FFN reads (rms(x + attn + Δ))"
                }
                Effect::Layer => "the block's output (the stream after the FFN), cosine distance",
            };
            out.push((
                format!(
                    "{MODEL}; counterfactual: {}; target: {target}; keys: {}",
                    effect.counterfactual(),
                    keys_name(k)
                ),
                weight_core(heads, PER, effect, k),
            ));
        }
    }
    out
}

/// Token 0's weight share − its carried-norm share.
fn sink_gap(side: &Side, first: First) -> f64 {
    all(side, first, |h| h.special_weight) - all(side, first, |h| h.special_norm)
}

/// The decoder's choices of `trained-sinks-take-weight-not-norm`.
pub fn sink_choices() -> Vec<(String, Vec<Test>)> {
    let f = &book().decoder;
    First::ALL
        .iter()
        .map(|&first| {
            (
                format!("{MODEL}; token set: the first token, {}", first.name()),
                vec![Test::above(
                    "weight share − norm share of the first token, trained",
                    sink_gap(&f.trained, first),
                    0.1,
                    2,
                )],
            )
        })
        .collect()
}

/// The null of the decoder's sink choice.
pub fn sink_scope() -> Test {
    Test::below(
        "the same difference for the first token, SmolLM2 at Llama's initialisation",
        sink_gap(&book().decoder.random, First::Own).abs(),
        0.1,
        2,
    )
}

/// Mean weight on token 0 of the heads of layers 3–30.
fn deep_weight(side: &Side, first: First) -> f64 {
    side.summary(first, DEEP, |h| h.special_weight).mean
}

/// Xiao et al. 2023's protocol and its test, for each start.
pub fn xiao() -> Vec<(String, Test)> {
    let f = &book().decoder;
    First::ALL
        .iter()
        .map(|&first| {
            (
                format!(
                    "SmolLM2-135M-Instruct: mean attention weight on the first token, every head of layers 3–30 and every query but the first, §3.1 and Figure 2 (\"beyond the bottom two layers, the model heavily attends to the initial token\"); first token: {}{}",
                    first.name(),
                    match first {
                        First::Own => "",
                        First::Newline => " (their §3.1 replaces the first four tokens by \\n and measures perplexity; here one \\n is prepended and the weight measured)",
                    }
                ),
                Test::above(
                    format!(
                        "weight on token 0, layers 3–30, trained (random: {})",
                        number(deep_weight(&f.random, first), 2)
                    ),
                    deep_weight(&f.trained, first),
                    0.5,
                    2,
                ),
            )
        })
        .collect()
}

/// The numbers chapter 2's decoder paragraph quotes (keys `dec_…`).
pub fn measures() -> Vec<Measure> {
    let f = &book().decoder;
    let mut m = vec![Measure::new("dec_sentences", BOOK.decoder.to_string())];
    for model in Model::BOTH {
        let (s, name) = (f.model(model), model.name());
        // the newline start is quoted for the trained decoder only
        let firsts: &[(&str, First)] = match model {
            Model::Trained => &[("own", First::Own), ("newline", First::Newline)],
            Model::Random => &[("own", First::Own)],
        };
        for &(key, first) in firsts {
            m.push(Measure::new(
                format!("dec_{name}_{key}_weight_deep"),
                pm(s.summary(first, DEEP, |h| h.special_weight), 2),
            ));
        }
        m.push(Measure::new(
            format!("dec_{name}_weight"),
            pm(s.summary(First::Own, 0..30, |h| h.special_weight), 2),
        ));
        m.push(Measure::new(
            format!("dec_{name}_norm"),
            pm(s.summary(First::Own, 0..30, |h| h.special_norm), 2),
        ));
        if model == Model::Trained {
            m.push(Measure::new(
                format!("dec_{name}_heads_over_half"),
                fixed(
                    s.summary(First::Own, DEEP, |h| {
                        f64::from(u8::from(h.special_weight > 0.5))
                    })
                    .mean,
                    2,
                ),
            ));
        }
        for (key, t, cf, k) in [
            ("ko_all", Target::Head, Counterfactual::Knockout, Keys::All),
            (
                "ko_rest",
                Target::Head,
                Counterfactual::Knockout,
                Keys::WithoutSpecial,
            ),
            ("mv_all", Target::Head, Counterfactual::MeanValue, Keys::All),
            (
                "vz_block",
                Target::Block,
                Counterfactual::ValueZeroing,
                Keys::All,
            ),
        ] {
            let [w, n] = [0, 1].map(|x| all(s, First::Own, |h| rho(h, t, cf, k)[x]));
            m.push(Measure::new(
                format!("dec_{name}_{key}_rho_weight"),
                fixed(w, 2),
            ));
            m.push(Measure::new(
                format!("dec_{name}_{key}_rho_norm"),
                fixed(n, 2),
            ));
        }
    }
    m
}
