//! Chapter 7's claims: what delta correction and per-channel decay buy, how
//! far the delta rule's weights are from a similarity, and what the chunked
//! form computes.

use super::{
    CAPACITY_D, COST_C, COST_D, OVERWRITE_AFTER, OVERWRITE_BEFORE, SEEDS, WEIGHTS_K, WEIGHTS_T,
    Write, book, crossover, hybrid_cache_saving,
};
use crate::claim::{Claim, Evidence, Test};
use crate::delta::{flops_chunked, flops_softmax};
use crate::stats::Summary;

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = book();
    // paired over seeds: the additive memory's retrieval error minus the delta rule's, n = K
    let gain = {
        let (a, d) = (
            Write::ALL.iter().position(|&w| w == Write::Additive),
            Write::ALL.iter().position(|&w| w == Write::Delta),
        );
        let (a, d) = (a.expect("additive"), d.expect("delta"));
        let n = super::CAPACITY_N
            .iter()
            .position(|&n| n == CAPACITY_D)
            .expect("n = K is measured");
        Summary::of(
            &f.capacity[a][n]
                .iter()
                .zip(&f.capacity[d][n])
                .map(|(x, y)| x - y)
                .collect::<Vec<_>>(),
        )
    };
    let (_, gdn) = f.decay.best_gdn();
    let (_, _, kda) = f.decay.best_kda();
    let mean_pair = |e: (f64, f64)| (e.0 + e.1) / 2.0;
    let t_big = 1usize << 20;
    vec![
        Claim::empirical(
            "delta-correction-buys-capacity",
            "KDA updates its state by delta correction: it replaces what a key recalls instead of adding to it",
        )
        .evidence(Evidence::Random)
        .core(Test::above(
            "lower 95% bound of the retrieval-error gain (additive − delta) at n = K pairs",
            gain.ci95().0,
            0.0,
            2,
        ))
        .core(Test::below(
            "overwrite error, delta minus additive",
            f.overwrite_of(Write::Delta).mean - f.overwrite_of(Write::Additive).mean,
            0.0,
            2,
        ))
        .setting(format!(
            "{SEEDS} seeds; random unit keys and values, K = V = {CAPACITY_D}; overwrite: one key rewritten \
             among {OVERWRITE_BEFORE} pairs, then {OVERWRITE_AFTER} more; baseline: the additive memory on the same pairs"
        )),
        // A per-channel gate contains every scalar gate (equal channels), so
        // on the grid searched it can only tie or win: checked, not supported.
        Claim::construction(
            "per-channel-decay-contains-scalar",
            "per-channel decay can keep slow facts while forgetting a fast stream, which one scalar gate cannot",
        )
        .evidence(Evidence::Random)
        .setting(format!(
            "{SEEDS} seeds; a task with slow facts and a fast stream; the best gate of each kind on one grid"
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
            "attention is not mainly a similarity: the delta rule's effective weight on a token is not its similarity to the query",
        )
        .evidence(Evidence::Random)
        .setting(format!(
            "{SEEDS} seeds; DeltaNet on random unit q, k, T = {WEIGHTS_T}, K = {WEIGHTS_K}; \
             baseline: the similarities q·k that linear attention uses"
        ))
        .core(Test::below(
            "mean Spearman ρ, effective weight vs q·k",
            f.weight_summary(|w| w.rho).mean,
            0.5,
            2,
        ))
        .scope(Test::above(
            "share of pairs whose sign flips",
            f.weight_summary(|w| w.sign_flips).mean,
            0.1,
            2,
        )),
        Claim::theorem(
            "chunked-equals-recurrent",
            "the chunkwise form computes the same operator as the recurrence",
        )
        .evidence(Evidence::Random)
        .setting("random KDA inputs over several lengths, widths and chunk sizes")
        .core(Test::below("largest difference, chunked vs recurrent", f.chunk_error, 1e-10, 2))
        .core(Test::below(
            "largest error of the difference form over the decay sweep",
            f.difference_error(),
            1e-10,
            2,
        ))
        .core(Test::holds(
            "the factorised form e^Γ_r · e^−Γ_j fails somewhere in the decay sweep",
            f.factorised_failure().is_some(),
        )),
        Claim::theorem(
            "chunked-costs-less",
            "the chunked delta rule costs O(T) where softmax attention costs O(T²)",
        )
        .evidence(Evidence::Random)
        .setting(format!("flop counts, K = V = {COST_D}, chunks of {COST_C}"))
        .core(Test::above(
            "softmax flops over chunked flops at T = 2^20",
            flops_softmax(t_big, COST_D, COST_D) / flops_chunked(t_big, COST_D, COST_D, COST_C),
            1.0,
            0,
        ))
        .core(Test::holds(
            "the chunked form wins from a finite length on",
            crossover() < t_big,
        ))
        .core(Test::above("cache saved by a 3:1 hybrid at 2^20 tokens", hybrid_cache_saving(t_big), 0.5, 2)),
    ]
}
