//! Chapter 5's claims: what iterating attention converges to, which fixed
//! point exists, where an energy exists, and whether heads and layers absorb
//! the mismatch.

use super::collapse::{self, BOOK};
use super::energy::{self, EnergyRun};
use super::trained_absorption::{self as trained, CHAPTER};
use super::trained_residual::Residual;
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
        .zh("反复迭代纯注意力会收敛，但只能靠把所有单标坍缩到同一点（Dong et al. 2021）。")
        .evidence(Evidence::Random)
        .setting(iterated.clone())
        .core(Test::below("largest final residual, pure attention", max(c.last_residuals(Variant::Attention)), 1e-12, 2))
        .core(Test::below("largest final spread of the tokens, pure attention", max(c.last_collapse(Variant::Attention)), 1e-12, 2)),
        Claim::theorem(
            "injected-contraction-converges",
            "under an architectural constraint (an injected input and a contraction) the iteration converges to a unique fixed point",
        )
        .zh("在架构约束（注入输入，且层是压缩映射）下，迭代收敛到唯一的不动点。")
        .evidence(Evidence::Random)
        .setting(format!("{iterated}; contraction bound c = {}", BOOK.contraction))
        .core(Test::below("largest observed per-step rate", max(c.injected_rates()), BOOK.contraction, 2))
        .core(Test::below("largest final residual", max(c.last_residuals(Variant::Injected)), 1e-12, 2))
        .core(Test::above("smallest final spread of the tokens (no collapse)", min(c.last_collapse(Variant::Injected)), 0.5, 2)),
        // "Computes by iteration toward a fixed point" predicts that the
        // standard layer, iterated, settles.
        Claim::empirical(
            "standard-layers-settle",
            "a standard attention layer, iterated with its weights fixed, settles to a static fixed point",
        )
        .zh("标准注意力层在权重固定时反复迭代，会收敛到一个静态不动点。")
        .evidence(Evidence::Random)
        .setting(format!("{iterated}; the standard residual + LayerNorm layer"))
        .default_choice(format!("size: {} iterations of {} tokens of width {}", BOOK.steps, BOOK.n, BOOK.d))
        .core(settles(median(&c.last_residuals(Variant::ResidualNorm))))
        .under(
            format!("size: {} iterations", collapse::LONGER.steps),
            vec![settles(collapse::median_last_residual(collapse::LONGER, Variant::ResidualNorm))],
        )
        .under(
            format!("size: {} tokens of width {}", collapse::WIDER.n, collapse::WIDER.d),
            vec![settles(collapse::median_last_residual(collapse::WIDER, Variant::ResidualNorm))],
        ),
        Claim::construction(
            "hidden-fixed-point-is-architectural",
            "a hidden-state fixed point exists at any weights that satisfy the constraint; only the data-level residual can be lowered by training",
        )
        .zh("只要权重满足约束，隐状态不动点就存在；训练能降低的只有数据层面的残差。")
        .evidence(Evidence::Random)
        .setting(format!("{} seeds; random weights with the constraint ψ(θ) = 0", BOOK.seeds))
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
        .zh("注意力有一种能量视角：采用共享形式时，Hopfield 能量从不上升。")
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
            "a tied form's constraint can be absorbed by more heads or layers, but not by a residual path",
        )
        .zh("绑定形式带来的约束可以被更多的头或层吸收，但不能被残差路径吸收。")
        .evidence(Evidence::Toy)
        .setting("hand-set weights on the three-token successor task")
        .core(Test::near("best tied head", f.mechanism(Mechanism::TiedHead).mean, 2.0 / 3.0, 1e-12, 3))
        .core(Test::near("tied head with a residual path", f.mechanism(Mechanism::TiedResidual).mean, 2.0 / 3.0, 1e-12, 3))
        .core(Test::near("two tied heads", f.mechanism(Mechanism::TwoTiedHeads).mean, 1.0, 0.0, 3))
        .core(Test::near("two tied layers", f.mechanism(Mechanism::TwoTiedLayers).mean, 1.0, 0.0, 3)),
        training_absorbs(t),
        // "Training lowers the fixed-point residual": the scale-invariant
        // residual of a model that learns the task ends below that of the
        // same seed trained for as long on shuffled labels (same data, same
        // initialisation, nothing to learn), and a lower residual goes with
        // a better model.
        Claim::empirical(
            "training-lowers-the-residual",
            "training lowers the fixed-point residual under the architecture's constraint, below a shuffled-label null",
        )
        .quotes("constraints-residual").zh("训练在架构约束下降低不动点残差，且低于打乱标签的零假设。")
        .evidence(Evidence::Toy)
        .setting(format!(
            "{} seeds × {} architectures at their tuned rates, to a plateau (cap {} steps); \
             residuals of the trained layers on {} held-out inputs every {} steps; null: seeds \
             0–{} of each architecture trained as long on shuffled labels",
            tb.seeds,
            CHAPTER.len(),
            tb.schedule.steps,
            tb.schedule.test,
            tb.schedule.eval_every,
            tb.null_seeds - 1
        ))
        .default_choice("residual: turn ρ = mean over tokens of 1 − cos(f(x)_t, x_t)")
        .core(Test::above(
            "share of runs whose final residual is below their shuffled-label null's",
            t.below_null(Residual::Turn),
            0.5,
            2,
        ))
        .under(
            "residual: output q = ‖f(x) − x‖ / ‖f(x)‖ (the DEQ residual at z = x)",
            vec![Test::above(
                "share of runs whose final residual is below their shuffled-label null's",
                t.below_null(Residual::Output),
                0.5,
                2,
            )],
        )
        .under(
            "residual: data r = ‖f(x) − x‖ / ‖x‖ (grows with the outputs' scale)",
            vec![Test::above(
                "share of runs whose final residual is below their shuffled-label null's",
                t.below_null(Residual::Data),
                0.5,
                2,
            )],
        )
        .scope(Test::below(
            "median over runs of Spearman ρ between turn residual and test accuracy across evaluations",
            t.within_run_rho_median(Residual::Turn),
            0.0,
            2,
        ))
        .trained_arms(t),
    ]
    .into_iter()
    .chain(super::trained::claims())
    .chain(super::lens_verdict::claims())
    .chain(super::looped::claims())
    .collect()
}

