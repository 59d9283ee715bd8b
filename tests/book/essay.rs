//! Every claim of the essay carries the essay's own Chinese sentence,
//! verbatim; the book's own claims carry none, but a Chinese sentence of
//! their own (`zh`) instead.
//!
//! `essay.zh.txt` is a verbatim copy of the essay (单标几何 07：注意力, *Deep
//! Manifold* series) from the sessions' shared folder beside the repository,
//! `../shared/essay/single-token-geometry-07-attention.zh.txt` (issue 21).

use attention_geometry::claim::Source;
use attention_geometry::experiment::claims;

/// The essay, as the tests compare it.
const ESSAY: &str = include_str!("essay.zh.txt");

/// `text` without whitespace: line breaks and spacing never decide a quote.
pub(crate) fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The fragments of `original` (non-adjacent sentences are joined by `……`)
/// that the essay does not contain.
fn unquoted(original: &str, essay: &str) -> Vec<String> {
    let essay = squeezed(essay);
    original
        .split("……")
        .map(squeezed)
        .filter(|f| f.is_empty() || !essay.contains(f.as_str()))
        .collect()
}

#[test]
fn every_essay_claim_quotes_the_essay_verbatim() {
    let mut missing = Vec::new();
    let mut misquoted = Vec::new();
    for c in claims().iter().filter(|c| c.source == Source::Essay) {
        match &c.original {
            None => missing.push(c.id.clone()),
            Some(o) => {
                let bad = unquoted(o, ESSAY);
                if !bad.is_empty() {
                    misquoted.push(format!("{}: {bad:?}", c.id));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "essay claims without an original: {missing:?}"
    );
    assert!(misquoted.is_empty(), "not in the essay: {misquoted:#?}");
}

#[test]
fn the_books_claims_quote_nothing() {
    let quoting: Vec<String> = claims()
        .into_iter()
        .filter(|c| c.source == Source::Book && c.original.is_some())
        .map(|c| c.id)
        .collect();
    assert!(
        quoting.is_empty(),
        "the book's own claims with an original: {quoting:?}"
    );
}

#[test]
fn every_book_claim_has_a_chinese_sentence_and_no_essay_claim_has_one() {
    let all = claims();
    let untranslated: Vec<&str> = all
        .iter()
        .filter(|c| c.source == Source::Book)
        .filter(|c| c.zh.as_deref().is_none_or(|z| z.trim().is_empty()))
        .map(|c| c.id.as_str())
        .collect();
    assert!(
        untranslated.is_empty(),
        "the book's own claims without a Chinese sentence: {untranslated:?}"
    );
    let translated: Vec<&str> = all
        .iter()
        .filter(|c| c.source == Source::Essay && c.zh.is_some())
        .map(|c| c.id.as_str())
        .collect();
    assert!(
        translated.is_empty(),
        "essay claims with a zh sentence (they quote the essay in `original`): {translated:?}"
    );
}

#[test]
fn a_misquote_is_caught() {
    let essay = "注意力是一种\n局部关系算子。它构造临时关系。";
    assert!(unquoted("注意力是一种局部关系算子。……它构造临时关系。", essay).is_empty());
    assert_eq!(unquoted("注意力是一种全局关系算子。", essay).len(), 1);
    assert_eq!(
        unquoted("……它构造临时关系。", essay).len(),
        1,
        "an empty fragment"
    );
}

/// How the Chinese edition attributes a quote of the essay.
const ATTRIBUTION: &str = "——《单标几何 07：注意力》";

/// The block quotes of `page` (`>` lines joined, markers removed).
fn block_quotes(page: &str) -> Vec<String> {
    let mut quotes = Vec::new();
    let mut open: Option<String> = None;
    for line in page.lines() {
        match (line.strip_prefix('>'), &mut open) {
            (Some(text), Some(q)) => {
                q.push(' ');
                q.push_str(text.trim());
            }
            (Some(text), None) => open = Some(text.trim().to_string()),
            (None, _) => quotes.extend(open.take()),
        }
    }
    quotes.extend(open);
    quotes
}

/// Where the English quotes the essay ("— the essay"), the Chinese quotes
/// the essay's own words, verbatim, with its attribution.
#[test]
fn the_chinese_edition_quotes_the_essay_in_its_own_words() {
    let mut wrong = Vec::new();
    for (name, en, zh) in super::parity::pairs() {
        let english = block_quotes(&en)
            .iter()
            .filter(|q| q.contains("— the essay"))
            .count();
        let chinese: Vec<String> = block_quotes(&zh)
            .into_iter()
            .filter(|q| q.contains(ATTRIBUTION))
            .collect();
        if english != chinese.len() {
            wrong.push(format!(
                "{name}: {english} quotes of the essay in English, {} in Chinese",
                chinese.len()
            ));
        }
        for q in chinese {
            let quoted = q
                .split(ATTRIBUTION)
                .next()
                .unwrap()
                .trim()
                .trim_matches('*');
            let bad = unquoted(quoted, ESSAY);
            if !bad.is_empty() {
                wrong.push(format!("{name}: not the essay's words: {bad:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
