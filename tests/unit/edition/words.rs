//! Unit tests of `crate::edition::words` (`src/edition/words.rs`).

use attention_geometry::claim::Verdict;
use attention_geometry::edition::words::*;

/// Every template takes as many arguments in both editions.
#[test]
fn both_editions_fill_the_same_templates() {
    let slots = |t: &str| {
        (0..8)
            .filter(|i| t.contains(&format!("{{{i}}}")))
            .count()
            .max(t.matches("{}").count())
    };
    let pairs = [
        (EN.evidence, ZH.evidence),
        (EN.varied, ZH.varied),
        (EN.default_is, ZH.default_is),
        (EN.quoted, ZH.quoted),
        (EN.flips_counted, ZH.flips_counted),
        (EN.flips_named, ZH.flips_named),
        (EN.out_of_scope, ZH.out_of_scope),
        (EN.count, ZH.count),
        (EN.book_adds_count, ZH.book_adds_count),
        (EN.essay_table, ZH.essay_table),
        (EN.book_table, ZH.book_table),
        (EN.bottom_tested, ZH.bottom_tested),
        (EN.bottom_essay_none, ZH.bottom_essay_none),
        (EN.bottom_essay_some, ZH.bottom_essay_some),
        (EN.bottom_book, ZH.bottom_book),
        (EN.why_flips, ZH.why_flips),
        (EN.why_scope, ZH.why_scope),
        (EN.why_contradicted, ZH.why_contradicted),
        (EN.why_undecided[0], ZH.why_undecided[0]),
        (EN.why_undecided[1], ZH.why_undecided[1]),
        (EN.why_failed, ZH.why_failed),
    ];
    for (en, zh) in pairs {
        assert_eq!(slots(en), slots(zh), "{en} / {zh}");
    }
}

#[test]
fn verdict_words_follow_the_enum() {
    assert_eq!(EN.verdict(Verdict::Contradicted), "contradicted");
    assert_eq!(ZH.verdict(Verdict::Checked), "已核验");
    assert_eq!(ZH.list(&["a".into(), "b".into(), "c".into()]), "a、b和c");
    assert_eq!(EN.list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
}
