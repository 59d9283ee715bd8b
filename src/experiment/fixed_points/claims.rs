//! Chapter 5's claims: what iterating attention converges to, which fixed
//! point exists, where an energy exists, and whether heads and layers absorb
//! the mismatch.

use super::collapse::{self, BOOK};
use super::energy::{self, EnergyRun};
use super::trained_absorption::{self as trained, CHAPTER};
use super::{absorption, equilibrium};
use crate::absorption::Mechanism;
use crate::claim::{Claim, Evidence, Test};
use crate::fixed_point::Variant;
use crate::stats::median;

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let c = collapse::book();
    let max = |xs: Vec<f64>| xs.into_iter().fold(f64::NEG_INFINITY, f64::max);
    let min = |xs: Vec<f64>| xs.into_iter().fold(f64::INFINITY, f64::min);
    let iterated = format!(
        "{} seeds; tied random layers iterated {} times on n = {} tokens of width {}",
        BOOK.seeds, BOOK.steps, BOOK.n, BOOK.d
    );
    let t = trained::book();
    let tb = trained::BOOK;
    let f = absorption::book();
    vec![
        Claim::theorem(
            "pure-attention-collapses",
            "iterated pure attention converges, but only by collapsing every token onto one (Dong et al. 2021)",
        )
        .evidence(Evidence::Random)
        .setting(iterated.clone())
        .core(Test::below("largest final residual, pure attention", max(c.last_residuals(Variant::Attention)), 1e-12, 2))
        .core(Test::below("largest final spread of the tokens, pure attention", max(c.last_collapse(Variant::Attention)), 1e-12, 2)),
        Claim::theorem(
            "injected-contraction-converges",
            "under an architectural constraint (an injected input and a contraction) the iteration converges to a unique fixed point",
        )
        .evidence(Evidence::Random)
        .setting(format!("{iterated}; contraction bound c = {}", BOOK.contraction))
        .core(Test::below("largest observed per-step rate", max(c.injected_rates()), BOOK.contraction, 2))
        .core(Test::below("largest final residual", max(c.last_residuals(Variant::Injected)), 1e-12, 2))
        .core(Test::above("smallest final spread of the tokens (no collapse)", min(c.last_collapse(Variant::Injected)), 0.5, 2)),
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
            median(&c.last_residuals(Variant::ResidualNorm)),
            1e-3,
            4,
        )),
        Claim::construction(
            "hidden-fixed-point-is-architectural",
            "a hidden-state fixed point exists at any weights that satisfy the constraint; only the data-level residual can be lowered by training",
        )
        .evidence(Evidence::Random)
        .setting(format!("{} seeds; random weights with the constraint g(θ) = 0", BOOK.seeds))
        .core(Test::holds(
            "every seed reaches its hidden fixed point (residual < 1e-12) while the data stay off it (> 1e-3)",
            equilibrium::book().equilibria.iter().all(|e| {
                e.constraint == 0.0 && e.hidden_residual < 1e-12 && e.data_residual > 1e-3
            }),
        )),
        Claim::theorem(
            "tied-energy-descends",
            "an energy view exists for attention: with a tied form, the Hopfield energy never rises",
        )
        .evidence(Evidence::Random)
        .setting(format!("{} seeds; Hopfield updates, β = {}", energy::BOOK.seeds, energy::BOOK.beta))
        .core(Test::below(
            "largest energy rise, tied form",
            max(energy::book().tied.iter().map(EnergyRun::max_rise).collect()),
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
        training_absorbs(
            t.gap(false),
            format!(
                "{} seeds per architecture, {} Adam steps, each at its learning rate tuned on {} \
                 separate seeds (grid {:?}, extended at an edge); four tied architectures \
                 (two tied heads with residual path and self-attention) against one untied head",
                tb.seeds, tb.schedule.steps, tb.tuning_seeds, tb.lrs
            ),
        ),
        // "Training lowers the fixed-point residual": the data-level residual
        // of the trained layers ends below where it started, and a lower
        // residual goes with a better model.
        Claim::empirical(
            "training-lowers-the-residual",
            "training lowers the fixed-point residual under them",
        )
        .evidence(Evidence::Toy)
        .setting(format!(
            "{} seeds × {} architectures at their tuned rates, {} Adam steps; data-level \
             residual √(Σ‖f(x) − x‖² / Σ‖x‖²) of the trained layers on {} held-out inputs, \
             every {} steps; baseline: the same model at initialisation",
            tb.seeds,
            CHAPTER.len(),
            tb.schedule.steps,
            tb.schedule.test,
            tb.schedule.eval_every
        ))
        .core(Test::above(
            "share of runs whose final residual is below their residual at initialisation",
            t.lowered_share(),
            0.5,
            2,
        ))
        .scope(Test::below(
            "median over runs of Spearman ρ between residual and test accuracy across evaluations",
            t.within_run_rho_median(),
            0.0,
            2,
        ))
        .scope(Test::below(
            "mean over architectures of Spearman ρ between final residual and final accuracy across seeds",
            t.across_seeds_rho_mean(),
            0.0,
            2,
        )),
    ]
    .into_iter()
    .chain(super::trained::claims())
    .collect()
}

/// If training finds the absorbing solutions, some tied architecture ends
/// close to what the untied head reaches: `gap` is the best tied
/// architecture's mean final accuracy minus the untied head's.
pub(super) fn training_absorbs(gap: f64, setting: String) -> Claim {
    Claim::empirical(
        "training-absorbs-the-mismatch",
        "heads, layers and residual paths absorb the mismatch",
    )
    .evidence(Evidence::Toy)
    .setting(setting)
    .core(Test::above(
        "best tied architecture's final accuracy minus the untied head's",
        gap,
        -0.1,
        2,
    ))
}