/// The standard layer's prediction: its iteration settles.
fn settles(median_final: f64) -> Test {
    Test::below(
        "median final residual, residual + norm",
        median_final,
        1e-3,
        4,
    )
}

/// If training finds the absorbing solutions, some tied architecture ends
/// close to what the untied head reaches: the gap is the best tied
/// architecture's mean final accuracy minus the untied head's, at the
/// plateau (the default) and after the earlier fixed budget.
fn training_absorbs(t: &trained::Findings) -> Claim {
    let tb = t.setup;
    let gap = |g: f64| {
        Test::above(
            "best tied architecture's final accuracy minus the untied head's",
            g,
            -0.1,
            2,
        )
    };
    Claim::empirical(
        "training-absorbs-the-mismatch",
        "trained from scratch, a tied architecture can replace the untied head: more tied heads or layers reach its accuracy",
    )
    .zh("从头训练时，绑定结构可以取代非绑定头：更多的绑定头或层能达到它的准确率。")
    .evidence(Evidence::Toy)
    .setting(format!(
        "{} seeds per architecture, each at its learning rate tuned on {} separate seeds over \
         a fixed budget of {} steps (grid {:?}, extended at an edge); four tied architectures \
         (two tied heads with residual path and self-attention) against one untied head",
        tb.seeds, tb.tuning_seeds, tb.budget, tb.lrs
    ))
    .default_choice(format!(
        "stopping: the plateau rule (accuracy rose < {} over the last fifth, after {} steps; cap {})",
        tb.plateau.tolerance, tb.plateau.min_steps, tb.schedule.steps
    ))
    .core(gap(t.gap(None)))
    .under(
        format!("stopping: after {} steps, the earlier protocol's fixed budget", tb.budget),
        vec![gap(t.gap(Some(tb.budget)))],
    )
    .trained_arms(t)
}

/// Each of the chapter's trained architectures' plateau status.
trait TrainedArms {
    fn trained_arms(self, t: &trained::Findings) -> Claim;
}

impl TrainedArms for Claim {
    fn trained_arms(self, t: &trained::Findings) -> Claim {
        let names = trained::architectures(t.setup.task);
        CHAPTER.iter().fold(self, |c, &a| {
            c.trained(names[a].0, t.capped(a), t.setup.seeds as usize)
        })
    }
}
