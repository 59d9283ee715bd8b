//! Unit tests of `crate::edition::cards` (`src/edition/cards.rs`).

use attention_geometry::claim::{Claim, Test};
use attention_geometry::edition::cards::*;
use std::collections::HashMap;

#[test]
fn numbers_are_taken_out_only_outside_words() {
    let (shape, numbers) = skeleton("SmolLM2-135M-Instruct, d_k = d/4, top-1, 2^20, h₆, 1e-12");
    assert_eq!(numbers, ["4", "2", "20", "1e-12"]);
    assert!(shape.starts_with("SmolLM2-135M-Instruct, d_k = d/\u{e000}, top-1"));
}

#[test]
fn every_entry_keeps_its_numbers_in_order_and_reads_chinese() {
    let mut seen = HashMap::new();
    let mut wrong = Vec::new();
    for (en, zh_text) in TABLES.iter().flat_map(|t| t.iter()) {
        let (shape, numbers) = skeleton(en);
        let chinese = chinese_shape(zh_text, &numbers);
        if chinese.matches(SLOT).count() != numbers.len() {
            wrong.push(format!("numbers {numbers:?} not in order in {zh_text:?}"));
        }
        let words = english_left(zh_text);
        if !words.is_empty() {
            wrong.push(format!("{words:?} in the Chinese of {en:?}"));
        }
        if let Some(other) = seen.insert(shape, chinese.clone())
            && other != chinese
        {
            wrong.push(format!("{en:?} twice, translated apart"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_new_english_quantity_is_named_with_its_claim_and_field() {
    let mut c = Claim::empirical("x", "s")
        .core(Test::below(
            "mean Spearman ρ over the new thing",
            0.01,
            0.1,
            2,
        ))
        .trained("mean head", 3, 12);
    c.id = "ch09.x".into();
    c.chapter = 9;
    let left = missing(&c);
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left[1].starts_with("ch09.x plateau: no Chinese for \"mean head\""));
    assert!(
        left[0].starts_with(
            "ch09.x core: no Chinese for \"mean Spearman ρ over the new thing\"; add to src/edition/cards/ch09.rs:"
        ),
        "{}",
        left[0]
    );
}
