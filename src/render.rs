//! Render the book in-process: mdBook with offline KaTeX and the measured
//! numbers put into the prose. Needs the default `render` feature.
//!
//! Two preprocessors run before the HTML renderer, in this order (see
//! `book.toml`): `quote` replaces every `{{measure KEY}}`, `{{claim ID}}`,
//! `{{verdict ID}}` and `{{claims}}` with what the experiments computed
//! (numbers, claims and their verdicts), then `katex` typesets `$…$` and `$$…$$` and
//! links the vendored stylesheet with a path relative to each page.

use std::path::{Path, PathBuf};

use mdbook_driver::MDBook;
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::config::Config;
use mdbook_preprocessor::errors::{Error, Result};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

use crate::claim::card::{self, Pages};
use crate::claim::{Claim, text};
use crate::measure::Measure;

/// mdBook's log on standard error at `INFO` (or as `RUST_LOG` says), in
/// colour only on a terminal (so CI logs carry no escape codes). Once per
/// process; later calls keep the first.
fn log_to_stderr() {
    use std::io::IsTerminal;
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::filter::LevelFilter;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            EnvFilter::builder()
                .with_default_directive(LevelFilter::INFO.into())
                .from_env_lossy(),
        )
        .try_init();
}

/// Render the book at `root` into `dest` (default: `book.toml`'s build dir)
/// and return the path of its `index.html`. A LaTeX error or an unknown
/// measure or claim fails the build with a message naming the page.
pub fn render(root: &Path, dest: Option<&Path>) -> std::result::Result<PathBuf, String> {
    log_to_stderr();
    let build = || -> Result<PathBuf> {
        let mut config = Config::from_disk(root.join("book.toml"))?;
        if let Some(d) = dest {
            config.build.build_dir = d.to_path_buf();
        }
        let mut book = MDBook::load_with_config(root, config)?;
        book.with_preprocessor(Quotes {
            measures: crate::experiment::measures(),
            claims: crate::experiment::claims(),
        });
        book.with_preprocessor(Katex);
        // the explorer's data is computed while mdBook builds, then written beside its page
        let explorer = book.source_dir().join(EXPLORER_PAGE).is_file();
        std::thread::scope(|s| {
            let data = s.spawn(|| explorer.then(explorer_data));
            book.build()?;
            let html = book.build_dir_for("html");
            if let Some(script) = data.join().expect("the explorer's data panicked") {
                let path = html.join(crate::figures::explorer::DATA_FILE);
                crate::file::write_atomic(&path, script.map_err(Error::msg)?.as_bytes())
                    .map_err(|e| Error::msg(format!("cannot write {}: {e}", path.display())))?;
            }
            Ok(html.join("index.html"))
        })
    };
    build().map_err(|e| format!("{e:#}"))
}

/// The explorer's page; a book without it (a test's tiny book) gets no data.
const EXPLORER_PAGE: &str = "explorer.md";

/// How many sentences the explorer offers of each model's corpus.
pub const EXPLORER_SENTENCES: usize = 8;

/// The sentences the explorer offers for `arch`: the first of those chapter 2
/// reads (the paraphrase corpus for the encoder, the context sentences for the decoder).
pub fn explorer_texts(arch: crate::pretrained::transformer::Architecture) -> Vec<String> {
    use crate::experiment::coverage::trained::{BOOK, texts};
    texts(arch, BOOK)
        .into_iter()
        .take(EXPLORER_SENTENCES)
        .collect()
}

/// The explorer's data as the script its page loads (computed from the
/// models, not cached: a second or two of two cores).
fn explorer_data() -> std::result::Result<String, String> {
    use crate::pretrained::transformer::Architecture;
    let runs: Vec<_> = Architecture::ALL
        .into_iter()
        .map(|a| (a, explorer_texts(a)))
        .collect();
    let json = crate::pretrained::explorer::json(&runs)?;
    Ok(crate::figures::explorer::data_script(&json, None))
}

