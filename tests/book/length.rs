//! Pages a reader finishes: no page of the book holds more than about 2,500
//! words of prose. Code, tables, figures, math and folded detail are not
//! prose; a quoted number (`{{measure KEY}}`) is one word in the source, and
//! the words it prints on the rendered page, where claim cards and the list
//! of references are not prose either.

use std::fs;

/// The most words of prose one page may hold.
const MOST: usize = 2500;

/// `text` with every span from `open` to the next `close` replaced by `with`.
pub(crate) fn cut(text: &str, open: &str, close: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(open) {
        out.push_str(&rest[..at]);
        out.push_str(with);
        let after = &rest[at + open.len()..];
        rest = after
            .find(close)
            .map_or("", |end| &after[end + close.len()..]);
    }
    out.push_str(rest);
    out
}

/// The words of prose in a page's markdown.
fn prose_words(markdown: &str) -> usize {
    let mut text = cut(markdown, "```", "```", "");
    text = cut(&text, "<details>", "</details>", "");
    text = cut(&text, "$$", "$$", "");
    text = cut(&text, "$", "$", "");
    text = cut(&text, "{{", "}}", "1");
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.starts_with('|') && !l.starts_with("!["))
        .map(|l| cut(l, "<", ">", ""))
        .map(|l| {
            l.split_whitespace()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .count()
        })
        .sum()
}

#[test]
fn counting_leaves_out_what_is_not_prose() {
    let page = "One two three.\n\n```rust\nlet x = 1;\n```\n\n| a | b |\n\n\
                <details>\nfolded words\n</details>\n\n$x + y$ and {{measure k}}.\n";
    assert_eq!(prose_words(page), 5); // One two three. and 1.
}

#[test]
fn no_page_holds_more_than_about_2500_words_of_prose() {
    let mut long = Vec::new();
    for entry in fs::read_dir("chapters").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            let words = prose_words(&fs::read_to_string(&path).unwrap());
            if words > MOST {
                long.push(format!("{}: {words}", path.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "pages above {MOST} words of prose (move per-model detail to a sub-page): {long:?}"
    );
}

/// The words a reader sees on a rendered page before opening a fold: its
/// prose outside folds, claim cards, tables, code and the references
/// (each formula one word).
fn seen_words(html: &str) -> usize {
    let end = html.find("id=\"references\"").unwrap_or(html.len());
    super::numbers::prose_blocks(&html[..end], true)
        .iter()
        .map(|b| {
            b.split_whitespace()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .count()
        })
        .sum()
}

/// The same limit on the rendered English pages, as a reader sees them: the
/// measures' words printed, every fold and card shut.
#[test]
fn no_rendered_page_shows_more_than_about_2500_words_of_prose() {
    let out = super::rendered::render();
    let (sources, dir) = super::rendered::EDITIONS[0];
    let mut counts = Vec::new();
    for page in super::rendered::edition_pages(sources) {
        let html = fs::read_to_string(out.join(dir).join(page.replace(".md", ".html"))).unwrap();
        counts.push((page, seen_words(&html)));
    }
    let long: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > MOST)
        .map(|(p, n)| format!("{p}: {n}"))
        .collect();
    assert!(counts.len() > 10, "only {} pages read", counts.len());
    assert!(
        long.is_empty(),
        "rendered pages above {MOST} words of prose: {long:?}"
    );
}
