//! Chapter 1's decoder column as the prose quotes it: the measures (keys
//! `rope_…`) and the claim about rotary coordinates (evidence: pretrained).

use rand::RngExt;

use super::rotating::{
    BOOK, EXPLANATIONS, Explained, Keys, ModelFindings, Similarity, Variant, book,
};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, pm};
use crate::pretrained::corpus::Model;
use crate::random::seeded;
use crate::stats::{Summary, mean, quantile};

/// Bootstrap resamples of the sentences, and their seed.
pub const BOOTSTRAP: (usize, u64) = (2_000, 1_101);

impl ModelFindings {
    /// The trained heads' mean per-row ρ against `sim` on `keys` over the
    /// sentences `pick` (with repeats): `Σ_s S_s / Σ_s c_s`, `S_s` the mean over
    /// heads of sentence `s`'s sum of ρ, `c_s` its rows; on every sentence once
    /// it is `mean(rows(sim, keys, Trained))`.
    pub fn rho_over(&self, sim: Similarity, keys: Keys, pick: &[usize]) -> f64 {
        let k = Keys::ALL
            .iter()
            .position(|&x| x == keys)
            .expect("a key set");
        let r = Similarity::ALL
            .iter()
            .position(|&x| x == sim)
            .expect("a similarity");
        let by = &self.by_sentence[r][k];
        let sum: f64 = pick.iter().map(|&s| mean(&by[s].0)).sum();
        let rows: usize = pick.iter().map(|&s| by[s].1).sum();
        sum / rows as f64
    }

    /// 95% percentile interval of [`Self::rho_over`] resampling the sentences (`BOOTSTRAP`: draws and seed).
    pub fn rho_interval(&self, sim: Similarity, keys: Keys) -> (f64, f64) {
        let n = self.by_sentence[0][0].len();
        let mut rng = seeded(BOOTSTRAP.1);
        let stats: Vec<f64> = (0..BOOTSTRAP.0)
            .map(|_| {
                let pick: Vec<usize> = (0..n).map(|_| rng.random_range(0..n)).collect();
                self.rho_over(sim, keys, &pick)
            })
            .collect();
        (quantile(&stats, 0.025), quantile(&stats, 0.975))
    }

    /// Each sentence's own value of [`Self::rho_over`].
    pub fn rho_per_sentence(&self, sim: Similarity, keys: Keys) -> Vec<f64> {
        (0..self.by_sentence[0][0].len())
            .map(|s| self.rho_over(sim, keys, &[s]))
            .collect()
    }

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
        Measure::new("rope_bootstrap", BOOTSTRAP.0.to_string()),
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
    for sim in Similarity::ALL {
        let sn = sim.name();
        for k in Keys::ALL {
            let (lo, hi) = f.trained.rho_interval(sim, k);
            let each = f.trained.rho_per_sentence(sim, k);
            let below = crate::stats::share(each.iter().map(|&r| r < 0.5));
            let kn = k.name();
            m.extend([
                Measure::new(format!("rope_rho_{sn}_{kn}_lo"), fixed(lo, 2)),
                Measure::new(format!("rope_rho_{sn}_{kn}_hi"), fixed(hi, 2)),
                Measure::new(format!("rope_rho_{sn}_{kn}_below"), fixed(below, 2)),
            ]);
            for v in Variant::ALL {
                m.push(Measure::new(
                    format!("rope_rows_{sn}_{}_{kn}", v.name()),
                    pm(Summary::of(f.trained.rows(sim, k, v)), 2),
                ));
            }
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
            "under rotary positions, a decoder head's score of the same pair turns with the distance between the tokens",
        )
        .zh("在旋转位置编码下，解码器注意力头对同一单标对的分数随两者的距离而转动。")
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