/// Fills the markers a chapter writes with what the experiments computed:
/// `{{measure KEY}}` (a number), `{{claim ID}}` (the claim's card),
/// `{{verdict ID}}` (its verdict word), `{{headline ID}}` (the claim in a
/// line, linked to its card), `{{found N}}` (chapter N's claims and verdicts,
/// its "What this chapter found" box), `{{scorecard}}` (verdicts counted per chapter),
/// `{{claims}}` (the registry of every claim, linked to the cards) and
/// `{{figure NAME}}` ("Figure N.M", an HTML link to the figure, so it
/// works in markdown and inside HTML such as a fold's summary). Every figure
/// `![alt](figures/NAME.svg)` is numbered in book order within its chapter
/// and gets an anchor and the label in its alt text.
/// mdBook's own `{{#…}}` markers are left alone.
struct Quotes {
    measures: Vec<Measure>,
    claims: Vec<Claim>,
}

impl Quotes {
    fn claim(&self, id: &str) -> std::result::Result<&Claim, String> {
        self.claims
            .iter()
            .find(|c| c.id == id)
            .ok_or_else(|| format!("unknown claim '{id}'"))
    }

    fn quote(&self, marker: &str, places: &Places) -> std::result::Result<String, String> {
        let (what, arg) = marker.split_once(' ').unwrap_or((marker, ""));
        let arg = arg.trim();
        match what {
            "measure" => self
                .measures
                .iter()
                .find(|m| m.key == arg)
                .map(|m| m.value.clone())
                .ok_or_else(|| format!("unknown measure '{arg}'")),
            "claim" => Ok(card::markdown(self.claim(arg)?, places)),
            "verdict" => Ok(self.claim(arg)?.verdict().to_string()),
            "headline" => Ok(text::headline(self.claim(arg)?, places)),
            "scorecard" if arg.is_empty() => Ok(text::scorecard(&self.claims, &places.chapters)),
            "found" => match arg.parse::<u8>() {
                Ok(n) if self.claims.iter().any(|c| c.chapter == n) => {
                    Ok(text::found(&self.claims, n, places))
                }
                _ => Err(format!("found: '{arg}' is not a chapter with claims")),
            },
            "claims" if arg.is_empty() => {
                Ok(text::registry(&self.claims, &places.chapters, places))
            }
            "figure" => places
                .figures
                .get(arg)
                .map(|f| format!("<a href=\"{}#{arg}\">Figure {}</a>", html(&f.page), f.label))
                .ok_or_else(|| format!("figure '{arg}' is shown on no page")),
            _ => Err(format!(
                "unknown marker '{{{{{marker}}}}}'; valid: measure KEY, claim ID, verdict ID, headline ID, found N, figure NAME, scorecard, claims"
            )),
        }
    }

