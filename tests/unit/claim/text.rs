//! Unit tests of `crate::claim::text` (`src/claim/text.rs`).

use attention_geometry::claim::Claim;
use attention_geometry::claim::Test;
use attention_geometry::claim::card::Pages;
use attention_geometry::claim::text::*;
use attention_geometry::edition::words::{EN, ZH};

struct OnePage;
impl Pages for OnePage {
    fn card(&self, _: &str) -> Option<&str> {
        Some("01-a.md")
    }
    fn registry(&self) -> Option<&str> {
        None
    }
}

fn claims() -> Vec<Claim> {
    let mut c = vec![
        Claim::empirical("yes", "holds")
            .quotes("score-not-direct")
            .core(Test::holds("x", true)),
        Claim::empirical("no", "fails")
            .quotes("score-not-direct")
            .core(Test::holds("x", false)),
        Claim::theorem("law", "a lemma").core(Test::holds("x", true)),
    ];
    for c in &mut c {
        c.chapter = 1;
    }
    c
}

#[test]
fn the_scorecard_counts_the_essays_claims_and_the_books_apart() {
    let chapters = [(1, "A".to_string(), "01-a.md".to_string())];
    let s = scorecard(&claims(), &chapters, &EN);
    let (essay, book) = s
        .split_once("The book's own questions (1)")
        .expect("two tables");
    assert!(essay.contains("The essay's claims (2)"), "{s}");
    assert!(
        essay.contains("| [1. A](01-a.md) | 1 | · | · | 1 | · |"),
        "{s}"
    );
    assert!(
        book.contains("| [1. A](01-a.md) | · | · | · | · | 1 |"),
        "{s}"
    );
    assert!(
        book.contains("| **all chapters** | · | · | · | · | 1 |"),
        "{s}"
    );
}

#[test]
fn what_a_chapter_found_shows_each_essay_sentence_once_then_counts_the_books() {
    let f = found(&claims(), 1, &OnePage, &EN);
    assert_eq!(f.matches("not a direct measure").count(), 1, "{f}");
    assert!(f.contains("  - <span class=\"verdict verdict-supported\">supported</span> *holds* ([yes](01-a.md#yes))"), "{f}");
    assert!(f.contains("verdict-contradicted"));
    assert!(!f.contains("a lemma"));
    assert!(f.contains(
        "What the book adds to test them, 1 claim: <span class=\"tally\">\
         <span class=\"verdict verdict-checked\">1 checked</span></span>."
    ));
    let z = found(&claims(), 1, &OnePage, &ZH);
    assert_eq!(z.matches("因此，注意力分数").count(), 1, "{z}");
    assert!(
        z.contains(
            "本书为检验它们补充了 1 条论断：<span class=\"tally\">\
             <span class=\"verdict verdict-checked\">已核验 1</span></span>。"
        ),
        "{z}"
    );
}

#[test]
fn the_bottom_line_counts_from_the_verdicts() {
    let b = bottom_line(&claims(), &EN);
    assert!(b.contains("with 2 claims"), "{b}");
    assert!(
        b.contains(
            "<span class=\"verdict verdict-supported\">1 supported</span>, \
             <span class=\"verdict verdict-contradicted\">1 contradicted</span></span>. \
             The contradicted: `no`;"
        ),
        "{b}"
    );
}
