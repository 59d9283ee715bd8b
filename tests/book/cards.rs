//! The Chinese edition's claim cards: every claim's card, rendered in
//! Chinese, leaves no English prose outside math, code and the kept names
//! (`edition::phrases::KEPT`); every test quantity, setting, choice, plateau
//! line and replication has its Chinese in `src/edition/cards/`. A new
//! string without one fails here, named with its claim and field and the
//! one line to add.

use attention_geometry::claim::card::{Pages, markdown};
use attention_geometry::claim::{Claim, Test};
use attention_geometry::edition::cards::{english_left, missing};
use attention_geometry::edition::words::ZH;
use attention_geometry::experiment::claims;

/// The registry link and no card pages: the card alone.
struct Registry;
impl Pages for Registry {
    fn card(&self, _: &str) -> Option<&str> {
        None
    }
    fn registry(&self) -> Option<&str> {
        Some("appendix-claims.md")
    }
}

/// What reads English in claim `c`'s Chinese card: each string without its
/// Chinese, then each English word left in the rendered card.
fn english(c: &Claim) -> Vec<String> {
    let mut out = missing(c);
    let words = english_left(&markdown(c, &Registry, &ZH));
    if out.is_empty() && !words.is_empty() {
        out.push(format!(
            "{}: English words {words:?} in its Chinese card",
            c.id
        ));
    }
    out
}

#[test]
fn every_chinese_card_reads_chinese() {
    let all = claims();
    let left: Vec<String> = all.iter().flat_map(english).collect();
    eprintln!(
        "{} claims' cards; {} strings or cards read English",
        all.len(),
        left.len()
    );
    assert!(
        left.is_empty(),
        "the Chinese cards still read English:\n{}",
        left.join("\n")
    );
}

#[test]
fn a_new_english_quantity_fails_with_its_claim_and_the_line_to_add() {
    let mut c = Claim::empirical("new-claim", "s")
        .zh("注意力可以路由信息。")
        .core(Test::below("share of heads that route", 0.01, 0.1, 2));
    c.id = "ch09.new-claim".into();
    c.chapter = 9;
    let left = english(&c);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].contains("ch09.new-claim core: no Chinese for \"share of heads that route\""));
    assert!(left[0].contains("(\"share of heads that route\", \"\"),"));
    // a known quantity renders Chinese, its numbers in place
    let known = Claim::empirical("known", "s")
        .zh("注意力可以路由信息。")
        .core(Test::below("mean Spearman ρ, identity", 0.01, 0.1, 2))
        .trained("untied head", 1, 20);
    assert!(english(&known).is_empty(), "{:?}", english(&known));
    let card = markdown(&known, &Registry, &ZH);
    assert!(
        card.contains("Spearman ρ 的均值，恒等耦合 < 0.10"),
        "{card}"
    );
    assert!(card.contains("| 独立投影单头 | 1/20 | — |"), "{card}");
}
