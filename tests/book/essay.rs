//! The essay as the book quotes it: the registry of its sentences
//! (`claim::essay`) is the essay, verbatim and whole; every essay claim
//! tests one registry sentence, and every sentence a measurement could
//! bear on is tested; every claim carries its proposition in Chinese; the
//! pages quote the essay only through the registry.
//!
//! `essay.zh.txt` is a verbatim copy of the essay (单标几何 07：注意力, *Deep
//! Manifold* series) from the sessions' shared folder beside the repository,
//! `../shared/essay/single-token-geometry-07-attention.zh.txt` (issue 21).

use attention_geometry::claim::essay::{self, Kind};
use attention_geometry::claim::{Source, Verdict};
use attention_geometry::experiment::claims;

/// The essay, as the tests compare it.
const ESSAY: &str = include_str!("essay.zh.txt");

/// `text` without whitespace: line breaks and spacing never decide a quote.
pub(crate) fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The registry's sentences, in order, are the essay's body: each verbatim,
/// none left out between the first and the last.
#[test]
fn the_registry_is_the_essay_verbatim_and_whole() {
    let essay = squeezed(ESSAY);
    let mut at = 0;
    for s in &essay::SENTENCES {
        let z = squeezed(s.zh);
        let found = essay[at..]
            .find(&z)
            .unwrap_or_else(|| panic!("'{}' is not the essay's next sentence", s.id));
        // between two sentences only a heading may stand, never a sentence
        let between = &essay[at..at + found];
        assert!(
            at == 0 || !between.contains('。'),
            "a sentence of the essay is missing before '{}': {between}",
            s.id
        );
        at += found + z.len();
    }
    let rest = &essay[at..];
    assert!(
        !rest.contains('。'),
        "the essay goes on after the registry's last sentence: {rest}"
    );
}

#[test]
fn every_essay_claim_tests_one_sentence_and_every_empirical_sentence_is_tested() {
    let all = claims();
    for c in &all {
        match (c.source, c.quotes) {
            (Source::Essay, Some(s)) => assert!(
                ESSAY.contains(s.zh) || squeezed(ESSAY).contains(&squeezed(s.zh)),
                "{}: not the essay's words",
                c.id
            ),
            (Source::Essay, None) => panic!("{}: an essay claim quotes no sentence", c.id),
            (Source::Book, Some(_)) => panic!("{}: the book's question quotes the essay", c.id),
            (Source::Book, None) => {}
        }
    }
    let untested: Vec<&str> = essay::SENTENCES
        .iter()
        .filter(|s| s.kind == Kind::Empirical)
        .filter(|s| !all.iter().any(|c| c.quotes.is_some_and(|q| q.id == s.id)))
        .map(|s| s.id)
        .collect();
    assert!(
        untested.is_empty(),
        "empirical sentences no claim tests: {untested:?}"
    );
    let framing: Vec<&str> = all
        .iter()
        .filter_map(|c| c.quotes)
        .filter(|s| s.kind == Kind::Framing)
        .map(|s| s.id)
        .collect();
    assert!(
        framing.is_empty(),
        "claims on framing sentences: {framing:?}"
    );
}

#[test]
fn every_claim_has_its_proposition_in_chinese() {
    let untranslated: Vec<String> = claims()
        .into_iter()
        .filter(|c| c.zh.as_deref().is_none_or(|z| z.trim().is_empty()))
        .map(|c| c.id)
        .collect();
    assert!(
        untranslated.is_empty(),
        "claims without a Chinese proposition: {untranslated:?}"
    );
}

/// A verdict of qualified is earned by a prediction that failed: a scope
/// test, or a core test under some varied choice.
#[test]
fn no_claim_is_qualified_unless_a_prediction_failed() {
    for c in claims()
        .iter()
        .filter(|c| c.verdict() == Verdict::Qualified)
    {
        let failed = c.scope.iter().any(|t| !t.passes())
            || !c.core_holds()
            || c.choices.iter().any(|ch| !ch.holds());
        assert!(failed, "{} is qualified with every prediction held", c.id);
    }
}

/// How each edition attributes a quote of the essay.
const ATTRIBUTIONS: [&str; 2] = ["— the essay", "——《单标几何 07：注意力》"];

/// The block quotes of `page` (`>` lines joined, markers kept).
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

/// The `{{essay …}}` markers of a quote, in order; the words outside them.
fn essay_markers(quote: &str) -> (Vec<String>, String) {
    let mut markers = Vec::new();
    let mut rest = String::new();
    let mut text = quote;
    while let Some(start) = text.find("{{essay ") {
        rest.push_str(&text[..start]);
        let end = text[start..].find("}}").expect("a closed marker") + start;
        markers.push(text[start + 8..end].trim().to_string());
        text = &text[end + 2..];
    }
    rest.push_str(text);
    (markers, rest)
}

/// Every quote of the essay in either edition comes from the registry
/// (`{{essay ID …}}`), and each page pair quotes the same sentences.
#[test]
fn the_pages_quote_the_essay_only_through_the_registry() {
    let mut wrong = Vec::new();
    for (name, en, zh) in super::parity::pairs() {
        let mut quoted = |page: &str, attribution: &str| -> Vec<String> {
            block_quotes(page)
                .into_iter()
                .filter(|q| q.contains(attribution))
                .map(|q| {
                    let (markers, rest) = essay_markers(&q);
                    let words = rest.split(attribution).next().unwrap_or("").trim();
                    if markers.is_empty() || !words.is_empty() {
                        wrong.push(format!(
                            "{name}: a quote of the essay not from the registry: {q}"
                        ));
                    }
                    markers.join(" ")
                })
                .collect()
        };
        let e = quoted(&en, ATTRIBUTIONS[0]);
        let z = quoted(&zh, ATTRIBUTIONS[1]);
        if e != z {
            wrong.push(format!("{name}: English quotes {e:?}, Chinese {z:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
