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
    let steps = |qk| median(&arm(Relation::Match, qk, Variant::Clean).steps(f.setup));
    let rho = arm(Relation::Match, Qk::Untied, Variant::Clean).curve(|r| &r.rho);
    let scarce = Variant::Examples(BOOK.examples[0]);
    let trained = format!(
        "{} seeds per arm, {} Adam steps, learning rates tuned on {} separate seeds over {:?}; \
         one head, d = {}, {} keys, context {}; threshold {}",
        BOOK.seeds,
        BOOK.steps,
        BOOK.tuning_seeds,
        BOOK.lrs,
        BOOK.d,
        BOOK.vocab,
        BOOK.context,
        BOOK.threshold
    );
    let reached = |r, qk| arm(r, qk, Variant::Clean).reached() as f64 / BOOK.seeds as f64;
    vec![
        // The cost: an untied head must rebuild the similarity its random
        // start broke, so it needs more steps than a head that starts tied.
        Claim::empirical(
            "untied-pays-a-learning-cost",
            "tolerable is not efficient: the model pays a learning cost to rediscover the geometry its projections broke",
        )
        .evidence(Evidence::Toy)
        .setting(format!("{trained}; the match task, where raw similarity is the right geometry; baseline: tied and mimetic heads"))
        .core(Test::above(
            "median steps to threshold, untied minus tied",
            steps(Qk::Untied) - steps(Qk::Tied),
            0.0,
            0,
        ))
        .core(Test::above(
            "rise of the untied head's rank agreement with raw similarity during training",
            rho.last().expect("a curve").0 - rho[0].0,
            0.2,
            2,
        ))
        .scope(Test::above(
            "share of seeds on which a tied head learns the directional successor task",
            reached(Relation::Successor, Qk::Tied),
            0.5,
            2,
        )),
        Claim::empirical(
            "the-cost-grows-with-scarce-data",
            "the learning cost is paid in data as well as in steps",
        )
        .evidence(Evidence::Toy)
        .setting(format!("{trained}; the match task with {} training examples", BOOK.examples[0]))
        .core(Test::above(
            "final accuracy, tied minus untied",
            arm(Relation::Match, Qk::Tied, scarce).accuracy().mean
                - arm(Relation::Match, Qk::Untied, scarce).accuracy().mean,
            0.0,
            2,
        )),
        // x W Wᵀ yᵀ is symmetric in x and y, so a tied head scores q → q + 1
        // exactly as q + 1 → q: it cannot follow a cycle.
        Claim::theorem(
            "a-symmetric-form-cannot-learn-a-direction",
            "a symmetric bilinear form cannot express a directional relation",
        )
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
