//! The rendered book is whole: every chapter has a page, every image and
//! internal link resolves, math is typeset, and nothing loads from the network.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Chapter sources listed in SUMMARY.md, e.g. `01-coordinate-mismatch.md`.
pub(crate) fn summary_pages() -> Vec<String> {
    edition_pages("chapters")
}

/// The pages the `SUMMARY.md` of the edition whose sources are in `dir` lists.
pub(crate) fn edition_pages(dir: &str) -> Vec<String> {
    let summary = fs::read_to_string(format!("{dir}/SUMMARY.md")).unwrap();
    summary
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .filter(|s| s.ends_with(".md"))
        .map(String::from)
        .collect()
}

/// Every value of `attr="…"` in `html`.
fn attributes<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let pat = format!("{attr}=\"");
    html.split(pat.as_str())
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect()
}

/// The book rendered once per test process into cargo's directory for
/// tests' files (`target/tmp/book`, replaced by the next run, so that no
/// run leaves a copy behind), shared by every test that reads it.
pub(crate) fn render() -> &'static Path {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("book");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let index = attention_geometry::render::render(root, Some(&dir)).unwrap();
        index.parent().unwrap().to_path_buf()
    })
}

/// The print page's entry among the pages, by the name its source would have.
const PRINT: &str = "print.md";

/// Each edition: its sources and its place in the rendered book.
pub(crate) const EDITIONS: [(&str, &str); 2] = [("chapters", ""), ("chapters/zh", "zh")];

#[test]
fn the_rendered_book_is_whole() {
    for (sources, dir) in EDITIONS {
        edition_is_whole(sources, &render().join(dir));
    }
}

/// The edition rendered from `sources` into `out` is whole.
fn edition_is_whole(sources: &str, out: &Path) {
    assert!(out.join("index.html").is_file());
    let mut pages = BTreeMap::new();
    for md in edition_pages(sources) {
        let html = out.join(md.replace(".md", ".html"));
        assert!(html.is_file(), "{md} produced no page");
        pages.insert(md, fs::read_to_string(&html).unwrap());
    }
    // the print page holds every chapter, and is held to the same checks
    let print = out.join("print.html");
    assert!(print.is_file(), "no print.html");
    pages.insert(PRINT.into(), fs::read_to_string(&print).unwrap());

    for (md, html) in &pages {
        // images resolve
        for src in attributes(html, "src") {
            assert!(
                !src.starts_with("http://") && !src.starts_with("https://"),
                "{md} loads {src}"
            );
            if src.ends_with(".svg") || src.ends_with(".png") {
                assert!(out.join(src).is_file(), "{md}: image {src} is missing");
            }
        }
        // stylesheets are local
        for tag in html.split("<link").skip(1) {
            let tag = tag.split('>').next().unwrap();
            if tag.contains("stylesheet") {
                for href in attributes(tag, "href") {
                    assert!(!href.starts_with("http"), "{md} loads stylesheet {href}");
                    let local = href.split('?').next().unwrap();
                    assert!(
                        out.join(local).is_file(),
                        "{md}: stylesheet {href} is missing"
                    );
                }
            }
        }
        // internal links resolve, with their anchors
        for href in attributes(html, "href") {
            if href.starts_with("http") || href.starts_with("mailto:") || href.is_empty() {
                continue;
            }
            let (file, anchor) = match href.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (href, None),
            };
            let target = if file.is_empty() {
                out.join(md.replace(".md", ".html"))
            } else {
                out.join(file)
            };
            assert!(target.exists(), "{md}: link {href} points nowhere");
            let anchor = anchor.filter(|a| !a.is_empty());
            if let Some(a) = anchor.filter(|_| target.extension().is_some_and(|e| e == "html")) {
                let t = fs::read_to_string(&target).unwrap();
                assert!(
                    t.contains(&format!("id=\"{a}\"")),
                    "{md}: anchor #{a} missing in {file}"
                );
            }
        }
        // math is typeset
        let source = match md.as_str() {
            PRINT => "$$".into(), // every chapter's math
            md => fs::read_to_string(Path::new(sources).join(md)).unwrap(),
        };
        if source.contains("$$") || source.contains("\\(") || source.matches('$').count() >= 2 {
            assert!(
                html.contains("class=\"katex"),
                "{md} has math but no KaTeX output"
            );
        }
        assert!(!html.contains("$$"), "{md} has raw $$ left");
        assert!(!html.contains("katex-error"), "{md} has a LaTeX error");
        assert!(!html.contains("{{measure"), "{md} has an unfilled measure");
        assert!(
            !html.contains("{{#"),
            "{md} has an unresolved mdBook include"
        );
    }
    assert!(out.join("katex/katex.min.css").is_file());
    assert!(out.join("katex/fonts/KaTeX_Main-Regular.woff2").is_file());
    assert!(
        out.join("searchindex.js").is_file()
            || fs::read_dir(out).unwrap().any(|e| e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("searchindex")),
        "no search index"
    );
}

