//! Chapter 2's claims on the trained encoder: the weight against the effect
//! under every counterfactual, target and key set; the sinks; the locality of
//! one pass. Predictions as the essay makes them, written before the run.

use super::decoder_claims;
use super::permuted::DRAWS;
use super::sensitivity::Effect;
use super::sensitivity::Keys;
use super::trained::{BOOK, Direction, EPSILONS, HeadStats, book};
use super::trained_report::{effects, gap, mean_of, over_null};
use crate::claim::{Claim, Evidence, Test};
use crate::pretrained::corpus::Model;
use crate::pretrained::counterfactual::{Counterfactual, Target};
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::pretrained::paraphrase::{corpus, sentences};

/// The weight-versus-norm core tests under one choice, on `heads` (`per` to a
/// sentence): the norm ranks the effect better than the weight does, and
/// better than the same norms permuted across the keys (the lower end of the
/// 95% interval over sentences above zero).
pub fn weight_core(heads: &[HeadStats], per: usize, effect: Effect, keys: Keys) -> Vec<Test> {
    vec![
        Test::above(
            "mean ρ(‖αf‖, E) − ρ(α, E), trained",
            gap(heads, effect, keys),
            0.05,
            2,
        ),
        Test::above(
            "ρ(‖αf‖, E) − ρ(α‖f_π‖, E), ‖f_j‖ permuted across keys, trained: lower end of the 95% interval over sentences",
            over_null(heads, per, effect, keys).ci95().0,
            0.0,
            3,
        ),
    ]
}

/// The name of a choice of the encoder's.
fn choice(effect: Effect, keys: Keys) -> String {
    format!(
        "counterfactual: {}; target: {}; keys: {}",
        effect.counterfactual(),
        effect.target(),
        keys.name()
    )
}

/// The default effect: knockout at the head's output.
const DEFAULT: Effect = Effect::Head(Target::Head, Counterfactual::Knockout);

/// Every choice but the default, `(name, effect, keys)`.
pub fn choices() -> Vec<(String, Effect, Keys)> {
    let mut out = Vec::new();
    for effect in effects() {
        for keys in Keys::ALL {
            if (effect, keys) != (DEFAULT, Keys::All) {
                out.push((choice(effect, keys), effect, keys));
            }
        }
    }
    out
}

