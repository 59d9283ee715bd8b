//! Chapter 4's claims: arrows that compose, a prompt that sets the boundary
//! condition, and how far the category picture carries.

use super::{BOOK, DELTA_K, DELTA_T, INSTANCES, SEEDS, TOLERANCE, book, cost};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::sci;
use crate::stats::Summary;

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let l = f.laws;
    let layers = BOOK.layers;
    let stack = format!(
        "{SEEDS} seeds; n = {}, d = {}, {layers} residual attention layers at random weights; \
         importance = leave-one-out effect on the last token",
        BOOK.n, BOOK.d
    );
    // paired over seeds: rollout's agreement with the effect minus raw attention's
    let gain_of = |trials: &[super::Trial]| {
        Summary::of(
            &trials
                .iter()
                .map(|t| t.rho_rollout - t.rho_raw)
                .collect::<Vec<_>>(),
        )
    };
    let gain = gain_of(&f.trials);
    let flat = super::flat();
    let flat_turnover = |l: usize| Summary::over(flat.iter().map(|t| t.turnover[l]));
    // relations alone (the better of raw and rollout) against objects alone
    // (the better of raw similarity and value norm), per seed
    let relations_first = |trials: &[super::Trial]| {
        Summary::of(
            &trials
                .iter()
                .map(|t| t.rho_raw.max(t.rho_rollout) - t.rho_similarity.max(t.rho_value_norm))
                .collect::<Vec<_>>(),
        )
    };
    let trained = &super::trained::book().trained;
    let minilm_relations_first = Summary::of(
        &trained
            .importance
            .iter()
            .filter_map(|i| {
                i.cell(
                    super::trained::importance::Counterfactual::Mean,
                    super::trained::importance::Target::Words,
                    super::trained::importance::Keys::All,
                )
            })
            .map(|c| c.raw.max(c.rollout) - c.object)
            .collect::<Vec<_>>(),
    );
    let wins = f
        .trials
        .iter()
        .filter(|t| t.rho_rollout > t.rho_raw)
        .count() as f64
        / f.trials.len() as f64;
    let turnover = |l: usize| f.summary(|t| t.turnover[l]);
    let deepest_tv = f.summary(|t| t.path_tv[layers - 2]);
    let delta = |field: fn(&super::DeltaTrial) -> f64| f.delta_summary(field).mean;
    let [relations_first_claim, fixed_arrows] = Claim::empirical(
            "relations-before-objects",
            "relations come before objects: which tokens matter to a token is read off the relations between them, not off the tokens themselves",
        )
        .quotes("relations-matter").zh("关系先于对象：哪些单标对一个单标重要，要从它们之间的关系读出，而不是从单标本身读出。")
        .evidence(Evidence::Random)
        .setting(format!(
            "{stack}; the delta rule's effective weights on non-negative unit features, T = {DELTA_T}, K = {DELTA_K}"
        ))
        // stated before the run: the relations alone (attention, raw or composed)
        // rank the tokens' effects better than the objects alone (their raw
        // similarity to the target or their value norms)
        .default_choice(format!("model: the random stack, query sharpness {}", BOOK.sharpness))
        .core(Test::above(
            "lower 95% bound of max ρ(relation, effect) − max ρ(object, effect)",
            relations_first(&f.trials).ci95().0,
            0.0,
            2,
        ))
        .under(
            format!("model: the random stack, query sharpness {}", super::FLAT.sharpness),
            vec![Test::above(
                "lower 95% bound of max ρ(relation, effect) − max ρ(object, effect)",
                relations_first(flat).ci95().0,
                0.0,
                2,
            )],
        )
        .under(
            "model: all-MiniLM-L6-v2, each word's final state, mean ablation (object: cosine of the embeddings)",
            vec![Test::above(
                "lower 95% bound of max ρ(relation, effect) − max ρ(object, effect)",
                minilm_relations_first.ci95().0,
                0.0,
                2,
            )],
        )
        .scope(Test::below(
            "mean row total variation, last layer on its own input vs on the prompt",
            deepest_tv.mean,
            0.05,
            2,
        ))
        .scope(Test::below(
            "share of negative delta-rule weights (linear attention's share is 0)",
            delta(|t| t.delta_negative),
            delta(|t| t.linear_negative) + 0.01,
            2,
        ))
        // the same criterion for both: an arrow once each row is divided by its sum
        .scope(Test::above(
            "share of delta-rule rows that division by their sum makes stochastic \
             (bound: linear attention's share − 0.01)",
            delta(|t| t.delta_normalised),
            delta(|t| t.linear_normalised) - 0.01,
            2,
        ))
    .ask(
        "relations-are-fixed-arrows",
        "the measured relations behave as fixed arrows of one category: a layer's relation does not depend on the states it is applied to, and delta-rule relations are stochastic maps",
        "测得的关系表现为同一个范畴中固定的箭头：一层的关系不依赖于它作用的状态，Delta 规则的关系是随机映射。",
        |_| true,
    );
    let flat_tv = Summary::over(flat.iter().map(|t| t.path_tv[layers - 2]));
    let mut flat_core = fixed_arrows.core.clone();
    flat_core[0] = Test::below(
        flat_core[0].quantity.clone(),
        flat_tv.mean,
        flat_core[0].bound,
        2,
    );
    let fixed_arrows = fixed_arrows
        .default_choice(format!(
            "model: the random stack, query sharpness {}",
            BOOK.sharpness
        ))
        .under(
            format!(
                "model: the random stack, query sharpness {}",
                super::FLAT.sharpness
            ),
            flat_core,
        );
    vec![
        Claim::theorem(
            "arrows-compose",
            "attention matrices are arrows of a category: row-stochastic maps compose, with identities",
        )
        .zh("注意力矩阵是一个范畴中的箭头：行随机映射可以复合，并且有恒等映射。")
        .evidence(Evidence::Random)
        .setting(format!(
            "{INSTANCES} random triples of stochastic matrices; tolerance {}",
            sci(TOLERANCE, 1)
        ))
        .core(Test::below("largest deviation from the identity law", l.identity, TOLERANCE, 2))
        .core(Test::below("largest deviation of a composite's row sums from 1", l.row_sum, TOLERANCE, 2))
        .core(Test::below("largest deviation from associativity", l.associativity, TOLERANCE, 2))
        .core(Test::holds(
            "every composite is stochastic",
            l.closed == INSTANCES && l.min_entry >= 0.0,
        )),
        // If relations compose, the composite (rollout) must explain the
        // stack's effect better than the last layer's own arrow.
        Claim::empirical(
            "composite-explains-the-stack",
            "what a stack computes is the composition of its layers' relations",
        )
        .zh("一个堆叠所计算的，是其各层关系的复合。")
        .evidence(Evidence::Random)
        .setting(stack.clone())
        .default_choice(format!("query sharpness {} ($W_Q$ scaled)", BOOK.sharpness))
        .core(Test::above(
            "lower 95% bound of Spearman ρ(rollout, effect) − ρ(raw last layer, effect)",
            gain.ci95().0,
            0.0,
            2,
        ))
        .under(
            format!("query sharpness {} (flatter attention)", super::FLAT.sharpness),
            vec![Test::above(
                "lower 95% bound of Spearman ρ(rollout, effect) − ρ(raw last layer, effect)",
                gain_of(flat).ci95().0,
                0.0,
                2,
            )],
        )
        .scope(Test::above("share of seeds on which rollout agrees better", wins, 0.5, 2)),
        // Softmax over a fixed set of tokens keeps their order whatever the prefix adds.
        Claim::theorem(
            "first-layer-relations-are-fixed",
            "a first layer's relations among fixed tokens do not depend on the rest of the prompt",
        )
        .zh("第一层在一组固定单标之间的关系不取决于提示词的其余部分。")
        .evidence(Evidence::Random)
        .setting(stack.clone())
        .core(Test::near(
            "share of suffix tokens whose strongest suffix partner changes, layer 1",
            turnover(0).mean,
            0.0,
            0.0,
            2,
        )),
        Claim::empirical(
            "prompt-is-a-boundary-condition",
            "relations are built under the boundary condition the prompt sets",
        )
        .quotes("temporary-relations").zh("关系是在提示词设定的边界条件下构建的。")
        .evidence(Evidence::Random)
        .setting(format!(
            "{stack}; a new prefix of {} tokens before a fixed suffix",
            BOOK.prefix
        ))
        .core(Test::above(
            "lower 95% bound of the partner turnover in the rollout",
            turnover(layers).ci95().0,
            0.0,
            2,
        ))
        .core(Test::above(
            "lower 95% bound of the partner turnover in the last layer",
            turnover(layers - 1).ci95().0,
            0.0,
            2,
        ))
        .default_choice(format!("query sharpness {} ($W_Q$ scaled)", BOOK.sharpness))
        .under(
            format!("query sharpness {} (flatter attention)", super::FLAT.sharpness),
            vec![
                Test::above(
                    "lower 95% bound of the partner turnover in the rollout",
                    flat_turnover(layers).ci95().0,
                    0.0,
                    2,
                ),
                Test::above(
                    "lower 95% bound of the partner turnover in the last layer",
                    flat_turnover(layers - 1).ci95().0,
                    0.0,
                    2,
                ),
            ],
        ),
        // Fixed morphisms would not depend on the objects they are applied to.
        relations_first_claim,
        fixed_arrows,
    ]
    .into_iter()
    .chain([relations_cost()])
    .chain(super::trained::claims())
    .collect()
}

