//! Chapter 6's verdict, checked on a smaller run (fewer seeds and steps)
//! than the book-size run the prose quotes, so that `cargo test` stays fast.

use attention_geometry::experiment::learning_cost::arm::Variant;
use attention_geometry::experiment::learning_cost::steps::small;
use attention_geometry::stats::median;
use attention_geometry::train::{Qk, Relation};

fn median_steps(relation: Relation, qk: Qk, variant: Variant) -> f64 {
    let f = small();
    median(&f.arm(relation, qk, variant).steps(f.setup))
}

#[test]
fn a_symmetric_form_cannot_learn_the_successor_relation_and_an_untied_one_can() {
    let f = small();
    for qk in [Qk::Tied, Qk::Identity] {
        let a = f.arm(Relation::Successor, qk, Variant::Clean);
        assert_eq!(a.reached(), 0, "{qk:?}");
        assert!(a.accuracy().mean < 0.5, "{qk:?}: {:?}", a.accuracy());
    }
    for qk in [Qk::Untied, Qk::Mimetic] {
        let a = f.arm(Relation::Successor, qk, Variant::Clean);
        assert!(
            a.reached() * 4 >= a.runs.len() * 3,
            "{qk:?}: {} seeds reached",
            a.reached()
        );
        assert!(a.accuracy().mean > 0.75, "{qk:?}: {:?}", a.accuracy());
    }
}

#[test]
fn every_learned_form_learns_the_match_task_and_untied_is_not_faster() {
    let f = small();
    for qk in [Qk::Untied, Qk::Tied, Qk::Mimetic] {
        let a = f.arm(Relation::Match, qk, Variant::Clean);
        assert!(
            a.reached() * 4 >= a.runs.len() * 3,
            "{qk:?}: {} seeds reached",
            a.reached()
        );
    }
    let untied = median_steps(Relation::Match, Qk::Untied, Variant::Clean);
    assert!(untied >= median_steps(Relation::Match, Qk::Tied, Variant::Clean));
    assert!(untied >= median_steps(Relation::Match, Qk::Mimetic, Variant::Clean));
}

#[test]
fn with_few_examples_untied_projections_pay_in_accuracy() {
    let f = small();
    let n = Variant::Examples(f.setup.examples[0]);
    let untied = f.arm(Relation::Match, Qk::Untied, n).accuracy().mean;
    for qk in [Qk::Tied, Qk::Mimetic] {
        let other = f.arm(Relation::Match, qk, n).accuracy().mean;
        assert!(untied + 0.15 < other, "{qk:?}: untied {untied} vs {other}");
    }
}

#[test]
fn in_two_layers_untied_projections_pay_in_steps() {
    let untied = median_steps(Relation::Match, Qk::Untied, Variant::TwoLayer);
    assert!(untied > median_steps(Relation::Match, Qk::Tied, Variant::TwoLayer));
    assert!(untied > median_steps(Relation::Match, Qk::Mimetic, Variant::TwoLayer));
}

#[test]
fn untied_training_rediscovers_raw_similarity_for_the_match_task_only() {
    let f = small();
    let m = f.arm(Relation::Match, Qk::Untied, Variant::Clean);
    let (rho, share) = (m.curve(|r| &r.rho), m.curve(|r| &r.symmetric_share));
    assert!(rho[0].0 < 0.3 && rho.last().unwrap().0 > 0.5, "{rho:?}");
    assert!(
        share[0].0 < 0.65 && share.last().unwrap().0 > 0.7,
        "{share:?}"
    );
    let s = f.arm(Relation::Successor, Qk::Untied, Variant::Clean);
    assert!(s.curve(|r| &r.symmetric_share).last().unwrap().0 < 0.65);
    assert!(s.curve(|r| &r.rho).last().unwrap().0 < 0.2);
    let tied = f.arm(Relation::Successor, Qk::Tied, Variant::Clean);
    assert!(
        tied.curve(|r| &r.symmetric_share)
            .iter()
            .all(|p| (p.0 - 1.0).abs() < 1e-12)
    );
}

#[test]
fn learning_rates_come_from_the_grid_by_the_stated_rule() {
    let f = small();
    for t in &f.tuning {
        let best = t.grid.iter().map(|g| g.1).fold(f64::INFINITY, f64::min);
        let chosen = t
            .grid
            .iter()
            .find(|g| g.0 == t.lr)
            .expect("the chosen rate is on the grid");
        assert_eq!(chosen.1, best);
    }
}
