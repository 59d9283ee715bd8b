//! Chapter 1's decoder column as the prose quotes it: the measures (keys
//! `rope_…`) and the claim about rotary coordinates (evidence: pretrained).

use super::rotating::{BOOK, EXPLANATIONS, Explained, Keys, ModelFindings, Variant, book};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, pm};
use crate::pretrained::corpus::Model;
use crate::stats::{Summary, mean};

impl ModelFindings {
    /// Mean over heads of the symmetric share at distances `1..`.
    pub fn share_turned(&self) -> f64 {
        mean(&self.share_curve()[1..])
    }
}

/// The numbers the decoder's paragraphs of chapter 1 quote (keys `rope_…`).
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("rope_sentences", BOOK.sentences.to_string()),
        Measure::new("rope_tokens", f.trained.tokens.to_string()),
        Measure::new("rope_distances", BOOK.distances.to_string()),
        Measure::new("rope_heads", f.trained.share.len().to_string()),
    ];
    for model in Model::BOTH {
        let (r, name) = (f.model(model), model.name());
        for k in Keys::ALL {
            for e in EXPLANATIONS {
                m.push(Measure::new(
                    format!("rope_r2_{}_{name}_{}", e.key, k.name()),
                    pm(Summary::of(&r.explained(k, e.of)), 2),
                ));
            }
        }
        let curve = r.share_curve();
        m.push(Measure::new(
            format!("rope_share_{name}_d0"),
            fixed(curve[0], 3),
        ));
        m.push(Measure::new(
            format!("rope_share_{name}_turned"),
            fixed(r.share_turned(), 3),
        ));
    }
    for k in Keys::ALL {
        for v in Variant::ALL {
            m.push(Measure::new(
                format!("rope_rows_{}_{}", v.name(), k.name()),
                pm(Summary::of(f.trained.rows(k, v)), 2),
            ));
        }
    }
    m
}

/// The essay's prediction on one key set: raw similarity explains less than
/// half of a trained score's variance, and training puts part of the score on
/// the relative position beyond what offset means fit in the random decoder.
fn rotates(keys: Keys) -> Vec<Test> {
    let f = book();
    let over = |r: &ModelFindings, g: fn(&Explained) -> f64| mean(&r.explained(keys, g));
    vec![
        Test::below(
            "SmolLM2 mean over heads of R²(score, raw cosine), trained",
            over(&f.trained, |e| e.cosine),
            0.5,
            3,
        ),
        Test::above(
            "mean R²(score, mean score per offset), trained − random",
            over(&f.trained, |e| e.offset) - over(&f.random, |e| e.offset),
            0.0,
            3,
        ),
    ]
}

/// The decoder's rotary-coordinates claim.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let [cos, pos] = <[Test; 2]>::try_from(rotates(Keys::All)).unwrap_or_else(|_| unreachable!());
    let unrot = |r: &ModelFindings| mean(&r.explained(Keys::All, |e| e.unrotated));
    vec![
        Claim::empirical(
            "trained-rope-score-turns",
            "a score compares objects moved into different learned coordinate systems, not their raw similarity; under rotary positions those systems also turn with the distance between the tokens",
        )
        .evidence(Evidence::Pretrained)
        .default_choice("keys: every earlier position j ≤ i")
        .core(cos)
        .core(pos)
        .under("keys: without the first token (where the attention sink sits)", rotates(Keys::Later))
        .setting(format!(
            "SmolLM2-135M-Instruct (RoPE, θ = 1e5) against the same architecture at Llama's initialisation (smollm2::random_init), every one of its {} heads, on the first {} context sentences ({} tokens) of models/contexts.txt, all pairs (i, j ≤ i) pooled per head; R² of the score against the learned W_QK at offset 0 (q_i k_jᵀ / 8): trained {}, random {}; symmetric share of diag(g) W_Q R(Δ) W_Kᵀ diag(g), mean over heads and distances 1–{}: trained {}, random {}",
            f.trained.share.len(),
            BOOK.sentences,
            f.trained.tokens,
            fixed(unrot(&f.trained), 2),
            fixed(unrot(&f.random), 2),
            BOOK.distances,
            fixed(f.trained.share_turned(), 3),
            fixed(f.random.share_turned(), 3),
        )),
    ]
}
