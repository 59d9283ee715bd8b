//! The terms of the *Deep Manifold* series, in both editions' words: the
//! single source of the glossary page and of the Chinese edition's terms.

use crate::edition::Lang;

/// One term: its English and Chinese names and its meaning in each.
pub struct Term {
    pub en: &'static str,
    pub zh: &'static str,
    pub meaning_en: &'static str,
    pub meaning_zh: &'static str,
}

/// Every term, in the glossary's order.
pub const TERMS: &[Term] = &[];

/// The glossary as a Markdown table in `lang`'s words.
pub fn markdown(lang: Lang) -> String {
    let _ = lang;
    String::new()
}
