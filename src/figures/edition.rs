//! The edition a figure is drawn in: its words ([`say`]) and its font
//! ([`family`]), read from one place while a figure draws ([`in_edition`]).

use std::cell::Cell;

use crate::edition::Lang;
use crate::edition::phrases::untranslated;

thread_local! {
    static EDITION: Cell<Lang> = const { Cell::new(Lang::En) };
}

/// The family the English figures name and measure with (DejaVu Sans).
pub const FAMILY: &str = "sans-serif";

/// The family the Chinese figures name (a CSS list: the browser takes the
/// first it has) and measure with (the embedded Noto Sans CJK SC subset).
pub const FAMILY_ZH: &str = "Noto Sans CJK SC, Source Han Sans SC, sans-serif";

/// Run `draw` with the figures drawn in edition `lang`, then restore the
/// edition it ran in.
pub fn in_edition<T>(lang: Lang, draw: impl FnOnce() -> T) -> T {
    let before = EDITION.with(|e| e.replace(lang));
    let out = draw();
    EDITION.with(|e| e.set(before));
    out
}

/// The edition the figures are being drawn in.
pub fn current() -> Lang {
    EDITION.with(Cell::get)
}

/// The font family of the current edition.
pub fn family() -> &'static str {
    match current() {
        Lang::En => FAMILY,
        Lang::Zh => FAMILY_ZH,
    }
}

/// `text` in the current edition: as it is in English; in Chinese its
/// entry of [`crate::edition::figures`] (numbers put back), or as it is
/// when it has no English word or no entry.
///
/// ```
/// use attention_geometry::edition::Lang;
/// use attention_geometry::figures::edition::{in_edition, say};
/// assert_eq!(say("seed"), "seed");
/// assert_eq!(in_edition(Lang::Zh, || say("n = 64")), "n = 64");
/// ```
pub fn say(text: impl AsRef<str>) -> String {
    let text = text.as_ref();
    match current() {
        Lang::Zh if !untranslated(text).is_empty() => {
            crate::edition::figures::zh(text).unwrap_or_else(|| text.to_string())
        }
        _ => text.to_string(),
    }
}

/// The text of every `<text>` element of `svg`, unescaped, in order.
pub fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            let body = &body[..body.find("</text>")?];
            Some(
                body.trim_matches('\n')
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&apos;", "'")
                    .replace("&amp;", "&"),
            )
        })
        .collect()
}

/// The texts of `svg` that still read English (a word outside the kept
/// names, [`crate::edition::phrases::KEPT`] and
/// [`crate::edition::figures::KEPT`]), each once, in order; a text
/// in the English font ([`FAMILY`]: data drawn as it is, such as a model's
/// tokens, see [`crate::figures::style::verbatim`]) does not count.
pub fn english_left(svg: &str) -> Vec<String> {
    let mut left: Vec<String> = Vec::new();
    let family = format!("font-family=\"{FAMILY}\"");
    let worded = svg
        .split("<text")
        .skip(1)
        .filter(|t| !t[..t.find('>').unwrap_or(0)].contains(&family))
        .map(|t| format!("<text{t}"))
        .collect::<String>();
    for t in texts(&worded) {
        let english = untranslated(&t)
            .iter()
            .any(|w| !crate::edition::figures::KEPT.contains(&w.as_str()));
        if english && !left.contains(&t) {
            left.push(t);
        }
    }
    left
}
