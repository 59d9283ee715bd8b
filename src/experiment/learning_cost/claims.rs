//! Chapter 6's claims: the learning cost of untied projections, where it is
//! paid, and what a symmetric form cannot learn at all.

use super::arm::Variant;
use super::steps::{BOOK, book};
use crate::claim::{Claim, Evidence, Source, Test};
use crate::stats::median;
use crate::train::{Qk, Relation};

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let arm = |r, qk, v| f.arm(r, qk, v);
    let steps = |qk, v| median(&arm(Relation::Match, qk, v).steps(f.setup));
    let rise = |v| {
        let rho = arm(Relation::Match, Qk::Untied, v).curve(|r| &r.rho);
        rho.last().expect("a curve").0 - rho[0].0
    };
    let scarce = Variant::Examples(BOOK.examples[0]);
    let plenty = Variant::Examples(BOOK.examples[1]);
    let trained = format!(
        "{} seeds per arm, to a plateau (accuracy rose < {} over the last fifth, after {} steps; \
         cap {}), learning rates tuned on {} separate seeds over {:?} on a fixed budget of {} \
         steps; one head, d = {}, {} keys, context {}; threshold {}",
        BOOK.seeds,
        BOOK.plateau.tolerance,
        BOOK.plateau.min_steps,
        BOOK.cap,
        BOOK.tuning_seeds,
        BOOK.lrs,
        BOOK.schedule.steps,
        BOOK.d,
        BOOK.vocab,
        BOOK.context,
        BOOK.schedule.threshold
    );
    let reached = |r, qk| arm(r, qk, Variant::Clean).reached() as f64 / BOOK.seeds as f64;
    let cost = |v| {
        vec![
            Test::above(
                "median steps to threshold, untied minus tied",
                steps(Qk::Untied, v) - steps(Qk::Tied, v),
                0.0,
                0,
            ),
            Test::above(
                "rise of the untied head's rank agreement with raw similarity during training",
                rise(v),
                0.2,
                2,
            ),
        ]
    };
    let gap = |baseline, v| {
        Test::above(
            "final accuracy, baseline minus untied",
            arm(Relation::Match, baseline, v).accuracy().mean
                - arm(Relation::Match, Qk::Untied, v).accuracy().mean,
            0.0,
            2,
        )
    };
    let status = |c: Claim, arms: &[(Relation, Qk, Variant)]| {
        arms.iter().fold(c, |c, &(r, qk, v)| {
            let a = arm(r, qk, v);
            let name = format!("{} {} {}", r.name(), qk.name(), v.name());
            c.trained(&name, a.capped(), a.runs.len())
        })
    };
    let [c0, c1] = cost(Variant::Clean).try_into().expect("two tests");
    let m = Relation::Match;
    vec![
        // The cost: an untied head must rebuild the similarity its random
        // start broke, so it needs more steps than a head that starts tied.
        status(
            Claim::empirical(
                "untied-pays-a-learning-cost",
                "tolerable is not efficient: the model pays a learning cost to rediscover the geometry its projections broke",
            )
            .original("但可以容忍并不等于高效。模型可能需要付出显著的学习成本，才能在原始几何已经被打碎之后，重新发现有用的几何结构。")
            .evidence(Evidence::Toy)
            .setting(format!("{trained}; the match task, where raw similarity is the right geometry; baseline: tied and mimetic heads"))
            .default_choice("task: one head, fresh examples every step")
            .core(c0)
            .core(c1)
            .under("task: two layers with residual paths", cost(Variant::TwoLayer))
            .under(format!("task: one head, a fixed set of {} examples", BOOK.examples[1]), cost(plenty))
            .scope(Test::above(
                "share of seeds on which a tied head learns the directional successor task",
                reached(Relation::Successor, Qk::Tied),
                0.5,
                2,
            )),
            &[
                (m, Qk::Untied, Variant::Clean),
                (m, Qk::Tied, Variant::Clean),
                (m, Qk::Untied, Variant::TwoLayer),
                (m, Qk::Tied, Variant::TwoLayer),
                (m, Qk::Untied, plenty),
                (m, Qk::Tied, plenty),
            ],
        ),
        status(
            Claim::empirical(
                "the-cost-grows-with-scarce-data",
                "the learning cost is paid in data as well as in steps",
            )
            .source(Source::Book)
            .zh("学习成本不仅以训练步数支付，也以数据支付。")
            .evidence(Evidence::Toy)
            .setting(format!("{trained}; the match task with {} training examples", BOOK.examples[0]))
            .default_choice("baseline: the tied head")
            .core(gap(Qk::Tied, scarce))
            .under("baseline: the mimetic head (untied, initialised at $W_{QK} \\approx I$)", vec![gap(Qk::Mimetic, scarce)]),
            &[
                (m, Qk::Untied, scarce),
                (m, Qk::Tied, scarce),
                (m, Qk::Mimetic, scarce),
            ],
        ),
        // x W Wᵀ yᵀ is symmetric in x and y, so a tied head scores q → q + 1
        // exactly as q + 1 → q: it cannot follow a cycle.
        Claim::theorem(
            "a-symmetric-form-cannot-learn-a-direction",
            "a symmetric bilinear form cannot express a directional relation",
        )
        .source(Source::Book)
        .zh("对称双线性形式无法表达有方向的关系。")
        .evidence(Evidence::Toy)
        .setting(format!("{trained}; the successor task"))
        .core(Test::near("share of seeds a tied head reaches the threshold", reached(Relation::Successor, Qk::Tied), 0.0, 0.0, 2))
        .core(Test::near(
            "share of seeds an identity head reaches the threshold",
            reached(Relation::Successor, Qk::Identity),
            0.0,
            0.0,
            2,
        ))
        .core(Test::above(
            "share of seeds an untied head reaches the threshold",
            reached(Relation::Successor, Qk::Untied),
            0.5,
            2,
        )),
    ]
}
