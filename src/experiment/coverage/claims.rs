//! Chapter 2's claims: pieces of the mathematical coverage, the locality of
//! one pass's view, and what an attention pattern does and does not tell.

use super::attribution::{self, TrialField};
use super::drift::{self, epsilons};
use super::head::{self, Tokens};
use super::pieces::{self, net_name};
use super::prompts;
use crate::claim::{Claim, Evidence, Test};
use crate::stats::Summary;

/// Stacking multiplies pieces: `hidden` has more pieces than one layer of the same units.
fn deeper(f: &pieces::Findings, hidden: &[usize]) -> Test {
    Test::above(
        format!("pieces of {} over pieces of 32", net_name(hidden)),
        f.over_shallow(hidden),
        1.0,
        2,
    )
}

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = attribution::book();
    let p = pieces::book();
    let count = |net: &[usize]| p.mean_of(net);
    let at = |eps: f64| {
        epsilons()
            .iter()
            .position(|&e| (e - eps).abs() < 1e-12)
            .expect("ε is swept")
    };
    let small = at(0.01);
    let prompt_change = Summary::of(&prompts::book().prompt_change).ci95().0;
    let local = |k: usize| {
        let (relu_changed, head_changed) = drift::book().changed(k);
        vec![
            Test::above(
                "share of seeds whose head Jacobian changed, minus the ReLU network's",
                head_changed - relu_changed,
                0.5,
                2,
            ),
            Test::above(
                "lower 95% bound of the head Jacobian's relative change under a new prompt",
                prompt_change,
                0.1,
                2,
            ),
        ]
    };
    let heads = format!(
        "{} seeds; one random head, n = {}, d = {}, d_k = d_v = {}",
        attribution::BOOK.seeds,
        head::BOOK.n,
        head::BOOK.d,
        head::BOOK.d_head
    );
    let varied = |field: TrialField| f.summary(Tokens::Varied, field);
    let explains = |tokens: Tokens| {
        let m = |field: TrialField| f.summary(tokens, field).mean;
        vec![
            Test::above(
                "mean ρ(carried norm, effect) − mean ρ(weight, effect)",
                m(|t| t.norm_loo) - m(|t| t.weight_loo),
                0.0,
                2,
            ),
            Test::below(
                "share of prompts where the heaviest token is the most effective",
                m(|t| t.top_agree),
                0.9,
                2,
            ),
        ]
    };
    let worst = |field: TrialField| {
        Tokens::ALL
            .iter()
            .map(|&t| f.summary(t, field).mean)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    vec![
        // Stacking layers should cut along earlier cuts and so multiply the
        // pieces (Montúfar et al. 2014): at equal units, deeper has more.
        pieces::VARIED.iter().zip(pieces::varied()).fold(
            Claim::empirical(
                "stacked-piecewise-manifold",
                "stacking ReLU layers multiplies their linear pieces: a deep net cuts its input into more pieces than a wide one with as many units",
            )
            .zh("堆叠 ReLU 层会使线性分片成倍增加：单元数相同时，深网络切出的分片多于宽网络。")
            .evidence(Evidence::Random)
            .setting(format!(
                "{} seeds; ReLU networks on the plane [-{w}, {w}]², He-initialised weights; \
                 pieces counted on a lattice; null: one layer of the same 32 units",
                pieces::BOOK.seeds,
                w = pieces::BOOK.window,
            ))
            .default_choice("initialisation: biases N(0, 1); lattice: 80² points")
            .core(deeper(p, &[16, 16]))
            .core(deeper(p, &[8, 8, 8, 8]))
            .scope(Test::above(
                "pieces of 32 units over pieces of 8 units, one layer",
                count(&[32]) / count(&[8]),
                1.0,
                2,
            ))
            .replication(
                "Hanin and Rolnick 2019",
                "pieces at initialisation, equal units, depth varied",
                Test::near(
                    format!("pieces of {} over pieces of 32", net_name(&[8, 8, 8, 8])),
                    p.over_shallow(&[8, 8, 8, 8]),
                    1.0,
                    0.5,
                    2,
                ),
            ),
            |c, ((name, _), v)| c.under(*name, vec![deeper(v, &[16, 16]), deeper(v, &[8, 8, 8, 8])]),
        ),
        // A ReLU map is exact on its piece; a head's tangent map moves with any move.
        Claim::empirical(
            "one-pass-is-a-local-view",
            "one forward pass of a head exposes a local view, set by the prompt: its Jacobian changes with the prompt",
        )
        .quotes("attention-is-physical").zh("注意力头的一次前向传播只给出由提示词决定的局部视角：它的雅可比矩阵随提示词而变。")
        .evidence(Evidence::Random)
        .setting(format!(
            "{} seeds; the Jacobian of one causal head and of a ReLU network [2, 16, 16, 1] \
             after a move of ε = 0.01; two prompts under the same weights",
            drift::BOOK.seeds
        ))
        .default_choice("move: ε = 0.01")
        .core(local(small)[0].clone())
        .core(local(small)[1].clone())
        .under("move: ε = 0.001", local(at(0.001)))
        .under("move: ε = 0.1", local(at(0.1))),
        Claim::theorem(
            "qk-places-ov-carries",
            "Q and K decide where weight goes; V carries what moves",
        )
        .quotes("qk-place-v-carries").zh("Q 和 K 决定权重放在哪里；V 携带被移动的内容。")
        .evidence(Evidence::Random)
        .setting(format!("{heads}; the OV parts of two heads swapped"))
        .core(Test::near(
            "largest change of any weight",
            worst(|t| t.swap_pattern),
            0.0,
            0.0,
            2,
        ))
        .core(Test::above(
            "mean relative change of the output (varied norms)",
            varied(|t| t.swap_output).mean,
            0.1,
            2,
        )),
        // If weights explained the computation they would rank tokens as their
        // effects do at least as well as any other one-pass quantity.
        Claim::empirical(
            "pattern-is-not-the-explanation",
            "an attention pattern is a view of the routing, not the explanation of what the model computes",
        )
        .quotes("attention-is-physical").zh("注意力模式是路由的一个视角，而不是对模型所计算内容的解释。")
        .evidence(Evidence::Random)
        .setting(format!("{heads}; tokens of varied norm; importance = leave-one-out effect"))
        .default_choice("tokens: varied norms")
        .core(explains(Tokens::Varied)[0].clone())
        .core(explains(Tokens::Varied)[1].clone())
        .under("tokens: isotropic", explains(Tokens::Isotropic)),
        Claim::theorem(
            "patterns-are-not-identifiable",
            "with at least two more tokens than value dimensions, different patterns give the same output",
        )
        .zh("单标数比 Value 的维数至少多 2 时，不同的注意力模式给出相同的输出。")
        .evidence(Evidence::Random)
        .setting(format!("{heads}; a pattern built in the null space of V"))
        .core(Test::below(
            "largest output difference of the equivalent pattern",
            worst(|t| t.equivalent_output),
            1e-9,
            2,
        ))
        .core(Test::above(
            "mean total variation of the equivalent pattern from α",
            varied(|t| t.equivalent_tv).mean,
            0.05,
            2,
        )),
    ]
    .into_iter()
    .chain(super::trained_claims::claims())
    .collect()
}