    fn fill(&self, text: &str, places: &Places) -> std::result::Result<String, String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            if after.starts_with('#') {
                out.push_str("{{");
                rest = after;
                continue;
            }
            let end = after.find("}}").ok_or_else(|| {
                format!("an unclosed {{{{ at '{}'", &after[..after.len().min(30)])
            })?;
            out.push_str(&self.quote(after[..end].trim(), places)?);
            rest = &after[end + 2..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

impl Preprocessor for Quotes {
    fn name(&self) -> &str {
        "quote"
    }

    fn run(&self, _: &PreprocessorContext, mut book: Book) -> Result<Book> {
        let mut places = Places::default();
        // in reading order: a chapter, then its sub-pages
        for ch in book.chapters() {
            if let Some(path) = &ch.path {
                let top = ch.parent_names.is_empty();
                places.read(&ch.name, &path.to_string_lossy(), top, &ch.content);
            }
        }
        let mut errors = Vec::new();
        book.for_each_chapter_mut(|ch| match self.fill(&ch.content, &places) {
            Ok(filled) => ch.content = places.number(&filled),
            Err(e) => errors.push(format!("{}: {e}", ch.name)),
        });
        match errors.is_empty() {
            true => Ok(book),
            false => Err(Error::msg(errors.join("; "))),
        }
    }
}

/// Where the book shows what: read from every page before any is filled.
#[derive(Default)]
struct Places {
    /// Claim id → the page holding its `{{claim ID}}` card.
    cards: std::collections::HashMap<String, String>,
    /// The page holding `{{claims}}`.
    registry: Option<String>,
    /// `(number, title, page)` of each numbered chapter (`NN-name.md`; its
    /// sub-pages, `NN-name-part.md`, sit below it in `SUMMARY.md`).
    chapters: Vec<(u8, String, String)>,
    /// Figure name → its label and page.
    figures: std::collections::HashMap<String, Shown>,
    /// Figures numbered so far, per chapter label.
    counts: std::collections::HashMap<String, usize>,
}

/// Where a figure is shown: `3.7` on `03-multi-head.md`.
struct Shown {
    label: String,
    page: String,
}

/// The names of the figures an image shows, `![alt](figures/NAME.svg)`, with
/// the byte range of the image's markdown.
fn images(content: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    const OPEN: &str = "](figures/";
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = content[from..].find(OPEN).map(|i| from + i) {
        let name_at = at + OPEN.len();
        let start = content[..at].rfind("![");
        let end = content[name_at..].find(".svg)").map(|i| name_at + i);
        if let (Some(start), Some(end)) = (start, end) {
            found.push((start..end + ".svg)".len(), &content[name_at..end]));
        }
        from = name_at;
    }
    found
}

/// `page.md` → `page.html`.
fn html(page: &str) -> String {
    format!("{}.html", page.trim_end_matches(".md"))
}

impl Places {
    /// Read one page, in book order; `top` says it is not a sub-page.
    fn read(&mut self, title: &str, page: &str, top: bool, content: &str) {
        for marker in content.split("{{").skip(1) {
            let marker = marker.split("}}").next().unwrap_or("").trim();
            match marker.split_once(' ') {
                Some(("claim", id)) => {
                    self.cards.insert(id.trim().to_string(), page.to_string());
                }
                None if marker == "claims" => self.registry = Some(page.to_string()),
                _ => {}
            }
        }
        let number = page.split_once('-').and_then(|(n, _)| n.parse::<u8>().ok());
        if let (Some(n), true) = (number, top) {
            self.chapters.push((n, title.to_string(), page.to_string()));
            self.chapters.sort();
        }
        // a chapter's figures are N.1, N.2, … over its pages; the appendices' A.1, …
        let label = number.map_or("A".to_string(), |n| n.to_string());
        for (_, name) in images(content) {
            let count = self.counts.entry(label.clone()).or_default();
            *count += 1;
            let shown = Shown {
                label: format!("{label}.{count}"),
                page: page.to_string(),
            };
            self.figures.entry(name.to_string()).or_insert(shown);
        }
    }

    /// `content` with each figure's image anchored at its name and its alt
    /// text opening with its label: `<a id="NAME"></a>![Figure N.M: alt](…)`.
    fn number(&self, content: &str) -> String {
        let mut out = String::with_capacity(content.len());
        let mut rest = 0;
        for (range, name) in images(content) {
            out.push_str(&content[rest..range.start]);
            let label = &self.figures[name].label;
            let image = &content[range.start + 2..range.end];
            out.push_str(&format!("<a id=\"{name}\"></a>![Figure {label}: {image}"));
            rest = range.end;
        }
        out.push_str(&content[rest..]);
        out
    }
}

impl Pages for Places {
    fn card(&self, id: &str) -> Option<&str> {
        self.cards.get(id).map(String::as_str)
    }
    fn registry(&self) -> Option<&str> {
        self.registry.as_deref()
    }
}

/// mdbook-katex, made strict (a LaTeX error fails the build) and offline
/// (each page links the vendored `katex/katex.min.css`).
struct Katex;

impl Preprocessor for Katex {
    fn name(&self) -> &str {
        "katex"
    }

    fn run(&self, ctx: &PreprocessorContext, book: Book) -> Result<Book> {
        let mut book = mdbook_katex::preprocess::KatexProcessor.run(ctx, book)?;
        let mut errors = Vec::new();
        book.for_each_chapter_mut(|ch| {
            if let Some(at) = ch.content.find("katex-error") {
                let snippet: String = ch.content[at..].chars().take(200).collect();
                errors.push(format!("{}: LaTeX error: {snippet}", ch.name));
            }
            // a page at depth n (n folders below the book root) reaches the css through n × "../"
            let depth = ch
                .path
                .as_ref()
                .map_or(0, |p| p.components().count().saturating_sub(1));
            let href = format!("{}katex/katex.min.css", "../".repeat(depth));
            ch.content = format!(
                "<link rel=\"stylesheet\" href=\"{href}\">\n\n{}",
                ch.content
            );
        });
        match errors.is_empty() {
            true => Ok(book),
            false => Err(Error::msg(errors.join("\n"))),
        }
    }
}
