//! What chapter 1's trained-model section quotes and claims from
//! [`super::trained`]'s findings.

use super::rotating::{self, Keys, Similarity, Variant as RVariant};
use super::trained::{Weights, book};
use super::trained_text::{self, Statistic, Tokens, Variant};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, pm};
use crate::pretrained::geometry::HeadGeometry;
use crate::pretrained::heads::{Model, Survey};
use crate::stats::{Summary, mean};

fn share(g: &HeadGeometry) -> f64 {
    g.symmetric_share
}

fn negative(g: &HeadGeometry) -> f64 {
    g.negative_mass
}

/// The numbers the section's prose quotes (keys local to chapter 1).
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("trained_random_layers", f.setup.random_layers.to_string()),
        Measure::new("trained_seed", f.setup.seed.to_string()),
    ];
    for w in &f.weights {
        let name = w.model.name();
        let (t, r) = (&w.trained, &w.random);
        let heads = |s: &Survey| s.heads.iter().flatten().count();
        m.extend([
            Measure::new(format!("trained_{name}_d"), t.d.to_string()),
            Measure::new(format!("trained_{name}_r"), t.r.to_string()),
            Measure::new(format!("trained_{name}_layers"), t.heads.len().to_string()),
            Measure::new(format!("trained_{name}_heads"), heads(t).to_string()),
            Measure::new(
                format!("trained_{name}_heads_per_layer"),
                t.heads[0].len().to_string(),
            ),
            Measure::new(format!("trained_{name}_random_heads"), heads(r).to_string()),
            Measure::new(format!("trained_{name}_theory"), fixed(w.theory(), 4)),
            Measure::new(
                format!("trained_{name}_sym"),
                pm(Summary::of(&t.values(share)), 3),
            ),
            Measure::new(
                format!("trained_{name}_sym_random"),
                pm(Summary::of(&r.values(share)), 4),
            ),
            Measure::new(
                format!("trained_{name}_neg"),
                pm(Summary::of(&t.values(negative)), 3),
            ),
            Measure::new(
                format!("trained_{name}_neg_random"),
                pm(Summary::of(&r.values(negative)), 3),
            ),
            Measure::new(
                format!("trained_{name}_layer"),
                pm(Summary::of(&t.layer_scores), 3),
            ),
            Measure::new(
                format!("trained_{name}_layer_random"),
                pm(Summary::of(&r.layer_scores), 4),
            ),
            Measure::new(
                format!("trained_{name}_sym_folded"),
                pm(Summary::of(&w.folded.values(share)), 3),
            ),
            Measure::new(
                format!("trained_{name}_layer_folded"),
                pm(Summary::of(&w.folded.layer_scores), 3),
            ),
            Measure::new(
                format!("trained_{name}_head_score"),
                fixed(2.0 * mean(&t.values(share)) - 1.0, 3),
            ),
            Measure::new(
                format!("trained_{name}_sym_max"),
                fixed(t.values(share).into_iter().fold(0.0, f64::max), 3),
            ),
            Measure::new(
                format!("trained_{name}_neg_min"),
                fixed(t.values(negative).into_iter().fold(1.0, f64::min), 3),
            ),
        ]);
    }
    m.push(Measure::new(
        "trained_inertia",
        match f.weights.iter().all(|w| w.inertia_holds()) {
            true => "every",
            false => "not every",
        },
    ));
    let (query_heads, kv_heads) = f.smollm2_heads;
    m.push(Measure::new(
        "trained_smollm2_kv_heads",
        kv_heads.to_string(),
    ));
    m.push(Measure::new(
        "trained_smollm2_group",
        (query_heads / kv_heads).to_string(),
    ));
    m.extend(trained_text::measures(&f.text));
    m
}

