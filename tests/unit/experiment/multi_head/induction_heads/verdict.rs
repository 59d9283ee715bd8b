//! Unit tests of `crate::experiment::multi_head::induction_heads::verdict` (`src/experiment/multi_head/induction_heads/verdict.rs`).

use attention_geometry::experiment::multi_head::induction_heads::BOOK;
use attention_geometry::experiment::multi_head::induction_heads::verdict::*;

#[test]
fn every_held_out_k_is_a_choice() {
    let c = &claims()[0];
    assert_eq!(c.choices.len(), 1 + BOOK.held_out_k.len());
    for m in measures()
        .iter()
        .filter(|m| format!("{m:?}").contains("held"))
    {
        eprintln!("{m:?}");
    }
    eprintln!("{:#?}\nverdict: {:?}", c.choices, c.verdict());
}
