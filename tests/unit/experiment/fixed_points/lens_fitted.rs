//! Unit tests of `crate::experiment::fixed_points::lens_fitted` (`src/experiment/fixed_points/lens_fitted.rs`).

use attention_geometry::experiment::fixed_points::lens_fitted::*;

#[test]
fn the_held_out_text_is_disjoint_and_the_last_boundary_is_the_output() {
    assert!(held_out().len() >= 90);
    let f = book();
    assert_eq!(f.null.len(), BOOK.seeds as usize);
    let t = f.fitted.trained.pooled();
    assert!(t.tokens.iter().all(|k| k.agree[30] && k.rank[30] == 0));
    assert_eq!(
        t.tokens.len(),
        attention_geometry::experiment::fixed_points::logit_lens::book()
            .trained
            .tokens
            .len()
    );
}