/// A one-page book in a temporary folder, with this book's configuration.
fn tiny_book(page: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::copy("book.toml", dir.path().join("book.toml")).unwrap();
    fs::create_dir(dir.path().join("chapters")).unwrap();
    fs::write(
        dir.path().join("chapters/SUMMARY.md"),
        "# Summary\n\n[Page](page.md)\n",
    )
    .unwrap();
    fs::write(dir.path().join("chapters/page.md"), page).unwrap();
    dir
}

#[test]
fn a_latex_error_fails_the_build_naming_the_page() {
    let book = tiny_book("# Page\n\nBroken: $\\frac{1}{$ here.\n");
    let out = tempfile::tempdir().unwrap();
    let err = attention_geometry::render::render(book.path(), Some(out.path())).unwrap_err();
    assert!(err.contains("Page") && err.contains("LaTeX error"), "{err}");
}

#[test]
fn an_unknown_measure_fails_the_build_naming_it() {
    let book = tiny_book("# Page\n\nValue: {{measure ch99.nothing}}.\n");
    let out = tempfile::tempdir().unwrap();
    let err = attention_geometry::render::render(book.path(), Some(out.path())).unwrap_err();
    assert!(err.contains("unknown measure 'ch99.nothing'"), "{err}");
}

/// The words of `html`'s text, its tags left out.
fn words(html: &str) -> usize {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().count()
}

/// The front page: the chapter map, the scorecard and the headline findings
/// first, within about two printed pages; every claim in the registry, each
/// linked to its card.
#[test]
fn the_introduction_leads_with_the_map_the_scorecard_and_the_headlines() {
    let out = render();
    let html = fs::read_to_string(out.join("introduction.html")).unwrap();
    let at = |id: &str| {
        html.find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("the introduction has no #{id}"))
    };
    let order = [
        "chapter-map",
        "the-scorecard",
        "headline-findings",
        "the-argument-in-brief",
    ];
    let places: Vec<usize> = order.iter().map(|id| at(id)).collect();
    assert!(
        places.windows(2).all(|w| w[0] < w[1]),
        "{order:?} out of order"
    );
    let start = html.find("<main>").unwrap();
    let front = words(&html[start..places[3]]);
    assert!(
        front < 1000,
        "{front} words before the argument: more than two printed pages"
    );
    assert!(html.contains("verdict-contradicted") && html.contains("verdict-supported"));

    let registry = fs::read_to_string(out.join("appendix-claims.html")).unwrap();
    let pages: Vec<String> = summary_pages()
        .iter()
        .map(|md| fs::read_to_string(out.join(md.replace(".md", ".html"))).unwrap())
        .collect();
    for c in attention_geometry::experiment::claims() {
        assert!(
            registry.contains(&format!("id=\"registry-{}\"", c.id)),
            "{} is not in the registry",
            c.id
        );
        let card = format!("<div class=\"claim-card\" id=\"{}\">", c.id);
        assert!(
            pages.iter().any(|p| p.contains(&card)),
            "{} has no card",
            c.id
        );
    }
}

