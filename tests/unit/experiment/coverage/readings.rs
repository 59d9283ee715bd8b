//! Unit tests of `crate::experiment::coverage::readings` (`src/experiment/coverage/readings.rs`).

use attention_geometry::experiment::coverage::trained::{BOOK, book};

#[test]
fn every_head_of_both_models_and_the_decoder_under_both_starts() {
    let f = book();
    assert_eq!(f.encoder.trained.heads.len(), 72 * 60);
    assert!(f.encoder.trained.newline.is_empty());
    assert_eq!(f.decoder.trained.heads.len(), 270 * BOOK.decoder);
    assert_eq!(f.decoder.random.newline.len(), 270 * BOOK.decoder);
    assert!(
        f.decoder
            .random
            .newline
            .iter()
            .all(|s| (0.0..=1.0).contains(&s.special_weight))
    );
}
