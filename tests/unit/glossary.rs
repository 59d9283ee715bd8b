//! Unit tests of `crate::glossary` (`src/glossary.rs`).

use attention_geometry::edition::Lang;
use attention_geometry::glossary::*;

/// The terms issue 21 asks both editions to use, in the essay's words.
const ISSUE_21: [&str; 11] = [
    "单标",
    "数学覆盖",
    "物理覆盖",
    "堆叠分片流形",
    "投影覆盖",
    "不动点残差",
    "边界条件",
    "态射",
    "复合",
    "Delta 修正",
    "逐通道衰减",
];

#[test]
fn one_row_per_term_in_each_language() {
    for lang in Lang::ALL {
        let md = markdown(lang);
        let rows: Vec<&str> = md.lines().skip(2).collect();
        assert_eq!(rows.len(), TERMS.len(), "{lang:?}");
        for (row, t) in rows.iter().zip(TERMS) {
            let first = match lang {
                Lang::En => t.en,
                Lang::Zh => t.zh,
            };
            assert!(row.starts_with(&format!("| {first} |")), "{lang:?}: {row}");
        }
    }
}

#[test]
fn the_headers_are_the_editions() {
    assert!(markdown(Lang::En).starts_with("| term | 中文 | meaning in this book |\n"));
    assert!(markdown(Lang::Zh).starts_with("| 术语 | English | 在本书中的含义 |\n"));
}

#[test]
fn the_terms_of_issue_21_are_all_there() {
    for zh in ISSUE_21 {
        assert!(TERMS.iter().any(|t| t.zh == zh), "{zh} is missing");
    }
}

#[test]
fn every_term_is_whole_in_both_languages() {
    for t in TERMS {
        for field in [t.en, t.zh, t.meaning_en, t.meaning_zh] {
            assert!(!field.trim().is_empty(), "{}: an empty field", t.en);
        }
        assert!(
            t.meaning_zh
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}: meaning_zh is not Chinese",
            t.en
        );
    }
}
