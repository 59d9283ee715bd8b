//! Unit tests of `crate::claim::essay` (`src/claim/essay.rs`).

use Kind::Empirical;
use attention_geometry::claim::essay::sentences::s;
use attention_geometry::claim::essay::*;

#[test]
fn ids_are_unique_and_every_rendering_keeps_its_hedges() {
    let mut ids: Vec<&str> = all().map(|s| s.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all().count());
    let dropped: Vec<(&str, Vec<&str>)> = all()
        .map(|s| (s.id, dropped_hedges(s)))
        .filter(|(_, d)| !d.is_empty())
        .collect();
    assert!(
        dropped.is_empty(),
        "renderings that drop a hedge: {dropped:?}"
    );
}

#[test]
fn a_rendering_without_its_hedge_is_caught() {
    let bad = s("x", 1, Empirical, "它可能变得很远。", "It becomes far.");
    assert_eq!(dropped_hedges(&bad), vec!["可能"]);
    let good = s("x", 1, Empirical, "它可能变得很远。", "It may become far.");
    assert!(dropped_hedges(&good).is_empty());
}
