//! Chapter 6's claims: the learning cost of untied projections, where it is
//! paid, and what a symmetric form cannot learn at all.

use super::arm::Variant;
use super::steps::{BOOK, book};
use crate::claim::{Claim, Evidence, Test};
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
        "{} seeds per arm; to a plateau: accuracy rose < {} over the last fifth; not before \
         step {}, at most {} steps; learning rates tuned on {} separate seeds; grid {:?}; a \
         tuning budget of {} steps; one head, d = {}; {} keys, context {}; threshold {}",
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
    // the measured null of an arm: its runs' test accuracy before any update
    let gain = |r, qk, v| {
        let a = arm(r, qk, v);
        let start: Vec<f64> = a.runs.iter().map(|run| run.history.accuracy[0]).collect();
        Test::above(
            format!(
                "{} task: final accuracy of the untied head minus its accuracy before training (the null)",
                r.name()
            ),
            a.accuracy().mean - crate::stats::mean(&start),
            0.5,
            2,
        )
    };
    let learns = |v| {
        let share = |r| arm(r, Qk::Untied, v).reached() as f64 / BOOK.seeds as f64;
        vec![
            Test::above(
                "share of untied seeds that reach the threshold, match task",
                share(m),
                0.5,
                2,
            ),
            gain(m, Qk::Untied, v),
        ]
    };
    let slower = |baseline: Qk, v| {
        Test::above(
            format!(
                "median steps to threshold on the match task, untied minus {}",
                baseline.name()
            ),
            steps(Qk::Untied, v) - steps(baseline, v),
            0.0,
            0,
        )
    };
    // The cost: an untied head must rebuild the similarity its random
    // start broke, so it needs more steps than a head that starts tied.
    let pays = status(
            Claim::empirical(
                "untied-pays-a-learning-cost",
                "on the match task, where raw similarity is the right geometry, an untied head pays a learning cost: more steps than a tied head, while it rediscovers the raw similarity",
            )
            .quotes("significant-cost").zh("在原始相似度正是所需几何的匹配任务上，非绑定头要付出学习成本：比绑定头需要更多步，同时重新发现原始相似度。")
            .evidence(Evidence::Toy)
            .setting(format!("{trained}; the match task, where raw similarity is the right geometry; baseline: tied and mimetic heads"))
            .default_choice("task: one head, fresh examples every step")
            .core(c0)
            .core(c1)
            .under("task: two layers with residual paths", cost(Variant::TwoLayer))
            .under(format!("task: one head, a fixed set of {} examples", BOOK.examples[1]), cost(plenty)),
            &[
                (m, Qk::Untied, Variant::Clean),
                (m, Qk::Tied, Variant::Clean),
                (m, Qk::Untied, Variant::TwoLayer),
                (m, Qk::Tied, Variant::TwoLayer),
                (m, Qk::Untied, plenty),
                (m, Qk::Tied, plenty),
            ],
        );
    vec![
        // Tolerable: the mismatched head still learns; the null is its own start.
        status(
            Claim::empirical(
                "error-does-not-break",
                "an untied head, whose query and key coordinates start mismatched, still learns both the match task and the directional successor task",
            )
            .quotes("not-necessarily-broken")
            .zh("非绑定头的 Query 与 Key 坐标一开始就错位，但它仍能学会匹配任务和有方向的后继任务。")
            .evidence(Evidence::Toy)
            .setting(format!("{trained}; null: the same runs' test accuracy before training"))
            .default_choice("task: match, one head, fresh examples every step")
            .core(learns(Variant::Clean)[0].clone())
            .core(learns(Variant::Clean)[1].clone())
            .under(
                "task: successor (directional), one head, fresh examples every step",
                vec![
                    Test::above(
                        "share of untied seeds that reach the threshold, successor task",
                        reached(Relation::Successor, Qk::Untied),
                        0.5,
                        2,
                    ),
                    gain(Relation::Successor, Qk::Untied, Variant::Clean),
                ],
            )
            .under("task: match, two layers with residual paths", learns(Variant::TwoLayer))
            .under(format!("task: match, one head, a fixed set of {} examples", BOOK.examples[1]), learns(plenty)),
            &[
                (m, Qk::Untied, Variant::Clean),
                (Relation::Successor, Qk::Untied, Variant::Clean),
                (m, Qk::Untied, Variant::TwoLayer),
                (m, Qk::Untied, plenty),
            ],
        ),
        // Not efficient: the same head needs more steps than one given the geometry.
        status(
            Claim::empirical(
                "tolerable-not-efficient",
                "on the match task an untied head reaches the threshold (tolerable), but it needs more steps than a head whose form keeps the raw geometry",
            )
            .quotes("tolerable-not-efficient")
            .zh("在匹配任务上，非绑定头能达到阈值（可以容忍），但比保持原始几何形式的头需要更多步（并不高效）。")
            .evidence(Evidence::Toy)
            .setting(format!("{trained}; baselines on the same task and seeds: the tied head ($W_{{QK}} = W W^\\top$) and the identity head ($W_{{QK}} = I$, given the raw similarity)"))
            .default_choice("baseline: the tied head; task: one head, fresh examples every step")
            .core(learns(Variant::Clean)[0].clone())
            .core(slower(Qk::Tied, Variant::Clean))
            .under("baseline: the tied head; task: two layers with residual paths", vec![learns(Variant::TwoLayer)[0].clone(), slower(Qk::Tied, Variant::TwoLayer)])
            .under(
                format!("baseline: the tied head; task: one head, a fixed set of {} examples", BOOK.examples[1]),
                vec![learns(plenty)[0].clone(), slower(Qk::Tied, plenty)],
            )
            .under("baseline: the identity head", vec![learns(Variant::Clean)[0].clone(), slower(Qk::Identity, Variant::Clean)]),
            &[
                (m, Qk::Untied, Variant::Clean),
                (m, Qk::Tied, Variant::Clean),
                (m, Qk::Identity, Variant::Clean),
                (m, Qk::Untied, Variant::TwoLayer),
                (m, Qk::Tied, Variant::TwoLayer),
                (m, Qk::Untied, plenty),
                (m, Qk::Tied, plenty),
            ],
        ),
        pays,
        status(
            Claim::empirical(
                "the-cost-grows-with-scarce-data",
                "the learning cost is paid in data as well as in steps",
            )
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
