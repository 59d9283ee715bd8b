//! The verdicts the chapters' prose explains. A verdict is computed from its
//! measurement; when one changes, this test fails so that the prose around
//! the quoted claim is read again and rewritten.

use attention_geometry::claim::Verdict::{self, *};
use attention_geometry::experiment::claims;

const EXPECTED: &[(&str, Verdict)] = &[
    ("ch01.score-not-similarity", Supported),
    ("ch01.score-neighbours-at-chance", Contradicted),
    ("ch01.collapse-moves-ranks", Supported),
    ("ch01.trained-qk-not-symmetric", Supported),
    ("ch01.trained-score-not-similarity", Supported),
    ("ch01.encoder-more-symmetric", Supported),
    ("ch01.trained-rope-score-turns", Supported),
    ("ch02.stacked-piecewise-manifold", Qualified),
    ("ch02.one-pass-is-a-local-view", Supported),
    ("ch02.pattern-is-not-the-explanation", Supported),
    ("ch02.trained-weight-not-effect", Qualified),
    ("ch02.trained-sinks-take-weight-not-norm", Supported),
    ("ch02.trained-pass-is-local", Supported),
    ("ch03.heads-capture-different-relations", Supported),
    ("ch03.one-head-one-relation", Contradicted),
    ("ch03.narrow-heads-beat-one-wide", Qualified),
    ("ch03.later-layers-act-on-earlier-heads", Supported),
    ("ch03.trained-later-layers-correct", Qualified),
    ("ch03.trained-heads-redundant", Qualified),
    ("ch03.decoder-prunes-more-heads", Contradicted),
    ("ch03.trained-heads-specialise", Qualified),
    ("ch03.trained-heads-compose", Qualified),
    ("ch04.composite-explains-the-stack", Supported),
    ("ch04.prompt-is-a-boundary-condition", Supported),
    ("ch04.relations-before-objects", Supported),
    ("ch04.relations-are-fixed-arrows", Contradicted),
    ("ch04.relations-cost-training", Supported),
    ("ch04.trained-rollout", Contradicted),
    ("ch04.trained-composite", Qualified),
    ("ch04.trained-composition", Qualified),
    ("ch04.trained-boundary", Qualified),
    ("ch04.trained-partners", Qualified),
    ("ch04.trained-path", Supported),
    ("ch04.flexible-costly", Supported),
    ("ch04.not-necessarily-efficient", Supported),
    ("ch05.standard-layers-settle", Qualified),
    ("ch05.training-absorbs-the-mismatch", Contradicted),
    ("ch05.training-lowers-the-residual", Qualified),
    ("ch05.trained-stream-settles", Contradicted),
    ("ch05.trained-layer-converges", Contradicted),
    ("ch05.trained-absorbs", Qualified),
    ("ch05.trained-prediction-settles", Qualified),
    ("ch05.looped-training-lowers-the-residual", Contradicted),
    ("ch05.looped-iterate-settles", Qualified),
    ("ch05.looped-fixed-point-moves-with-the-prompt", Supported),
    ("ch05.absorbed-corrected-reused", Qualified),
    ("ch05.training-corrects-every-task", Contradicted),
    ("ch06.error-does-not-break", Supported),
    ("ch06.tolerable-not-efficient", Qualified),
    ("ch06.untied-pays-a-learning-cost", Supported),
    ("ch06.the-cost-grows-with-scarce-data", Supported),
    ("ch07.delta-correction-buys-capacity", Supported),
    ("ch07.weights-are-not-similarities", Contradicted),
    ("ch07.learned-delta-recalls-more", Contradicted),
    ("ch07.learned-softmax-ceiling", Qualified),
    ("ch07.learned-decay-retains", Qualified),
    ("ch07.learned-channels-spread", Qualified),
    ("ch07.learned-beta-selective", Supported),
    ("ch07.learned-weights-not-similarity", Contradicted),
    ("ch07.large-delta-recalls-more", Contradicted),
    ("ch07.large-delta-above-state", Qualified),
    ("ch07.large-softmax-ceiling", Supported),
    ("ch07.kda-learned-operator", Qualified),
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

#[test]
fn chapter_3_splits_are_trained_to_a_plateau() {
    use attention_geometry::experiment::multi_head::split;
    let f = split::book();
    for (k, &capped) in f.capped.iter().enumerate() {
        assert!(
            2 * capped < split::BOOK.seeds as usize,
            "split {k}: {capped} runs hit the cap: raise it"
        );
    }
}
