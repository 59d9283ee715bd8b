//! Chapter 4's verdict, checked on the book-size findings the prose quotes.

use attention_geometry::experiment::relations::{BOOK, INSTANCES, TOLERANCE, book};

#[test]
fn stochastic_arrows_obey_the_category_laws() {
    let l = book().laws;
    assert!(
        l.identity <= TOLERANCE && l.row_sum <= TOLERANCE && l.associativity <= TOLERANCE,
        "{l:?}"
    );
    assert!(l.min_entry >= 0.0);
    assert_eq!(l.closed, INSTANCES);
}

#[test]
fn rollout_agrees_with_leave_one_out_better_than_raw_attention() {
    let f = book();
    let (raw, rolled) = (f.summary(|t| t.rho_raw), f.summary(|t| t.rho_rollout));
    assert!(
        rolled.mean > 0.7 && rolled.mean > raw.mean + 0.4,
        "raw {raw:?}, rollout {rolled:?}"
    );
    let wins = f
        .trials
        .iter()
        .filter(|t| t.rho_rollout > t.rho_raw)
        .count() as f64
        / f.trials.len() as f64;
    assert!(wins > 0.9, "{wins}");
}

#[test]
fn a_new_prefix_rewrites_suffix_relations_only_through_depth() {
    let f = book();
    assert_eq!(f.summary(|t| t.turnover[0]).mean, 0.0);
    for l in 1..=BOOK.layers {
        assert!(
            f.summary(|t| t.turnover[l]).mean > 0.2,
            "layer or rollout {l}"
        );
    }
}

#[test]
fn a_layers_arrow_depends_on_the_input_it_is_evaluated_on() {
    let f = book();
    for l in 1..BOOK.layers {
        assert!(f.summary(|t| t.path_tv[l - 1]).mean > 0.2);
    }
}

#[test]
fn delta_rule_weights_leave_the_stochastic_maps() {
    let f = book();
    assert_eq!(f.delta_summary(|t| t.linear_negative).mean, 0.0);
    assert!(f.delta_summary(|t| t.delta_negative).mean > 0.1);
    assert!(f.delta_summary(|t| t.row_sum_gap).mean > 0.1);
}
