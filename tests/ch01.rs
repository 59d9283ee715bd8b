//! Chapter 1's verdict, checked on the book-size findings the prose quotes.

use attention_geometry::experiment::coordinate_mismatch::{BOOK, Coupling, book};
use attention_geometry::stats::mean;

#[test]
fn an_untied_score_is_not_a_raw_similarity() {
    let s = book().survey(Coupling::Untied);
    let chance = BOOK.k as f64 / (BOOK.n - 1) as f64;
    assert!(s.summary(|t| t.rho).mean.abs() < 0.05);
    assert!((s.summary(|t| t.knn).mean - chance).abs() < 0.05);
    assert!(s.summary(|t| t.self_match).mean < 3.0 / BOOK.n as f64);
}

#[test]
fn a_tied_score_keeps_part_of_the_raw_order_and_is_a_similarity() {
    let s = book().survey(Coupling::Tied);
    assert!(s.summary(|t| t.rho).mean > 0.5);
    assert!(s.summary(|t| t.knn).mean > 0.4);
    assert_eq!(s.summary(|t| t.symmetric_share).mean, 1.0);
    assert_eq!(s.summary(|t| t.negative_eigenvalues).mean, 0.0);
}

#[test]
fn the_identity_reproduces_the_raw_order() {
    let s = book().survey(Coupling::Identity);
    assert!((s.summary(|t| t.rho).mean - 1.0).abs() < 1e-12);
    assert_eq!(s.summary(|t| t.knn).mean, 1.0);
}

#[test]
fn an_untied_bilinear_form_is_indefinite_and_half_antisymmetric() {
    let s = book().survey(Coupling::Untied);
    let d = BOOK.d as f64;
    assert!((s.summary(|t| t.symmetric_share).mean - (d * d + d) / (2.0 * d * d)).abs() < 0.02);
    assert!((s.summary(|t| t.negative_eigenvalues).mean - 0.5).abs() < 0.05);
}

#[test]
fn a_collapsing_projection_moves_distance_ranks_further() {
    let f = book();
    let (full, collapsed) = (mean(&f.shift_full), mean(&f.shift_collapsed));
    assert!(
        full > 0.05 && collapsed > full && collapsed < 1.0 / 3.0,
        "{full} {collapsed}"
    );
}
