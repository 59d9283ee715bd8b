//! The verdicts the chapters' prose explains. A verdict is computed from its
//! measurement; when one changes, this test fails so that the prose around
//! the quoted claim is read again and rewritten.

use attention_geometry::claim::Verdict::{self, *};
use attention_geometry::experiment::claims;

const EXPECTED: &[(&str, Verdict)] = &[
    ("ch01.score-not-similarity", Qualified),
    ("ch01.collapse-moves-ranks", Supported),
    ("ch02.stacked-piecewise-manifold", Qualified),
    ("ch02.one-pass-is-a-local-view", Supported),
    ("ch02.pattern-is-not-the-explanation", Supported),
    ("ch03.heads-capture-different-relations", Qualified),
    ("ch03.narrow-heads-beat-one-wide", Qualified),
    ("ch04.composite-explains-the-stack", Supported),
    ("ch04.prompt-is-a-boundary-condition", Supported),
    ("ch04.relations-before-objects", Qualified),
    ("ch05.standard-layers-settle", Contradicted),
    ("ch05.training-absorbs-the-mismatch", Contradicted),
    ("ch06.untied-pays-a-learning-cost", Qualified),
    ("ch06.the-cost-grows-with-scarce-data", Supported),
    ("ch07.delta-correction-buys-capacity", Supported),
    ("ch07.weights-are-not-similarities", Contradicted),
];

#[test]
fn every_empirical_verdict_is_the_one_its_prose_explains() {
    let all = claims();
    for (id, expected) in EXPECTED {
        let c = all
            .iter()
            .find(|c| c.id == *id)
            .unwrap_or_else(|| panic!("no claim {id}"));
        assert_eq!(c.verdict(), *expected, "{id}: {}", c.measured());
    }
    let pinned: Vec<&str> = EXPECTED.iter().map(|(id, _)| *id).collect();
    for c in all
        .iter()
        .filter(|c| c.kind == attention_geometry::claim::Kind::Empirical)
    {
        assert!(
            pinned.contains(&c.id.as_str()),
            "{}: pin its verdict here",
            c.id
        );
    }
}
