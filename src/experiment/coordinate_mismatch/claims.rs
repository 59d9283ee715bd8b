//! Chapter 1's claims: what the essay predicts of a score, and what the
//! book measures of random heads (the trained heads' claims sit beside them).

use super::{BOOK, Coupling, LARGER, SEEDS, Setup, book, larger};
use crate::claim::{Claim, Evidence, Test};
use crate::stats::mean;

/// A score keeps no raw order: |ρ| < 0.1 and own-best-match below twice chance.
fn no_order(f: &super::Findings, setup: Setup) -> Vec<Test> {
    let untied = f.survey(Coupling::Untied);
    vec![
        Test::below(
            "|mean Spearman ρ|, raw dot product vs untied score",
            untied.summary(|t| t.rho).mean.abs(),
            0.1,
            3,
        ),
        Test::below(
            "own-best-match rate, untied (chance 1/n)",
            untied.summary(|t| t.self_match).mean,
            2.0 / setup.n as f64,
            3,
        ),
    ]
}

/// A collapsing projection moves distance ranks more than a full-width one.
fn collapse(f: &super::Findings) -> Test {
    Test::above(
        "mean rank shift, d_k = d/4, minus d_k = d",
        mean(&f.shift_collapsed) - mean(&f.shift_full),
        0.0,
        3,
    )
}