/// The essay's price of flexibility: a head that must discover its relations
/// pays for each one in training steps; a model given their structure does not.
fn relations_cost() -> Claim {
    let f = cost::book();
    let s = f.setup;
    let (k1, kmax) = (s.ks[0], s.ks[s.ks.len() - 1]);
    let [own, diff] = f.growth_ci();
    let [own_strict, diff_strict] = f.growth_ci_of(|c| &c.steps_strict);
    let claim = Claim::empirical(
        "relations-cost-training",
        "learning k relations costs a learned head steps that grow with k, faster than when the relations' structure is given",
    )
    .zh("学习 k 种关系时，可学习头所需的步数随 k 增长，且比关系结构已给定时增长得快。")
    .evidence(Evidence::Toy)
    .setting(format!(
        "k = {:?} relations key = q + r (r < k) over {} keys, context of {} keys q … q + {}, \
         one untied head of width {} (query: the pair's own embedding) against the \
         relations' structure given (query: the key the relation names, $W_{{QK}} = I$); \
         {} seeds per (arm, k), each at the rate tuned on {} other seeds over {:?}; \
         steps to test accuracy {} read off the curve; every run to a plateau (accuracy rose < 0.01 over the last fifth, none before step {}) with a cap of {} steps (unreached counted as {})",
        s.ks,
        s.vocab,
        s.context,
        s.context - 1,
        s.d,
        s.seeds,
        s.tuning_seeds,
        s.lrs,
        s.schedule.threshold,
        s.min_steps,
        s.schedule.steps,
        cost::beyond(s)
    ))
    .core(Test::above(
        format!("lower 95% bound of the learned head's median steps at k = {kmax} minus at k = {k1}"),
        own.0,
        0.0,
        0,
    ))
    .core(Test::above(
        format!("lower 95% bound of that growth minus the given structure's, k = {k1} → {kmax}"),
        diff.0,
        0.0,
        0,
    ))
    .default_choice(format!("steps counted to test accuracy {}", s.schedule.threshold))
    .under(
        format!("steps counted to test accuracy {}", cost::STRICT),
        vec![
            Test::above(
                format!("lower 95% bound of the learned head's median steps at k = {kmax} minus at k = {k1}"),
                own_strict.0,
                0.0,
                0,
            ),
            Test::above(
                format!("lower 95% bound of that growth minus the given structure's, k = {k1} → {kmax}"),
                diff_strict.0,
                0.0,
                0,
            ),
        ],
    )
    .scope(Test::above(
        format!("share of learned-head seeds reaching the threshold at k = {kmax} (flexible)"),
        f.cell(cost::Arm::Learned, kmax).reached(s),
        0.9,
        2,
    ));
    f.cells.iter().fold(claim, |c, cell| {
        let capped = cell.capped.iter().filter(|&&x| x).count();
        c.trained(
            &format!("{} k = {}", cell.arm.name(), cell.k),
            capped,
            cell.capped.len(),
        )
    })
}
