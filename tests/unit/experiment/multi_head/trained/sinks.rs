//! Unit tests of `crate::experiment::multi_head::trained::sinks` (`src/experiment/multi_head/trained/sinks.rs`).

use attention_geometry::experiment::multi_head::trained::patterns::{Patterns, SentenceSinks};
use attention_geometry::experiment::multi_head::trained::sinks::*;

fn patterns(lengths: &[usize], tops: &[f64]) -> Patterns {
    Patterns {
        previous: vec![0.0],
        next: vec![0.0],
        sep: vec![0.0],
        sink: vec![0.0],
        sink_kind: vec![[0; 4]],
        sentences: lengths
            .iter()
            .zip(tops)
            .map(|(&n, &t)| SentenceSinks {
                n,
                top: vec![t],
                cls: vec![t],
                sep: vec![0.0],
                punct: None,
            })
            .collect(),
        within: 0.0,
        across: 0.0,
    }
}

#[test]
fn the_same_relative_weight_counts_in_short_and_long_sentences() {
    // 2× uniform in a sentence of 4 and in one of 20
    let p = patterns(&[4, 20], &[0.5, 0.1]);
    let c = Criterion::Relative(1.5);
    assert_eq!(p.sink_heads(c, Sentences::Shorter), vec![0]);
    assert_eq!(p.sink_heads(c, Sentences::Longer), vec![0]);
    let a = Criterion::Absolute(0.3);
    assert_eq!(p.sink_heads(a, Sentences::Shorter), vec![0]);
    assert!(p.sink_heads(a, Sentences::Longer).is_empty());
    assert_eq!(Criterion::Absolute(0.5).key(), "abs50");
    assert_eq!(DEFAULT.key(), "rel4");
}
