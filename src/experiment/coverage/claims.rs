//! Chapter 2's claims: pieces of the mathematical coverage, the locality of
//! one pass's view, and what an attention pattern does and does not tell.

use super::attribution::{self, TrialField};
use super::drift::{self, epsilons};
use super::head::{self, Tokens};
use super::pieces::{self, net_name};
use super::prompts;
use crate::claim::{Claim, Evidence, Test};
use crate::stats::Summary;

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = attribution::book();
    let count = |net: &[usize]| {
        let k = pieces::BOOK
            .nets
            .iter()
            .position(|n| *n == net)
            .expect("a counted network");
        pieces::book().count(k).mean
    };
    let small = epsilons()
        .iter()
        .position(|&e| (e - 0.01).abs() < 1e-12)
        .expect("ε = 0.01 is swept");
    let (relu_changed, head_changed) = drift::book().changed(small);
    let heads = format!(
        "{} seeds; one random head, n = {}, d = {}, d_k = d_v = {}",
        attribution::BOOK.seeds,
        head::BOOK.n,
        head::BOOK.d,
        head::BOOK.d_head
    );
    let varied = |field: TrialField| f.summary(Tokens::Varied, field);
    let worst = |field: TrialField| {
        Tokens::ALL
            .iter()
            .map(|&t| f.summary(t, field).mean)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    vec![
        // Stacking layers should cut along earlier cuts and so multiply the
        // pieces (Montúfar et al.); at initialisation Hanin and Rolnick find it does not.
        Claim::empirical(
            "stacked-piecewise-manifold",
            "the learned model is a stacked piecewise manifold: layers cut the input space into linear pieces, and stacking cuts along earlier cuts",
        )
        .evidence(Evidence::Random)
        .setting(format!(
            "{} seeds; ReLU networks on the plane at random weights; pieces counted on a lattice",
            pieces::BOOK.seeds
        ))
        .core(Test::above(
            "pieces of 32 units over pieces of 8 units, one layer",
            count(&[32]) / count(&[8]),
            1.0,
            2,
        ))
        .scope(Test::above(
            format!("pieces of {} over pieces of {}", net_name(&[16, 16]), net_name(&[32])),
            count(&[16, 16]) / count(&[32]),
            2.0,
            2,
        )),
        // A ReLU map is exact on its piece; a head's tangent map moves with any move.
        Claim::empirical(
            "one-pass-is-a-local-view",
            "attention is a physical coverage: one pass exposes a local view, set by the prompt",
        )
        .evidence(Evidence::Random)
        .setting(format!(
            "{} seeds; the Jacobian of one causal head and of a ReLU network [2, 16, 16, 1] \
             after a move of ε = 0.01; two prompts under the same weights",
            drift::BOOK.seeds
        ))
        .core(Test::above(
            "share of seeds whose head Jacobian changed, minus the ReLU network's",
            head_changed - relu_changed,
            0.5,
            2,
        ))
        .core(Test::above(
            "lower 95% bound of the head Jacobian's relative change under a new prompt",
            Summary::of(&prompts::book().prompt_change).ci95().0,
            0.1,
            2,
        )),
        Claim::theorem(
            "qk-places-ov-carries",
            "Q and K decide where weight goes; V carries what moves",
        )
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
        .evidence(Evidence::Random)
        .setting(format!("{heads}; tokens of varied norm; importance = leave-one-out effect"))
        .core(Test::above(
            "mean ρ(carried norm, effect) − mean ρ(weight, effect)",
            varied(|t| t.norm_loo).mean - varied(|t| t.weight_loo).mean,
            0.0,
            2,
        ))
        .core(Test::below(
            "share of prompts where the heaviest token is the most effective",
            varied(|t| t.top_agree).mean,
            0.9,
            2,
        )),
        Claim::theorem(
            "patterns-are-not-identifiable",
            "with fewer value dimensions than tokens, different patterns give the same output",
        )
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
    .chain(super::trained::claims())
    .collect()
}
