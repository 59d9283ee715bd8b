//! The section's claims, written as predictions before the runs were looked at.

use super::tally::*;
use super::{Variant, book, setup};
use crate::claim::{Claim, Evidence, Test};

/// The section's claims, predictions fixed before the runs were looked at.
pub fn claims() -> Vec<Claim> {
    let (s, f) = (setup(), book());
    let last = s.pairs[s.pairs.len() - 1];
    let first = s.pairs[0];
    let setting = format!(
        "MQAR, vocab {}, T = 4 × pairs, one mixer layer, d = {}, batches of {}; every run trained \
         until its held-out accuracy rose < 0.01 over the last fifth (not before step {}, cap {}); \
         {} seeds per point, rates tuned per mixer and layer on {} other seeds; pairs {:?} at \
         K = V = {}, K = V in {:?} at {} pairs; the other layers at pairs {:?}. \
         At this size it measures how fast each mixer learns, not its capacity",
        s.vocab,
        s.d,
        s.schedule.batch,
        s.min_steps,
        s.schedule.steps,
        s.seeds,
        s.tune_seeds,
        s.pairs,
        s.state,
        s.states,
        s.fixed_pairs,
        s.variant_pairs
    );
    let beta_gap =
        |v: Variant, m: usize| over_seeds(f, v, m, |i| i.beta_values - i.beta_other).mean;
    let hit_gap =
        |v: Variant, m: usize| over_seeds(f, v, m, |i| i.hit_weights - i.hit_similarity).mean;
    let rho = |v: Variant| over_seeds(f, v, DELTANET, |i| i.rho).mean;
    let delta_over_linear = |v: Variant| {
        Test::above(
            format!("DeltaNet − linear mean accuracy at {last} pairs"),
            gap(f, v, DELTANET, LINEAR, last),
            0.05,
            2,
        )
    };
    let ceiling = |v: Variant, mixers: &[usize]| {
        Test::below(
            "largest margin of a recurrent mixer over softmax at any point",
            max(mixers.iter().flat_map(|&m| over_softmax(f, v, m))),
            0.05,
            2,
        )
    };
    // the gates keep: most channels decay slower after training, and KDA
    // recalls as well as DeltaNet, which never forgets
    let keeps = |v: Variant| {
        vec![
            Test::below(
                "KDA: median over channels of ln(trained / initial decay rate)",
                log_ratio(f, v, KDA),
                0.0,
                2,
            ),
            Test::near(
                format!("KDA − DeltaNet mean accuracy at {} pairs", s.fixed_pairs),
                f.mean(v, KDA, s.fixed_pairs, s.state)
                    - f.mean(BOOK, DELTANET, s.fixed_pairs, s.state),
                0.0,
                0.1,
                2,
            ),
        ]
    };
    let spreads = |v: Variant| {
        Test::above(
            "KDA: growth of the channels' ln-rate interquartile range (trained − initial)",
            spread_growth(f, v),
            1.5f64.ln(),
            2,
        )
    };
    let selective = |v: Variant| {
        Test::above(
            "DeltaNet's mean β at value positions − elsewhere",
            beta_gap(v, DELTANET),
            0.1,
            2,
        )
    };
    let not_similarity = |v: Variant| {
        vec![
            Test::below(
                "DeltaNet: Spearman ρ of effective weight vs s q̂·k̂ at query rows",
                rho(v),
                0.5,
                2,
            ),
            Test::above(
                "DeltaNet: answer hit rate of effective weights − of similarities",
                hit_gap(v, DELTANET),
                0.0,
                2,
            ),
        ]
    };
    let recurrent = [LINEAR, DELTANET, GDN, KDA];
    let mut delta = Claim::empirical(
        "learned-delta-recalls-more",
        "the delta correction lets a fixed-size state hold more associations than additive writes (Yang et al. 2024)",
    )
    .zh("Delta 修正使固定大小的状态比加性写入容纳更多的关联（Yang 等 2024）。")
    .evidence(Evidence::Toy)
    .core(delta_over_linear(BOOK))
    .scope(Test::above(
        "smallest DeltaNet − linear difference over every point",
        min(s
            .points(BOOK)
            .into_iter()
            .map(|(p, k)| f.mean(BOOK, DELTANET, p, k) - f.mean(BOOK, LINEAR, p, k))),
        -0.05,
        2,
    ))
    .default_choice(BOOK.name())
    .under(NORM.name(), vec![delta_over_linear(NORM)])
    .replication(
        "Yang et al. 2024",
        format!(
            "DeltaNet against linear attention on MQAR, both with fla's output RMSNorm, \
             {last} pairs at K = V = {}",
            s.state
        ),
        Test::above(
            format!("DeltaNet − linear mean accuracy at {last} pairs, output RMSNorm"),
            gap(f, NORM, DELTANET, LINEAR, last),
            0.0,
            2,
        ),
    )
    .setting(setting.clone());
    delta = trained(
        delta,
        f,
        &[
            (BOOK, LINEAR),
            (BOOK, DELTANET),
            (NORM, LINEAR),
            (NORM, DELTANET),
        ],
    );
    let mut ceiling_claim = Claim::empirical(
        "learned-softmax-ceiling",
        "softmax attention, whose cache grows with T, is the ceiling of recall",
    )
    .zh("缓存随 T 增长的 softmax 注意力是回忆的上限。")
    .evidence(Evidence::Toy)
    .core(ceiling(BOOK, &recurrent))
    .scope(Test::above(
        "softmax's lowest mean accuracy",
        min(s
            .points(BOOK)
            .into_iter()
            .map(|(p, k)| f.mean(BOOK, SOFTMAX, p, k))),
        0.9,
        2,
    ))
    .default_choice(BOOK.name())
    .under(NEAR.name(), vec![ceiling(NEAR, &[GDN, KDA])])
    .under(NORM.name(), vec![ceiling(NORM, &recurrent)])
    .replication(
        "Arora et al. 2023",
        format!(
            "Zoology's MQAR: the gap between attention and linear attention grows with the \
             pairs stored, {first} → {last} pairs at K = V = {}",
            s.state
        ),
        Test::above(
            format!("(softmax − linear) at {last} pairs minus at {first} pairs"),
            gap(f, BOOK, SOFTMAX, LINEAR, last) - gap(f, BOOK, SOFTMAX, LINEAR, first),
            0.0,
            2,
        ),
    )
    .setting(setting.clone());
    ceiling_claim = trained(
        ceiling_claim,
        f,
        &[
            (BOOK, SOFTMAX),
            (BOOK, LINEAR),
            (BOOK, DELTANET),
            (BOOK, GDN),
            (BOOK, KDA),
        ],
    );
    let mut decay = Claim::empirical(
        "learned-decay-retains",
        "where nothing must be forgotten, the learned gates keep",
    )
    .zh("在无需遗忘之处，学习到的门会保留。")
    .evidence(Evidence::Toy)
    .scope(Test::below(
        "Gated DeltaNet: median ln(trained / initial decay rate)",
        log_ratio(f, BOOK, GDN),
        0.0,
        2,
    ))
    .default_choice(BOOK.name())
    .under(NEAR.name(), keeps(NEAR))
    .setting(setting.clone());
    for t in keeps(BOOK) {
        decay = decay.core(t);
    }
    decay = trained(decay, f, &[(BOOK, DELTANET), (BOOK, KDA), (NEAR, KDA)]);
    let spread = trained(
        Claim::empirical(
            "learned-channels-spread",
            "per-channel decay lets channels specialise into slow and fast memories",
        )
        .zh("逐通道衰减让各通道分化为慢记忆和快记忆。")
        .evidence(Evidence::Toy)
        .core(spreads(BOOK))
        .default_choice(BOOK.name())
        .under(NEAR.name(), vec![spreads(NEAR)])
        .setting(setting.clone()),
        f,
        &[(BOOK, KDA), (NEAR, KDA)],
    );
    let beta = trained(
        Claim::empirical(
            "learned-beta-selective",
            "the learned write strength β decides what is written",
        )
        .zh("学到的写入强度 β 决定写入什么。")
        .evidence(Evidence::Toy)
        .core(selective(BOOK))
        .scope(Test::above(
            "KDA's mean β at value positions − elsewhere",
            beta_gap(BOOK, KDA),
            0.1,
            2,
        ))
        .default_choice(BOOK.name())
        .under(NORM.name(), vec![selective(NORM)])
        .setting(setting.clone()),
        f,
        &[(BOOK, DELTANET), (NORM, DELTANET)],
    );
    let mut weights = Claim::empirical(
        "learned-weights-not-similarity",
        "a trained delta layer does not weigh tokens by similarity alone",
    )
    .zh("训练后的 Delta 层并不只按相似度为单标加权。")
    .evidence(Evidence::Toy)
    .default_choice(BOOK.name())
    .under(NORM.name(), not_similarity(NORM))
    .setting(setting);
    // the same bound as the random-weight claim `weights-are-not-similarities`
    for t in not_similarity(BOOK) {
        weights = weights.core(t);
    }
    weights = trained(weights, f, &[(BOOK, DELTANET), (NORM, DELTANET)]);
    vec![delta, ceiling_claim, decay, spread, beta, weights]
}