/// The section's claims, predictions as the essay makes them.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let trained = &f.side(Model::Trained).heads[..];
    let m = |model, g: fn(&HeadStats) -> f64| mean_of(f, model, g);
    let sink = |model| m(model, |s| s.special_weight) - m(model, |s| s.special_norm);
    let data_sink =
        |model| m(model, |s| s.sensitivity.sink_weight) - m(model, |s| s.sensitivity.sink_norm);
    let fnorm = |model| m(model, |s| s.sensitivity.rho_weight_fnorm);
    let small = |model, d| f.error_along(model, d, None, 1).mean;
    let large = |model, d| f.error_along(model, d, None, EPSILONS.len() - 1).mean;
    let kobayashi_sinks = || {
        Test::above(
            "weight share − norm share of [CLS], [SEP], punctuation, trained",
            sink(Model::Trained),
            0.0,
            2,
        )
    };
    let weight = choices().into_iter().fold(
        Claim::empirical(
            "trained-weight-not-effect",
            "a trained head's weight alone does not show what it computes: the weight times the value's norm predicts a token's effect better",
        )
        .zh("训练后注意力头的权重本身并不显示它计算了什么：权重乘以 Value 的范数更能预测一个单标的作用。")
        .evidence(Evidence::Pretrained)
        .default_choice(choice(DEFAULT, Keys::All))
        .setting(format!(
            "MiniLM-L6, 72 heads × {} corpus sentences; E = the change a key's removal makes; \
             ρ Spearman over keys, mean over queries, heads, sentences; \
             null: ‖f_j‖ permuted across the keys ranked ({DRAWS} permutations per head and sentence), \
             95% interval over sentences; value zeroing at the head's own output is left out \
             (there E = α‖f‖ by definition); \
             and SmolLM2-135M-Instruct, 270 heads × {} context sentences, ρ over each query's \
             visible keys (queries with at least three); \
             the sign of ρ(‖αf‖, E) − ρ(α, E) is decided by the counterfactual (knockout and \
             mean-value ablation: negative while the sink is ranked; value zeroing: positive) and by \
             whether the sink key is ranked (left out: positive), not by the target",
            sentences(&corpus()).len(),
            BOOK.decoder
        )),
        |c, (name, e, k)| c.under(name, weight_core(trained, LAYERS * HEADS, e, k)),
    );
    let weight = weight.under_each(decoder_claims::weight_choices());
    let weight = weight_core(trained, LAYERS * HEADS, DEFAULT, Keys::All)
        .into_iter()
        .fold(weight, Claim::core)
        .replication(
            "Kobayashi et al. 2020",
            "α against ‖αf(x)‖ per head, §4.1: the weight and the norm [CLS], [SEP] and punctuation receive",
            kobayashi_sinks(),
        )
        .replication(
            "Kobayashi et al. 2020",
            "Spearman ρ(α_ij, ‖f(x_j)‖) per head, §4.2: α and ‖f(x)‖ cancel",
            Test::below(
                format!("mean ρ(α, ‖f(x)‖), trained (random: {})", crate::measure::number(fnorm(Model::Random), 2)),
                fnorm(Model::Trained),
                0.0,
                2,
            ),
        );
    let xiao = decoder_claims::xiao();
    let token = Direction::OneToken;
    let spread = Direction::Spread;
    vec![
        weight,
        Claim::empirical(
            "trained-sinks-take-weight-not-norm",
            "the weight a token receives is not the information it sends",
        )
        .quotes("qk-place-v-carries").zh("一个单标得到的权重并不是它送出的信息。")
        .evidence(Evidence::Pretrained)
        .default_choice("token set: [CLS], [SEP] and punctuation")
        .core(Test::above("weight share − norm share of [CLS], [SEP], punctuation, trained", sink(Model::Trained), 0.1, 2))
        .under(
            "token set: each head's sink from the data (the key that receives most weight)",
            vec![Test::above("weight share − norm share of the sink, trained", data_sink(Model::Trained), 0.1, 2)],
        )
        .scope(Test::below("the same difference, random weights", sink(Model::Random).abs(), 0.1, 2))
        .scope(decoder_claims::sink_scope())
        .replication(
            "Kobayashi et al. 2020",
            "α against ‖αf(x)‖ per head, §4.1",
            kobayashi_sinks(),
        )
        .under_each(decoder_claims::sink_choices())
        .replication("Xiao et al. 2023", xiao[0].0.clone(), xiao[0].1.clone())
        .replication("Xiao et al. 2023", xiao[1].0.clone(), xiao[1].1.clone())
        .setting(format!("all-MiniLM-L6-v2: mean over 72 heads and every corpus sentence; SmolLM2-135M-Instruct: mean over 270 heads and {} context sentences, every query but the first (it sees only itself); weight share of token 0: mean over queries of α_i0; its norm share: Σ_i ‖α_i0 f_0‖ / Σ_ij ‖α_ij f_j‖", BOOK.decoder)),
        Claim::empirical(
            "trained-pass-is-local",
            "one forward pass exposes a local deformation, not the learned map",
        )
        .quotes("local-deformation").zh("一次前向传播只暴露一个局部形变，而不是学到的整个映射。")
        .evidence(Evidence::Pretrained)
        .default_choice("direction: Gaussian over every token")
        .core(Test::below(format!("first-order error at ε = {}, trained", EPSILONS[1]), small(Model::Trained, spread), 0.05, 3))
        .core(Test::above(format!("first-order error at ε = {}, trained", EPSILONS[EPSILONS.len() - 1]), large(Model::Trained, spread), 0.3, 2))
        .under(
            "direction: Gaussian on one word",
            vec![
                Test::below(format!("first-order error at ε = {}, trained", EPSILONS[1]), small(Model::Trained, token), 0.05, 3),
                Test::above(format!("first-order error at ε = {}, trained", EPSILONS[EPSILONS.len() - 1]), large(Model::Trained, token), 0.3, 2),
            ],
        )
        .scope(Test::above("error at the largest ε, trained − random", large(Model::Trained, spread) - large(Model::Random, spread), 0.0, 2))
        .setting(format!("all-MiniLM-L6-v2: each of 6 layers at {} corpus sentences, one Gaussian direction each, ‖z‖ = ‖x‖; null: random weights", f.setup.local)),
    ]
}