/// The section's claims, ids local to chapter 1; the predictions are the
/// essay's (scores compare different coordinate systems) and Saponati et
/// al.'s (bidirectional training symmetrises `W_QK`), written before the run.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let (enc, dec) = (f.weights(Model::Minilm), f.weights(Model::Smollm2));
    let sym = |s: &Survey| mean(&s.values(share));
    // a layer's symmetric share from Saponati's score s = 2·share − 1
    let layer = |s: &Survey| (mean(&s.layer_scores) + 1.0) / 2.0;
    let neg = |w: &Weights| mean(&w.trained.values(negative));
    let t = &f.text;
    let rho = |v, tokens, stat| t.overall(v, tokens, stat);
    let inner = |v| rho(v, Tokens::Inner, Statistic::RhoRows);
    let below = |what: &str, x: f64| Test::below(what, x, 0.75, 3);
    // encoder minus decoder, minus the same for random heads of their shapes
    let gap = |g: &dyn Fn(&Survey) -> f64| {
        g(&enc.trained) - g(&dec.trained) - (g(&enc.random) - g(&dec.random))
    };
    let folded_gap = sym(&enc.folded) - sym(&dec.folded) - (sym(&enc.random) - sym(&dec.random));
    let rope = rotating::book();
    let decoder = |sim: Similarity, keys: Keys| {
        Test::below(
            format!(
                "SmolLM2 mean per-row Spearman ρ, {} vs score, trained heads",
                sim.label()
            ),
            mean(rope.trained.rows(sim, keys, RVariant::Trained)),
            0.5,
            2,
        )
    };
    let interval = |sim, keys| {
        let (lo, hi) = rope.trained.rho_interval(sim, keys);
        format!("[{}, {}]", fixed(lo, 2), fixed(hi, 2))
    };
    let score = |v: f64| {
        Test::below(
            "MiniLM mean per-row Spearman ρ, raw vs score, trained heads",
            v,
            0.5,
            2,
        )
    };
    vec![
        Claim::empirical(
            "trained-qk-not-symmetric",
            "a trained head's W_QK is far from a symmetric form: its queries and keys live in different coordinate systems",
        )
        .quotes("high-school-error").zh("训练后注意力头的 W_QK 远非对称形式：它的 Query 与 Key 处在不同的坐标系中。")
        .evidence(Evidence::Pretrained)
        .default_choice("unit: one head; weights as stored")
        .core(below("MiniLM mean symmetric share per head", sym(&enc.trained)))
        .core(below("SmolLM2 mean symmetric share per head", sym(&dec.trained)))
        .under(
            "unit: one layer's Σ_h W_QK (Saponati et al.)",
            vec![
                below("MiniLM mean symmetric share per layer", layer(&enc.trained)),
                below("SmolLM2 mean symmetric share per layer", layer(&dec.trained)),
            ],
        )
        .under(
            "weights: the preceding norm's gain folded in, and MiniLM's biases as a coordinate",
            vec![
                below("MiniLM mean symmetric share per head, folded", sym(&enc.folded)),
                below("SmolLM2 mean symmetric share per head, folded", sym(&dec.folded)),
            ],
        )
        .scope(Test::above("MiniLM mean negative eigenvalue mass", neg(enc), 0.25, 3))
        .scope(Test::above("SmolLM2 mean negative eigenvalue mass", neg(dec), 0.25, 3))
        .setting(format!(
            "every head of all-MiniLM-L6-v2 ({}) and of SmolLM2-135M-Instruct ({}); bounds halfway between a random head (share ½ + 1/(2d), measured {} and {}; mass ½) and a tied one (share 1, mass 0)",
            enc.trained.heads.iter().flatten().count(),
            dec.trained.heads.iter().flatten().count(),
            fixed(sym(&enc.random), 4),
            fixed(sym(&dec.random), 4),
        )),
        Claim::empirical(
            "trained-score-not-similarity",
            "a trained head's score is not the raw similarity of the hidden states it compares",
        )
        .quotes("score-not-direct").zh("训练后注意力头的分数并不是它所比较的隐藏状态之间的原始相似度。")
        .evidence(Evidence::Pretrained)
        .default_choice("token set: without [CLS] and [SEP]; statistic: ρ over each query's keys")
        .core(score(inner(Variant::Trained)))
        .under("token set: every token, [CLS] and [SEP] included", vec![score(rho(Variant::Trained, Tokens::All, Statistic::RhoRows))])
        .under("statistic: ρ over all pairs of a sentence", vec![score(rho(Variant::Trained, Tokens::Inner, Statistic::RhoPairs))])
        .under_each(
            [
                ("model: SmolLM2-135M-Instruct, a causal RoPE decoder; similarity: the normed dot product rms(x)·g its heads read; keys: each query's earlier keys without the first token (the sink)", Similarity::Normed, Keys::Later),
                ("model: SmolLM2-135M-Instruct; similarity: rms(x)·g; keys: each query's earlier keys, the first token included", Similarity::Normed, Keys::All),
                ("model: SmolLM2-135M-Instruct; similarity: cosine; keys: the first token included", Similarity::Cosine, Keys::All),
                ("model: SmolLM2-135M-Instruct; similarity: raw dot product x·x of the stream (the first token's activation dominates it); keys: the first token included", Similarity::Dot, Keys::All),
                ("model: SmolLM2-135M-Instruct; similarity: raw dot product x·x; keys: without the first token", Similarity::Dot, Keys::Later),
            ]
            .map(|(name, sim, keys)| (name.to_string(), vec![decoder(sim, keys)])),
        )
        .scope(Test::below("trained minus tied per-row ρ", inner(Variant::Trained) - inner(Variant::Tied), 0.0, 2))
        .setting(format!(
            "all-MiniLM-L6-v2 on {} sentences ({} tokens), every layer's input hidden states; \
             null: random untied heads on the same states (ρ = {}); tied heads (trained W_Q on both sides) ρ = {}; \
             and SmolLM2-135M-Instruct on {} context sentences ({} tokens), rows with at least 3 earlier keys, \
             similarity rms(x)·g, without the first token: random untied heads ρ = {}, tied heads (unrotated q qᵀ) ρ = {}; \
             trained heads' ρ, 95% interval of {} bootstrap resamples of the sentences: rms(x)·g without the first token {}, with it {}; \
             with it, cosine {}, raw x·x {}",
            t.sentences, t.tokens, fixed(inner(Variant::Random), 2), fixed(inner(Variant::Tied), 2),
            rotating::BOOK.sentences, rope.trained.tokens,
            fixed(mean(rope.trained.rows(Similarity::Normed, Keys::Later, RVariant::Random)), 2),
            fixed(mean(rope.trained.rows(Similarity::Normed, Keys::Later, RVariant::Tied)), 2),
            super::rotating_verdict::BOOTSTRAP.0,
            interval(Similarity::Normed, Keys::Later),
            interval(Similarity::Normed, Keys::All),
            interval(Similarity::Cosine, Keys::All),
            interval(Similarity::Dot, Keys::All),
        )),
        Claim::empirical(
            "encoder-more-symmetric",
            "bidirectional training makes W_QK more symmetric than autoregressive training (Saponati et al. 2025)",
        )
        .zh("双向训练使 W_QK 比自回归训练更对称（Saponati et al. 2025）。")
        .evidence(Evidence::Pretrained)
        .default_choice("unit: one head; weights as stored")
        .core(Test::above(
            "MiniLM minus SmolLM2 mean head share, minus the same for random heads",
            gap(&|s: &Survey| sym(s)),
            0.0,
            3,
        ))
        .under(
            "unit: one layer's Σ_h W_QK (Saponati et al.)",
            vec![Test::above(
                "MiniLM minus SmolLM2 mean layer share, minus the same for random layers",
                gap(&|s: &Survey| layer(s)),
                0.0,
                3,
            )],
        )
        .under(
            "weights: the preceding norm's gain folded in, and MiniLM's biases as a coordinate",
            vec![Test::above(
                "MiniLM minus SmolLM2 mean head share, folded, minus the same for random heads",
                folded_gap,
                0.0,
                3,
            )],
        )
        .replication(
            "Saponati et al. 2025",
            "symmetry score 2·share − 1 of each layer's Σ_h W_Q^h W_K^hᵀ, mean over layers, encoder against decoder",
            Test::above(
                "MiniLM minus SmolLM2 mean layer score",
                mean(&enc.trained.layer_scores) - mean(&dec.trained.layer_scores),
                0.0,
                3,
            ),
        )
        .setting("all-MiniLM-L6-v2 (an encoder) and SmolLM2-135M-Instruct (a decoder); null: random Gaussian heads of each model's shapes"),
        Claim::theorem(
            "inertia-forces-count",
            "the count of negative eigenvalues of S is r for every head of width r < d/2, trained or not",
        )
        .zh("对每个宽度 r < d/2 的头，无论训练与否，S 的负特征值个数都是 r。")
        .evidence(Evidence::Pretrained)
        .core(Test::holds("MiniLM: every trained and random head has r negative eigenvalues", enc.inertia_holds()))
        .core(Test::holds("SmolLM2: every trained and random head has r negative eigenvalues", dec.inertia_holds()))
        .setting("every head of all-MiniLM-L6-v2 and SmolLM2-135M-Instruct, trained and random; Sylvester's law of inertia on S = ½ [W_Q W_K] J [W_Q W_K]ᵀ; eigenvalues below −1e-9·max|λ| counted"),
        Claim::theorem(
            "random-share-theory",
            "a random head's symmetric share is about ½ + 1/(2d)",
        )
        .zh("随机头的对称占比约为 ½ + 1/(2d)。")
        .evidence(Evidence::Random)
        .core(Test::near("MiniLM-shaped random heads, mean share", mean(&enc.random.values(share)), enc.theory(), 0.002, 4))
        .core(Test::near("SmolLM2-shaped random heads, mean share", mean(&dec.random.values(share)), dec.theory(), 0.002, 4))
        .setting(format!("{} random layers per model, seeds {}–{}", f.setup.random_layers, f.setup.seed, f.setup.seed + f.setup.random_layers as u64 - 1)),
    ]
}