/// Some pair's distance rank moves across half the ranking under a
/// full-width projection: a close pair becomes far, or a far pair close.
fn moved(f: &super::Findings) -> Test {
    Test::above(
        "largest rank shift of a pair (share of all pairs), d_k = d",
        f.shift_full.iter().copied().fold(0.0, f64::max),
        0.5,
        3,
    )
}

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let untied = f.survey(Coupling::Untied);
    let tied = f.survey(Coupling::Tied);
    let identity = f.survey(Coupling::Identity);
    let chance = BOOK.k as f64 / (BOOK.n - 1) as f64;
    let knn = untied.summary(|t| t.knn);
    let d = BOOK.d as f64;
    let setting = format!(
        "{SEEDS} seeds; n = {}, d = d_k = {}; Gaussian tokens and projections; \
         baseline: the identity and tied couplings on the same tokens",
        BOOK.n, BOOK.d
    );
    // A raw similarity would keep the raw order (ρ = 1, as the identity
    // does); "not a raw similarity" predicts no order kept at all.
    let [score, at_chance] = Claim::empirical(
            "score-not-similarity",
            "an untied head's score does not rank token pairs by their raw similarity",
        )
        .quotes("score-not-direct").zh("独立投影的注意力头给出的分数，并不按原始相似度为单标对排序。")
        .evidence(Evidence::Random)
        .setting(setting.clone())
        .default_choice(format!("size: n = {}, d = d_k = {}", BOOK.n, BOOK.d))
        .core(no_order(f, BOOK)[0].clone())
        .core(no_order(f, BOOK)[1].clone())
        .under(
            format!("size: n = {}, d = d_k = {}", LARGER.n, LARGER.d),
            no_order(larger(), LARGER),
        )
        .scope(Test::below(
            "upper 95% bound of the untied k-NN overlap minus chance",
            knn.ci95().1 - chance,
            0.0,
            3,
        ))
        .ask(
            "score-neighbours-at-chance",
            "at initialisation, an untied head's nearest neighbours by score share no more with the raw nearest neighbours than chance",
            "初始化时，按分数排出的近邻与原始近邻的重合不超过随机水平。",
            |_| true,
        );
    let larger_knn = larger().survey(Coupling::Untied).summary(|t| t.knn);
    let at_chance = at_chance
        .default_choice(format!("size: n = {}, d = d_k = {}", BOOK.n, BOOK.d))
        .under(
            format!("size: n = {}, d = d_k = {}", LARGER.n, LARGER.d),
            vec![Test::below(
                "upper 95% bound of the untied k-NN overlap minus chance",
                larger_knn.ci95().1 - LARGER.k as f64 / (LARGER.n - 1) as f64,
                0.0,
                3,
            )],
        );
    vec![
        score,
        at_chance,
        Claim::theorem(
            "tied-is-a-similarity",
            "with $W_Q = W_K$ the score is a similarity: $W_Q W_Q^\\top$ is symmetric and positive semi-definite",
        )
        .zh("当 $W_Q = W_K$ 时，分数是一种相似度：$W_Q W_Q^\\top$ 对称且半正定。")
        .evidence(Evidence::Random)
        .setting(setting.clone())
        .core(Test::near(
            "symmetric share of $W_{QK}$, tied",
            tied.summary(|t| t.symmetric_share).mean,
            1.0,
            1e-12,
            3,
        ))
        .core(Test::near(
            "share of negative eigenvalues of $S$, tied",
            tied.summary(|t| t.negative_eigenvalues).mean,
            0.0,
            0.0,
            3,
        )),
        Claim::construction(
            "identity-is-raw",
            "with $W_Q = W_K = I$ the score is the raw dot product",
        )
        .zh("当 $W_Q = W_K = I$ 时，分数就是原始点积。")
        .evidence(Evidence::Random)
        .setting(setting.clone())
        .core(Test::near(
            "mean Spearman ρ, identity",
            identity.summary(|t| t.rho).mean,
            1.0,
            1e-12,
            3,
        ))
        .core(Test::near(
            "k-NN overlap, identity",
            identity.summary(|t| t.knn).mean,
            1.0,
            0.0,
            3,
        )),
        // E‖S‖² / E‖W_QK‖² = (d² + d)/(2d²) for independent Gaussian factors.
        Claim::theorem(
            "untied-is-indefinite",
            "an untied $W_{QK}$ is an indefinite, half-antisymmetric bilinear form",
        )
        .zh("独立投影的 $W_{QK}$ 是一个不定双线性形式，反对称部分占一半。")
        .evidence(Evidence::Random)
        .setting(setting.clone())
        .core(Test::near(
            "symmetric share of $W_{QK}$, untied (theory $\\tfrac12 + \\tfrac1{2d}$)",
            untied.summary(|t| t.symmetric_share).mean,
            (d * d + d) / (2.0 * d * d),
            0.02,
            3,
        ))
        .core(Test::near(
            "share of negative eigenvalues of $S$, untied",
            untied.summary(|t| t.negative_eigenvalues).mean,
            0.5,
            0.05,
            3,
        )),
        Claim::theorem(
            "only-the-product-is-identifiable",
            "Q and K live in two coordinate systems — but only $W_Q W_K^\\top$ enters a score, so the two systems are not identifiable",
        )
        .zh("Q 和 K 处于两个坐标系中——但进入分数的只有 $W_Q W_K^\\top$，所以这两个坐标系不可辨识。")
        .evidence(Evidence::Random)
        .setting(setting)
        .core(Test::below(
            "largest relative score change under $W_Q \\to W_Q A$, $W_K \\to W_K A^{-\\top}$",
            f.regauge_change.iter().copied().fold(0.0, f64::max),
            1e-9,
            3,
        )),
        // x ↦ x W with a random W moves the distance ranks at every width:
        // the essay's "may become far, may become close", shown by construction.
        Claim::construction(
            "projection-moves-ranks",
            "a projection moves the ranks of pairwise distances: pairs that were close may be far after it, and far pairs close",
        )
        .quotes("near-far-swap")
        .zh("投影会改变成对距离的排序：原本接近的单标对投影后可能变远，原本较远的可能变近。")
        .evidence(Evidence::Random)
        .setting(format!(
            "{SEEDS} seeds; pairwise-distance ranks before and after x ↦ x W, d = d_k = {}; \
             the identity moves none",
            BOOK.d
        ))
        .default_choice(format!("size: n = {}, d = {}", BOOK.n, BOOK.d))
        .core(moved(f))
        .under(format!("size: n = {}, d = {}", LARGER.n, LARGER.d), vec![moved(larger())]),
        Claim::empirical(
            "collapse-moves-ranks",
            "a collapsing projection (d_k < d) moves distance ranks more than a full-width one",
        )
        .zh("坍缩投影（d_k < d）比满宽投影更多地改变距离的排序。")
        .evidence(Evidence::Random)
        .setting(format!(
            "{SEEDS} seeds; pairwise-distance ranks before and after x ↦ x W, d = {}, d_k = d and d/4; \
             unrelated orders move by 1/3",
            BOOK.d
        ))
        .default_choice(format!("size: n = {}, d = {}", BOOK.n, BOOK.d))
        .core(collapse(f))
        .under(
            format!("size: n = {}, d = {}", LARGER.n, LARGER.d),
            vec![collapse(larger())],
        )
        .scope(Test::below(
            "mean rank shift, d_k = d/4 (unrelated: 1/3)",
            mean(&f.shift_collapsed),
            1.0 / 3.0,
            3,
        )),
    ]
    .into_iter()
    .chain(super::trained_verdict::claims())
    .chain(super::rotating_verdict::claims())
    .collect()
}
