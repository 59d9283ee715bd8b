//! The Chinese edition uses the glossary's words: wherever an English page's
//! prose names a glossary term, its Chinese counterpart names the term's
//! Chinese form.
//!
//! A term's English name is matched case-insensitively as a whole word or
//! phrase (across line breaks; its plural too), outside fenced code, inline
//! code, math, link targets and `{{…}}` markers; each alternative of an
//! `A / B` pair maps to the Chinese alternative in the same place, and a
//! parenthesised abbreviation (`(KDA)`) is left out of the match. The
//! Chinese page is searched with whitespace removed and ASCII letters
//! lower-cased, so `Delta修正` counts as `Delta 修正`.

use attention_geometry::edition::parity::split;
use attention_geometry::glossary::{TERMS, Term};

/// English names whose match would be noise rather than a missing term,
/// each with why. None so far: every term of the glossary is specific
/// enough that a page naming it should name it in Chinese too.
const SKIPPED: &[(&str, &str)] = &[];

/// `text` without fenced code, inline code, math, link targets and
/// `{{…}}` markers, whitespace runs collapsed to one space, lower-cased.
fn prose(text: &str) -> String {
    let (kept, _) = split(text);
    let mut out = String::new();
    let mut rest = kept.as_str();
    // each pair: an opening, its closing; the text between is dropped
    let spans = [
        ("$$", "$$"),
        ("{{", "}}"),
        ("](", ")"),
        ("`", "`"),
        ("$", "$"),
    ];
    'scan: while !rest.is_empty() {
        for (open, close) in spans {
            if let Some(tail) = rest.strip_prefix(open)
                && let Some(end) = tail.find(close)
            {
                out.push(' ');
                rest = &tail[end + close.len()..];
                continue 'scan;
            }
        }
        let ch = rest.chars().next().unwrap();
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `phrase` (lower-case) occurs in `prose` as a whole word, or as
/// its plural (`-s`, `-es`): not inside a longer word (letters, digits, `_`
/// and `-` continue a word).
fn names(prose: &str, phrase: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    prose.match_indices(phrase).any(|(at, _)| {
        let before = prose[..at].chars().next_back();
        let rest = &prose[at + phrase.len()..];
        let rest = ["es", "s", ""]
            .iter()
            .find_map(|plural| rest.strip_prefix(plural).filter(|r| !r.starts_with(word)))
            .unwrap_or(rest);
        !before.is_some_and(word) && !rest.starts_with(word)
    })
}

/// `text` without whitespace, ASCII letters lower-cased.
fn squeezed(text: &str) -> String {
    super::essay::squeezed(text).to_lowercase()
}

/// A term's English alternatives, each with the Chinese name it maps to.
fn alternatives(t: &Term) -> Vec<(String, &'static str)> {
    let en: Vec<String> =
        t.en.split(" / ")
            .map(|a| {
                let a = a.split(" (").next().unwrap_or(a);
                a.strip_prefix("the ").unwrap_or(a).to_lowercase()
            })
            .collect();
    let zh: Vec<&'static str> = t.zh.split(" / ").collect();
    en.into_iter()
        .enumerate()
        .map(|(i, a)| {
            (
                a,
                if zh.len() == t.en.split(" / ").count() {
                    zh[i]
                } else {
                    t.zh
                },
            )
        })
        .collect()
}

/// Every glossary term the English `en` names whose Chinese name `zh`
/// lacks, as `page: English → Chinese`.
fn missing(page: &str, en: &str, zh: &str) -> Vec<String> {
    let (en, zh) = (prose(en), squeezed(&prose(zh)));
    TERMS
        .iter()
        .flat_map(alternatives)
        .filter(|(name, _)| !SKIPPED.iter().any(|(s, _)| *s == name.as_str()))
        .filter(|(name, chinese)| names(&en, name) && !zh.contains(&squeezed(chinese)))
        .map(|(name, chinese)| format!("{page}: “{name}” → {chinese}"))
        .collect()
}

#[test]
fn every_chinese_page_uses_the_glossarys_terms() {
    let gaps: Vec<String> = super::parity::pairs()
        .iter()
        .flat_map(|(page, en, zh)| missing(page, en, zh))
        .collect();
    assert!(gaps.is_empty(), "terms missing in Chinese: {gaps:#?}");
}

#[test]
fn a_page_without_the_term_fails_naming_page_and_term() {
    let en = "The prompt sets the boundary\ncondition of one pass. \
              The QK circuit decides; see `fixed-point residual` and $relation$.";
    let zh = "提示词为一次前向传播设定了边界条件。QK 回路决定权重。";
    assert!(missing("fixture.md", en, zh).is_empty());
    let gaps = missing("fixture.md", en, "提示词设定了条件。QK回路决定权重。");
    assert_eq!(gaps, ["fixture.md: “boundary condition” → 边界条件"]);
    let gaps = missing(
        "fixture.md",
        "Tied heads learn slower.",
        "权重共用的头学得更慢。",
    );
    assert_eq!(gaps, ["fixture.md: “tied” → 共享"]);
}

#[test]
fn words_inside_longer_words_are_not_terms_plurals_are() {
    assert!(names("a token here", "token"));
    assert!(names("two tokens", "token"));
    assert!(names(
        "the boundary conditions it sets",
        "boundary condition"
    ));
    assert!(!names("tokenised tokensets", "token"));
    assert!(!names("the non-relation", "relation"));
    assert!(names("(relation)", "relation"));
}
