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

pub mod parity;
pub mod phrases;
pub mod words;
