//! Chapter 5's claims: what iterating attention converges to, which fixed
//! point exists, where an energy exists, and whether heads and layers absorb
//! the mismatch.

use super::{BOOK, SEEDS, TIED, TRAIN_SCHEDULE, TRAIN_SEEDS, UNTIED, book};
use crate::absorption::Mechanism;
use crate::claim::{Claim, Evidence, Test};
use crate::experiment::fixed_points::EnergyRun;
use crate::fixed_point::Variant;
use crate::stats::median;

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let last = |v: Variant, pick: fn(&super::Trajectory) -> f64| -> Vec<f64> {
        f.variant(v).iter().map(pick).collect()
    };
    let residual = |t: &super::Trajectory| t.residual[BOOK.steps - 1];
    let collapse = |t: &super::Trajectory| t.collapse[BOOK.steps];
    let max = |xs: Vec<f64>| xs.into_iter().fold(f64::NEG_INFINITY, f64::max);
    let min = |xs: Vec<f64>| xs.into_iter().fold(f64::INFINITY, f64::min);
    let rate = max(f
        .variant(Variant::Injected)
        .iter()
        .map(|t| (t.residual[20] / t.residual[5]).powf(1.0 / 15.0))
        .collect());
    let iterated = format!(
        "{SEEDS} seeds; tied random layers iterated {} times on n = {} tokens of width {}",
        BOOK.steps, BOOK.n, BOOK.d
    );
    let end = TRAIN_SCHEDULE.steps;
    let best_tied = TIED
        .iter()
        .map(|&a| f.trained_accuracy(a, end).mean)
        .fold(f64::NEG_INFINITY, f64::max);
    vec![
        Claim::theorem(
            "pure-attention-collapses",
            "iterated pure attention converges, but only by collapsing every token onto one (Dong et al. 2021)",
        )
        .evidence(Evidence::Random)
        .setting(iterated.clone())
        .core(Test::below("largest final residual, pure attention", max(last(Variant::Attention, residual)), 1e-12, 2))
        .core(Test::below("largest final spread of the tokens, pure attention", max(last(Variant::Attention, collapse)), 1e-12, 2)),
        Claim::theorem(
            "injected-contraction-converges",
            "under an architectural constraint (an injected input and a contraction) the iteration converges to a unique fixed point",
        )
        .evidence(Evidence::Random)
        .setting(format!("{iterated}; contraction bound c = {}", BOOK.contraction))
        .core(Test::below("largest observed per-step rate", rate, BOOK.contraction, 2))
        .core(Test::below("largest final residual", max(last(Variant::Injected, residual)), 1e-12, 2))
        .core(Test::above("smallest final spread of the tokens (no collapse)", min(last(Variant::Injected, collapse)), 0.5, 2)),
        // "Computes by iteration toward a fixed point" predicts that the
        // standard layer, iterated, settles.
        Claim::empirical(
            "standard-layers-settle",
            "the network computes by iteration toward a neural fixed point",
        )
        .evidence(Evidence::Random)
        .setting(format!("{iterated}; the standard residual + LayerNorm layer"))
        .core(Test::below(
            "median final residual, residual + norm",
            median(&last(Variant::ResidualNorm, residual)),
            1e-3,
            4,
        )),
        Claim::construction(
            "hidden-fixed-point-is-architectural",
            "a hidden-state fixed point exists at any weights that satisfy the constraint; only the data-level residual can be lowered by training",
        )
        .evidence(Evidence::Random)
        .setting(format!("{SEEDS} seeds; random weights with the constraint g(θ) = 0"))
        .core(Test::holds(
            "every seed reaches its hidden fixed point (residual < 1e-12) while the data stay off it (> 1e-3)",
            f.equilibria.iter().all(|e| {
                e.constraint == 0.0 && e.hidden_residual < 1e-12 && e.data_residual > 1e-3
            }),
        )),
        Claim::theorem(
            "tied-energy-descends",
            "an energy view exists for attention: with a tied form, the Hopfield energy never rises",
        )
        .evidence(Evidence::Random)
        .setting(format!("{SEEDS} seeds; Hopfield updates, β = {}", super::HOPFIELD_BETA))
        .core(Test::below(
            "largest energy rise, tied form",
            max(f.tied_energy.iter().map(EnergyRun::max_rise).collect()),
            1e-12,
            2,
        )),
        Claim::construction(
            "heads-and-layers-can-absorb",
            "heads and layers can absorb the constraint a tied form sets; a residual path cannot",
        )
        .evidence(Evidence::Toy)
        .setting("hand-set weights on the three-token successor task")
        .core(Test::near("best tied head", f.mechanism(Mechanism::TiedHead).mean, 2.0 / 3.0, 1e-12, 3))
        .core(Test::near("tied head with a residual path", f.mechanism(Mechanism::TiedResidual).mean, 2.0 / 3.0, 1e-12, 3))
        .core(Test::near("two tied heads", f.mechanism(Mechanism::TwoTiedHeads).mean, 1.0, 0.0, 3))
        .core(Test::near("two tied layers", f.mechanism(Mechanism::TwoTiedLayers).mean, 1.0, 0.0, 3)),
        // If training finds the absorbing solutions, some tied architecture
        // ends close to what the untied head reaches.
        Claim::empirical(
            "training-absorbs-the-mismatch",
            "heads, layers and residual paths absorb the mismatch",
        )
        .evidence(Evidence::Toy)
        .setting(format!(
            "{TRAIN_SEEDS} seeds per architecture, {end} Adam steps at learning rate {}; \
             four tied architectures against one untied head",
            TRAIN_SCHEDULE.lr
        ))
        .core(Test::above(
            "best tied architecture's final accuracy minus the untied head's",
            best_tied - f.trained_accuracy(UNTIED, end).mean,
            -0.1,
            2,
        )),
    ]
}
