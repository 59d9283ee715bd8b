//! Unit tests of `crate::experiment::multi_head::induction_heads::verdict` (`src/experiment/multi_head/induction_heads/verdict.rs`).

use attention_geometry::experiment::multi_head::induction_heads::BOOK;
use attention_geometry::experiment::multi_head::induction_heads::verdict::*;

#[test]
fn every_held_out_k_is_a_choice() {
    let c = &claims()[0];
    assert_eq!(c.choices.len(), 3 + BOOK.held_out_k.len() - 1);
    for m in measures().iter().filter(|m| {
        let m = format!("{m:?}");
        ["held", "rise", "drop", "clean", "ablated", "heads", "first"]
            .iter()
            .any(|w| m.contains(w))
    }) {
        eprintln!("{m:?}");
    }
    eprintln!(
        "{:#?}\n{:#?}\nverdict: {:?}",
        c.core,
        c.choices,
        c.verdict()
    );
    eprintln!("{:#?}", attention_geometry::edition::cards::missing(c));
}
