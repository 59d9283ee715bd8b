//! Unit tests of `crate::experiment::multi_head::trained::senses` (`src/experiment/multi_head/trained/senses.rs`).

use attention_geometry::experiment::multi_head::trained::senses::*;
use attention_geometry::experiment::relations::trained::sentence;

#[test]
fn every_word_is_one_token_once_in_its_four_sentences() {
    let q = quads();
    assert_eq!(q.len(), 20);
    for (w, s) in &q {
        for t in s {
            sentence(t, w);
        }
    }
}
