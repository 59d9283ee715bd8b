//! The book's two editions: English (`chapters/`) and Chinese
//! (`chapters/zh/`, 中文版), rendered from the same build with the same
//! numbers, figures and code. The words the library writes into either
//! edition (verdicts, card labels, table headers, figure labels) come from
//! one table per language here.

/// The language of an edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// Both editions, the English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The edition's `language` for `book.toml` and the HTML `lang` attribute.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// Where the edition's sources sit, relative to the book's root.
    pub fn sources(self) -> &'static str {
        match self {
            Lang::En => "chapters",
            Lang::Zh => "chapters/zh",
        }
    }
}

/// Whether `c` is a Han character: the CJK ideographs, extension A and the
/// compatibility ideographs (the ranges `chapters/edition.js` uses too).
pub fn han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}')
}

/// Whether `c` is full-width punctuation: CJK symbols and full-width forms.
pub fn full_width(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}')
}

/// Whether `c` sets as Chinese: a Han character or full-width punctuation.
///
/// ```
/// use attention_geometry::edition::wide;
/// assert!(wide('注') && wide('，') && !wide('a'));
/// ```
pub fn wide(c: char) -> bool {
    han(c) || full_width(c)
}

pub mod cards;
pub mod figures;
pub mod parity;
pub mod phrases;
pub mod words;
