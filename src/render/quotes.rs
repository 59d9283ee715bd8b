//! The `quote` preprocessor: the markers a page writes, filled with what the
//! experiments computed, in the edition's words.

use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::errors::{Error, Result};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

use crate::claim::card::{self, Pages};
use crate::claim::{Claim, text};
use crate::edition::words::Words;
use crate::edition::{Lang, wide};
use crate::measure::Measure;

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
/// mdBook's own `{{#…}}` markers are left alone. Each page opens with a
/// link to the same page in the other edition.
pub struct Quotes {
    pub measures: Vec<Measure>,
    pub claims: Vec<Claim>,
    pub words: &'static Words,
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
                .map(|m| match self.words.lang {
                    Lang::En => m.value.clone(),
                    Lang::Zh => crate::edition::phrases::zh(&m.value),
                })
                .ok_or_else(|| format!("unknown measure '{arg}'")),
            "claim" => Ok(card::markdown(self.claim(arg)?, places, self.words)),
            "verdict" => Ok(self.words.verdict(self.claim(arg)?.verdict()).to_string()),
            "headline" => Ok(text::headline(self.claim(arg)?, places, self.words)),
            "scorecard" if arg.is_empty() => {
                Ok(text::scorecard(&self.claims, &places.chapters, self.words))
            }
            "bottom-line" if arg.is_empty() => Ok(text::bottom_line(&self.claims, self.words)),
            "headlines" if arg.is_empty() => Ok(text::headlines(
                &self.claims,
                &places.chapters,
                places,
                self.words,
            )),
            "book-findings" if arg.is_empty() => {
                Ok(text::book_findings(&self.claims, places, self.words))
            }
            "essay" => essay_quote(arg, self.words.lang),
            "found" => match arg.parse::<u8>() {
                Ok(n) if self.claims.iter().any(|c| c.chapter == n) => {
                    Ok(text::found(&self.claims, n, places, self.words))
                }
                _ => Err(format!("found: '{arg}' is not a chapter with claims")),
            },
            "claims" if arg.is_empty() => Ok(text::registry(
                &self.claims,
                &places.chapters,
                places,
                self.words,
            )),
            "glossary" if arg.is_empty() => Ok(crate::glossary::markdown(self.words.lang)),
            "figure" => places
                .figures
                .get(arg)
                .map(|f| {
                    format!(
                        "<a href=\"{}#{arg}\">{} {}</a>",
                        html(&f.page),
                        self.words.figure,
                        f.label
                    )
                })
                .ok_or_else(|| format!("figure '{arg}' is shown on no page")),
            _ => Err(format!(
                "unknown marker '{{{{{marker}}}}}'; valid: measure KEY, claim ID, verdict ID, headline ID, found N, figure NAME, essay ID…, scorecard, bottom-line, headlines, book-findings, claims, glossary"
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

/// `{{essay ID …}}`: the essay's sentences `ID …`, in the edition's words,
/// in italics: the author's Chinese, or its faithful English rendering.
/// Sentences that are not adjacent in the essay are joined by an ellipsis
/// (`……` in Chinese, ` … ` in English).
fn essay_quote(ids: &str, lang: Lang) -> std::result::Result<String, String> {
    use crate::claim::essay;
    let mut out = String::new();
    let mut last: Option<usize> = None;
    for id in ids.split_whitespace() {
        let at = essay::SENTENCES
            .iter()
            .position(|s| s.id == id)
            .ok_or_else(|| format!("the essay has no sentence '{id}'"))?;
        let s = &essay::SENTENCES[at];
        let gap = last.is_some_and(|l| at != l + 1);
        out.push_str(match (lang, last, gap) {
            (_, None, _) => "",
            (Lang::Zh, _, true) => "……",
            (Lang::Zh, _, false) => "",
            (Lang::En, _, true) => " … ",
            (Lang::En, _, false) => " ",
        });
        out.push_str(match lang {
            Lang::Zh => s.zh,
            Lang::En => s.en,
        });
        last = Some(at);
    }
    match last {
        None => Err("essay: name at least one sentence".into()),
        Some(_) => Ok(format!("*{out}*")),
    }
}

impl Quotes {
    /// The link to `page` in the other edition, which the edition's script
    /// moves into the menu bar (and which stays atop the page without it).
    fn switch(&self, page: &str) -> String {
        let href = match self.words.lang {
            Lang::En => format!("zh/{}", html(page)),
            Lang::Zh => format!("../{}", html(page)),
        };
        let other = match self.words.lang {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        };
        format!(
            "<div class=\"edition-switch\"><a href=\"{href}\" hreflang=\"{code}\" lang=\"{code}\" title=\"{title}\">{text}</a></div>\n\n",
            code = other.code(),
            title = self.words.other_edition_title,
            text = self.words.other_edition,
        )
    }
}

/// `text` with each line break between two wide characters removed: in
/// Chinese a source line break is not a space.
///
/// ```text
/// 第一行\n第二行  →  第一行第二行        a line break beside a Latin letter stays
/// ```
pub fn join_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n'
            && out.chars().next_back().is_some_and(wide)
            && chars.peek().is_some_and(|n| wide(*n))
        {
            continue;
        }
        out.push(c);
    }
    out
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
            Ok(filled) => {
                let page = ch.path.as_ref().map(|p| p.to_string_lossy().into_owned());
                let switch = page.map(|p| self.switch(&p)).unwrap_or_default();
                let filled = match self.words.lang {
                    Lang::En => filled,
                    Lang::Zh => join_lines(&filled),
                };
                ch.content = format!("{switch}{}", places.number(&filled, self.words));
            }
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
pub struct Places {
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

/// The names of the figures an image shows, `![alt](figures/NAME.svg)` (or
/// the Chinese edition's `figures/zh/NAME.svg`), with the byte range of the
/// image's markdown.
fn images(content: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    const OPEN: &str = "](figures/";
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = content[from..].find(OPEN).map(|i| from + i) {
        let name_at = at + OPEN.len();
        let start = content[..at].rfind("![");
        let end = content[name_at..].find(".svg)").map(|i| name_at + i);
        if let (Some(start), Some(end)) = (start, end) {
            let name = &content[name_at..end];
            let name = name.strip_prefix("zh/").unwrap_or(name);
            found.push((start..end + ".svg)".len(), name));
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
    fn number(&self, content: &str, words: &Words) -> String {
        let mut out = String::with_capacity(content.len());
        let mut rest = 0;
        for (range, name) in images(content) {
            out.push_str(&content[rest..range.start]);
            let label = &self.figures[name].label;
            let image = &content[range.start + 2..range.end];
            out.push_str(&format!(
                "<a id=\"{name}\"></a>![{} {label}{}{image}",
                words.figure, words.caption_colon
            ));
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
