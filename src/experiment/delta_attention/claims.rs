//! Chapter 7's claims: what delta correction and per-channel decay buy, how
//! far the delta rule's weights are from a similarity, and what the chunked
//! form computes.

use super::capacity::{self, Write};
use super::{chunkwise, cost, decay, overwrite, stability, token_weights};
use crate::claim::{Claim, Evidence, Test};
use crate::delta::{flops_chunked, flops_softmax};
use crate::stats::Summary;

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let k = capacity::BOOK.d;
    // the same tests at half the memory width, a choice a referee would vary
    const NARROW: usize = capacity::BOOK.d / 2;
    let narrow = capacity::Setup {
        d: NARROW,
        pairs: &[NARROW],
        seeds: capacity::BOOK.seeds,
    };
    let capacity_tests = |cap: &capacity::Findings, over: &overwrite::Findings| {
        let n = cap.setup.d;
        let i = cap
            .setup
            .pairs
            .iter()
            .position(|&p| p == n)
            .expect("n = K is measured");
        // paired over seeds: the additive memory's retrieval error minus the delta rule's, n = K
        let gain = Summary::of(
            &cap.errors[Write::Additive.index()][i]
                .iter()
                .zip(&cap.errors[Write::Delta.index()][i])
                .map(|(a, d)| a - d)
                .collect::<Vec<_>>(),
        );
        vec![
            Test::above(
                "lower 95% bound of the retrieval-error gain (additive − delta) at n = K pairs",
                gain.ci95().0,
                0.0,
                2,
            ),
            Test::below(
                "overwrite error, delta minus additive",
                over.of(Write::Delta).mean - over.of(Write::Additive).mean,
                0.0,
                2,
            ),
        ]
    };
    let book_tests = capacity_tests(capacity::book(), overwrite::book());
    let narrow_tests = capacity_tests(
        &capacity::Findings::run(narrow),
        &overwrite::Findings::run(overwrite::Setup {
            d: k / 2,
            ..overwrite::BOOK
        }),
    );
    let d = decay::book();
    let (_, gdn) = d.best_gdn();
    let (_, _, kda) = d.best_kda();
    let mean_pair = |e: (f64, f64)| (e.0 + e.1) / 2.0;
    let w = token_weights::book();
    let wide = token_weights::Findings::run(token_weights::Setup {
        k: 2 * token_weights::BOOK.k,
        ..token_weights::BOOK
    });
    let st = stability::book();
    let c = cost::BOOK;
    let t_big = 1usize << 20;
    vec![
        Claim::empirical(
            "delta-correction-buys-capacity",
            "KDA updates its state by delta correction: it replaces what a key recalls instead of adding to it",
        )
        .quotes("kda").zh("KDA 通过 Delta 修正更新状态：它替换一个键所召回的内容，而不是叠加上去。")
        .evidence(Evidence::Random)
        .core(book_tests[0].clone())
        .core(book_tests[1].clone())
        .default_choice(format!("memory width K = V = {k}"))
        .under(format!("memory width K = V = {}", k / 2), narrow_tests)
        .setting(format!(
            "{} seeds; random unit keys and values, K = V = {k}; overwrite: one key rewritten \
             among {} pairs, then {} more; baseline: the additive memory on the same pairs",
            capacity::BOOK.seeds,
            overwrite::BOOK.before,
            overwrite::BOOK.after
        )),
        // A per-channel gate contains every scalar gate (equal channels), so
        // on the grid searched it can only tie or win: checked, not supported.
        Claim::construction(
            "per-channel-decay-contains-scalar",
            "per-channel decay can keep slow facts while forgetting a fast stream, which one scalar gate cannot",
        )
        .zh("逐通道衰减可以在遗忘快速流的同时保留缓慢的事实，单一标量门做不到。")
        .evidence(Evidence::Random)
        .setting(format!(
            "{} seeds; a task with slow facts and a fast stream; the best gate of each kind on one grid",
            decay::BOOK.seeds
        ))
        .core(Test::below(
            "best per-channel error minus best scalar error",
            mean_pair(kda) - mean_pair(gdn),
            1e-12,
            3,
        )),
        // A similarity would keep the similarity's order (ρ = 1); "not mainly
        // a similarity" predicts that it keeps less than half of it.
        Claim::empirical(
            "weights-are-not-similarities",
            "the delta rule's effective weight on a token is not its similarity to the query (Spearman ρ below 0.5)",
        )
        .zh("Delta 规则对一个单标的有效权重不是它与查询的相似度（Spearman ρ 低于 0.5）。")
        .evidence(Evidence::Random)
        .default_choice(format!("key width K = {}", token_weights::BOOK.k))
        .under(
            format!("key width K = {}", 2 * token_weights::BOOK.k),
            vec![Test::below(
                "mean Spearman ρ, effective weight vs q·k",
                wide.summary(|w| w.rho).mean,
                0.5,
                2,
            )],
        )
        .setting(format!(
            "{} seeds; DeltaNet on random unit q, k, T = {}, K = {}; \
             baseline: the similarities q·k that linear attention uses",
            token_weights::BOOK.seeds,
            token_weights::BOOK.t,
            token_weights::BOOK.k
        ))
        .core(Test::below(
            "mean Spearman ρ, effective weight vs q·k",
            w.summary(|w| w.rho).mean,
            0.5,
            2,
        ))
        .scope(Test::above(
            "share of pairs whose sign flips",
            w.summary(|w| w.sign_flips).mean,
            0.1,
            2,
        )),
        Claim::theorem(
            "chunked-equals-recurrent",
            "the chunkwise form computes the same operator as the recurrence",
        )
        .zh("分块形式与递推形式计算的是同一个算子。")
        .evidence(Evidence::Random)
        .setting("random KDA inputs over several lengths, widths and chunk sizes")
        .core(Test::below("largest difference, chunked vs recurrent", chunkwise::book().error, 1e-10, 2))
        .core(Test::below(
            "largest error of the difference form over the decay sweep",
            st.difference_error(),
            1e-10,
            2,
        ))
        .core(Test::holds(
            "the factorised form e^Γ_r · e^−Γ_j fails somewhere in the decay sweep",
            st.factorised_failure().is_some(),
        )),
        Claim::theorem(
            "chunked-costs-less",
            "the chunked delta rule costs O(T) where softmax attention costs O(T²)",
        )
        .zh("分块 delta 规则的代价是 O(T)，而 softmax 注意力的代价是 O(T²)。")
        .evidence(Evidence::Random)
        .setting(format!("flop counts, K = V = {}, chunks of {}", c.d, c.chunk))
        .core(Test::above(
            "softmax flops over chunked flops at T = 2^20",
            flops_softmax(t_big, c.d, c.d) / flops_chunked(t_big, c.d, c.d, c.chunk),
            1.0,
            0,
        ))
        .core(Test::holds(
            "the chunked form wins from a finite length on",
            c.crossover() < t_big,
        ))
        .core(Test::above("cache saved by a 3:1 hybrid at 2^20 tokens", c.hybrid_cache_saving(t_big), 0.5, 2)),
    ]
    .into_iter()
    .chain(super::recall::claims())
    .chain(super::budget::claims(super::budget::findings()))
    .chain(super::operator::claims::claims())
    .collect()
}
