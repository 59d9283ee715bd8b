//! The decoder's column of chapter 4's trained-model claims: the choices
//! `model: SmolLM2-135M-Instruct, …` of `trained-rollout` and
//! `trained-boundary`, and the measures (keys `dec_…`), read from the same
//! experiment as the encoder's ([`super::trained::decoder`]). The tests are
//! the encoder's, written before the run.

use super::trained::importance::Cell;
use super::trained::{
    Composite, Counterfactual, DECODER as BOOK, Keys, ModelFindings, Target, decoder as book,
    gain_test,
};
use crate::claim::Test;
use crate::measure::{Measure, fixed, of_total, pm, table};
use crate::pretrained::corpus::Model;

/// The decoder's model, as the choices name it.
const MODEL: &str = "model: SmolLM2-135M-Instruct (causal; target: the last token)";

/// Blocks of the decoder.
const LAYERS: usize = 30;

/// The decoder's targets.
const TARGETS: [Target; 2] = [Target::Last, Target::Next];

/// The decoder's key sets: every earlier token, and without its sink position.
const KEYS: [Keys; 2] = [Keys::All, Keys::NoFirst];

/// A key set as the decoder's choices name it.
fn keys_name(k: Keys) -> &'static str {
    match k {
        Keys::NoFirst => "every earlier token but the first (the sink)",
        _ => "every earlier token",
    }
}

/// Per sentence, one relation's ρ with the importance under mean ablation.
fn rho(x: &ModelFindings, t: Target, k: Keys, g: fn(&Cell) -> f64) -> crate::stats::Summary {
    x.over_setting(Counterfactual::Mean, t, k, g)
}

/// The decoder's choices of a composite's claim: each target, each key set,
/// under mean ablation and input × gradient; the encoder's test, asked of the decoder.
pub fn composite_choices(by: Composite) -> Vec<(String, Vec<Test>)> {
    let f = book();
    let mut out = Vec::new();
    for c in [Counterfactual::Mean, Counterfactual::Gradient] {
        for t in TARGETS {
            for k in KEYS {
                out.push((
                    format!(
                        "{MODEL}; counterfactual: {}; target: {}; token set: {}",
                        c.name(),
                        t.name(),
                        keys_name(k)
                    ),
                    vec![gain_test("SmolLM2, trained", &f.trained, by, c, t, k)],
                ));
            }
        }
    }
    out
}

/// The encoder's two boundary tests at depth `l`, asked of the decoder.
fn boundary(l: usize) -> Vec<Test> {
    let f = book();
    let ctx = |x: &ModelFindings, l: usize| x.divergence(false, l).mean;
    let unr = |x: &ModelFindings, l: usize| x.divergence(true, l).mean;
    let growth = |x: &ModelFindings| ctx(x, l) - ctx(x, 0);
    vec![
        Test::above(
            format!(
                "SmolLM2: trained growth of 1 − cos(word after prefix A, after prefix B) from h₀ to h{l} minus the random model's"
            ),
            growth(&f.trained) - growth(&f.random),
            0.0,
            2,
        ),
        Test::below(
            format!("SmolLM2, trained, h{l}: context change / unrelated change"),
            ctx(&f.trained, l) / unr(&f.trained, l),
            1.0,
            2,
        ),
    ]
}

/// The decoder's choices of `trained-boundary`: the last state and the middle one.
pub fn boundary_choices() -> Vec<(String, Vec<Test>)> {
    [LAYERS, LAYERS / 2]
        .into_iter()
        .map(|l| {
            (
                format!("model: SmolLM2-135M-Instruct (causal; the word after two prefixes); depth: h{l}"),
                boundary(l),
            )
        })
        .collect()
}

/// What the decoder's setting adds to each claim's.
pub fn setting() -> String {
    let f = book();
    let kept = f.trained.words.iter().filter(|w| w.1).count();
    format!(
        "; SmolLM2-135M-Instruct against the same architecture at Llama's initialisation: rollout on the first {} A sentences, importance of token j to the last token by mean ablation of j's embedding, raw: layer 30's head-mean attention row of the last token; boundary: {kept} of {} words that are one token (Ġword) in both sentences, the stream after each block",
        BOOK.importance_sentences,
        f.trained.words.len()
    )
}

/// The numbers chapter 4's decoder paragraph quotes (keys `dec_…`).
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("dec_sentences", BOOK.importance_sentences.to_string()),
        Measure::new(
            "dec_words",
            f.trained.words.iter().filter(|w| w.1).count().to_string(),
        ),
        Measure::new(
            "dec_words_kept",
            of_total(
                f.trained.words.iter().filter(|w| w.1).count(),
                f.trained.words.len(),
                "words",
            ),
        ),
    ];
    let mut rows = Vec::new();
    for model in Model::BOTH {
        let (x, name) = (f.model(model), model.name());
        for t in TARGETS {
            for k in KEYS {
                rows.push(vec![
                    name.to_string(),
                    match t {
                        Target::Next => "next-token distribution",
                        _ => "final state",
                    }
                    .to_string(),
                    match k {
                        Keys::NoFirst => "no first token",
                        _ => "all",
                    }
                    .to_string(),
                    pm(rho(x, t, k, |c| c.raw), 2),
                    pm(rho(x, t, k, |c| c.rollout), 2),
                    pm(rho(x, t, k, |c| c.carried), 2),
                ]);
            }
        }
        // the prose quotes both targets of the trained decoder, the state of the random one
        let targets: &[(&str, Target)] = match model {
            Model::Trained => &[("state", Target::Last), ("next", Target::Next)],
            Model::Random => &[("state", Target::Last)],
        };
        for &(key, t) in targets {
            m.push(Measure::new(
                format!("dec_{name}_{key}_raw"),
                pm(rho(x, t, Keys::All, |c| c.raw), 2),
            ));
            m.push(Measure::new(
                format!("dec_{name}_{key}_rollout"),
                pm(rho(x, t, Keys::All, |c| c.rollout), 2),
            ));
            if model == Model::Trained {
                m.push(Measure::new(
                    format!("dec_{name}_{key}_carried"),
                    pm(rho(x, t, Keys::All, |c| c.carried), 2),
                ));
            }
        }
        // (unrelated words?, depth) the prose quotes: the random decoder after
        // one block, the trained one halfway and at the end
        let depths: &[(bool, usize)] = match model {
            Model::Trained => &[(false, LAYERS / 2), (false, LAYERS), (true, LAYERS)],
            Model::Random => &[(false, 1), (true, 1)],
        };
        for &(unrelated, l) in depths {
            let what = if unrelated { "unrelated" } else { "context" };
            m.push(Measure::new(
                format!("dec_{name}_{what}_h{l}"),
                pm(x.divergence(unrelated, l), 2),
            ));
        }
    }
    let t = f.model(Model::Trained);
    m.push(Measure::new(
        format!("dec_trained_ratio_h{LAYERS}"),
        fixed(
            t.divergence(false, LAYERS).mean / t.divergence(true, LAYERS).mean,
            2,
        ),
    ));
    m.push(Measure::new(
        "dec_rollout_table",
        table(
            &[
                "weights",
                "target",
                "keys",
                "ρ(raw, importance)",
                "ρ(rollout, importance)",
                "ρ(norm-weighted, importance)",
            ],
            &rows,
        ),
    ));
    m
}