/// The column's width in characters of code: about 750 px of 14 px monospace.
const COLUMN: usize = 86;

/// Nothing scrolls sideways or renders by accident: no line of a code block
/// wider than the column, no ordered list that starts a sentence's second
/// line (a line "1. …" inside a paragraph), and no chapter that names itself
/// in the third person ("chapter 7's" in chapter 7).
#[test]
fn code_fits_the_column_and_no_prose_renders_by_accident() {
    let out = render();
    let mut wide = Vec::new();
    for md in summary_pages() {
        let html = fs::read_to_string(out.join(md.replace(".md", ".html"))).unwrap();
        for block in html.split("<pre>").skip(1) {
            let code = block.split("</pre>").next().unwrap();
            let mut text = String::new();
            let mut in_tag = false;
            for c in code.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            let text = text
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            for line in text.lines() {
                // a hidden snippet line (`# …`) is not shown
                let shown = line.chars().count();
                if shown > COLUMN && !line.starts_with("# ") {
                    wide.push(format!("{md}: {shown} columns: {line}"));
                }
            }
        }
        let source = fs::read_to_string(Path::new("chapters").join(&md)).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        for (i, pair) in lines.windows(2).enumerate() {
            let (before, line) = (pair[0].trim(), pair[1]);
            let list_like = |l: &str| {
                l.starts_with(['-', '*', '|', '>', '#', '$'])
                    || l.split_once(". ")
                        .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            };
            assert!(
                !(line.starts_with("1. ") && !before.is_empty() && !list_like(before)),
                "{md}:{}: '1. ' starts a line inside a paragraph and renders as a list",
                i + 2
            );
        }
        if let Some(n) = md.get(..2).and_then(|n| n.parse::<u32>().ok()) {
            let lower = source.to_lowercase();
            assert!(
                !lower.contains(&format!("chapter {n}'s"))
                    && !lower.contains(&format!("in chapter {n} ")),
                "{md} names itself in the third person"
            );
        }
    }
    assert!(
        wide.is_empty(),
        "code wider than the column:\n{}",
        wide.join("\n")
    );
}

/// Every `id="…"` of a page's main text, in order.
fn ids(html: &str) -> Vec<String> {
    let main = html.split("<main>").nth(1).unwrap_or("");
    let main = main.split("</main>").next().unwrap_or("");
    attributes(main, "id")
        .into_iter()
        .map(String::from)
        .collect()
}

/// The two editions are one book: each page's anchors (headings, figures,
/// claim cards) are the same in both, so every link lands in either, and
/// each page links to its counterpart in the other edition.
#[test]
fn each_page_has_the_same_anchors_in_both_editions_and_links_to_its_counterpart() {
    let out = render();
    let mut differ = Vec::new();
    for md in summary_pages() {
        let page = md.replace(".md", ".html");
        let en = fs::read_to_string(out.join(&page)).unwrap();
        let zh = fs::read_to_string(out.join("zh").join(&page)).unwrap();
        if ids(&en) != ids(&zh) {
            let (a, b) = (ids(&en), ids(&zh));
            let first = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i));
            differ.push(format!(
                "{page}: anchor {first:?} is {:?} in English, {:?} in Chinese",
                first.and_then(|i| a.get(i)),
                first.and_then(|i| b.get(i))
            ));
        }
        assert!(
            en.contains(&format!("href=\"zh/{page}\"")),
            "{page} does not link to its Chinese page"
        );
        assert!(
            zh.contains("<html lang=\"zh-CN\""),
            "zh/{page} is not marked Chinese"
        );
        assert!(
            zh.contains(&format!("href=\"../{page}\"")),
            "zh/{page} does not link to its English page"
        );
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
