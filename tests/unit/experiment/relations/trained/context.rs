//! Unit tests of `crate::experiment::relations::trained::context` (`src/experiment/relations/trained/context.rs`).

use attention_geometry::experiment::relations::trained::context::*;

#[test]
fn partner_roles() {
    let t: Vec<String> = ["[CLS]", "a", "bank", ".", "[SEP]"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(partner(&t, 2, 2), "self");
    assert_eq!(partner(&t, 2, 1), "previous");
    assert_eq!(partner(&t, 2, 3), "next");
    assert_eq!(partner(&t, 1, 3), "punctuation");
    assert_eq!(partner(&t, 2, 4), "[SEP]");
}
