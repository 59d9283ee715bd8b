//! Chapter 5's verdict, checked on the book-size findings the prose quotes.

use attention_geometry::absorption::Mechanism;
use attention_geometry::experiment::fixed_points::collapse::{self, BOOK};
use attention_geometry::experiment::fixed_points::energy::{self, EnergyRun};
use attention_geometry::experiment::fixed_points::{absorption, equilibrium, trained};
use attention_geometry::fixed_point::Variant;
use attention_geometry::stats::median;

fn last_residuals(v: Variant) -> Vec<f64> {
    collapse::book().last_residuals(v)
}

fn last_collapse(v: Variant) -> Vec<f64> {
    collapse::book().last_collapse(v)
}

#[test]
fn pure_attention_converges_only_by_collapsing() {
    assert!(
        last_residuals(Variant::Attention)
            .iter()
            .all(|&r| r < 1e-12)
    );
    assert!(last_collapse(Variant::Attention).iter().all(|&c| c < 1e-12));
}

#[test]
fn residual_and_norm_neither_converge_nor_keep_the_rank() {
    assert!(median(&last_residuals(Variant::ResidualNorm)) > 1e-3);
    assert!(median(&last_collapse(Variant::ResidualNorm)) < 1e-6);
}

#[test]
fn the_injected_contraction_converges_within_its_bound_without_collapse() {
    assert!(last_residuals(Variant::Injected).iter().all(|&r| r < 1e-12));
    assert!(last_collapse(Variant::Injected).iter().all(|&c| c > 0.5));
    for rate in collapse::book().injected_rates() {
        assert!(rate < BOOK.contraction, "{rate}");
    }
}

#[test]
fn a_hidden_fixed_point_exists_at_random_weights_but_the_data_are_not_one() {
    for e in &equilibrium::book().equilibria {
        assert_eq!(e.constraint, 0.0);
        assert!(
            e.hidden_residual < 1e-12 && e.data_residual > 1e-3 && e.distance > 1e-3,
            "{e:?}"
        );
    }
}

#[test]
fn the_energy_never_rises_with_a_tied_form_and_does_with_an_untied_one() {
    let f = energy::book();
    assert!(f.tied.iter().map(EnergyRun::max_rise).all(|r| r < 1e-12));
    let rises = f.untied_rises();
    assert!(rises > 0.5, "{rises}");
}

#[test]
fn a_tied_head_cannot_follow_the_cycle_but_two_heads_or_layers_can() {
    let f = absorption::book();
    for a in &f.seeds {
        assert_eq!(a.tied_asymmetry, 0.0);
        assert!(a.random_tied > 0.0 && a.random_tied < 1.0);
    }
    assert!(f.seeds.iter().any(|a| a.random_untied == 1.0));
    for m in [Mechanism::TiedHead, Mechanism::TiedResidual] {
        let s = f.mechanism(m);
        assert!((s.mean - 2.0 / 3.0).abs() < 1e-12 && s.sd < 1e-12, "{m:?}");
    }
    for m in [
        Mechanism::TwoTiedHeads,
        Mechanism::TwoTiedLayers,
        Mechanism::UntiedHead,
    ] {
        assert_eq!(f.mechanism(m).mean, 1.0, "{m:?}");
    }
}

#[test]
fn trained_tied_models_absorb_slowly_and_never_solve_the_task() {
    use attention_geometry::experiment::fixed_points::trained::{TIED, UNTIED};
    let f = trained::book();
    let (early, end) = (f.setup.early, f.setup.schedule.steps);
    // the untied head learns within a few hundred steps
    let untied = f.accuracy(UNTIED, early);
    assert!(untied.mean > 0.8, "{untied:?}");
    assert!(f.accuracy(UNTIED, end).mean > 0.9);
    assert!(f.solved([UNTIED]) >= 1);
    for a in TIED {
        // far below it early on, and never solved by the end
        let tied = f.accuracy(a, early);
        assert!(
            tied.mean > 0.2 && tied.mean < untied.mean - 0.3,
            "architecture {a}: {tied:?}"
        );
    }
    assert_eq!(f.solved(TIED), 0);
    // two tied layers keep climbing; a single tied head, with or without a residual, levels off far below
    let layers = (f.accuracy(3, early), f.accuracy(3, end));
    assert!(layers.1.mean > layers.0.mean + 0.15, "{layers:?}");
    let untied_end = f.accuracy(UNTIED, end).mean;
    for a in [0, 1] {
        let single = f.accuracy(a, end).mean;
        assert!(
            single < layers.1.mean && single < untied_end - 0.35,
            "architecture {a}: {single}"
        );
    }
}
