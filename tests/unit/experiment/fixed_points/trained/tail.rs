//! Unit tests of `crate::experiment::fixed_points::trained::tail` (`src/experiment/fixed_points/trained/tail.rs`).

use attention_geometry::experiment::fixed_points::trained::tail::*;

#[test]
fn labels_name_one_based_blocks() {
    let w = &smollm2()[0];
    assert_eq!(
        w.label(30, "block"),
        "the last 5 blocks (26–30) over blocks 11–20, every token but the first (the sink)"
    );
    assert_eq!(
        minilm()[0].label(6, "layer"),
        "the last layer (6) over layers 3–4"
    );
}
