//! The essay as data: every sentence of *单标几何 07：注意力* in the author's
//! own Chinese, a faithful English rendering that keeps every hedge, and
//! whether a measurement could bear on it. Introduced in the introduction.
//!
//! An essay claim tests exactly one of these sentences ([`super::Claim::quotes`]);
//! the chapters' opening quotes and the introduction's argument read them
//! from here (`{{essay ID …}}`), so a rendering cannot drop a hedge the
//! original carries: [`MODALS`] pairs each Chinese modal word with the
//! English words that may render it, and a test holds every rendering to it.
//!
//! ```
//! use attention_geometry::claim::essay::{self, Kind};
//! let s = essay::sentence("score-not-direct");
//! assert_eq!(s.kind, Kind::Empirical);
//! assert!(s.en.contains("not a direct measure"));
//! assert!(essay::SENTENCES.iter().filter(|s| s.kind == Kind::Empirical).count() >= 15);
//! ```

/// Whether a measurement could bear on a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A measurement could bear on it: the book tests it with a claim.
    Empirical,
    /// A definition, an analogy, the history or a pointer: nothing to measure.
    Framing,
}

/// One sentence of the essay.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sentence {
    /// A stable slug (`score-not-direct`), used by claims and markers.
    pub id: &'static str,
    /// The book's chapter that reads this sentence (1–7; 0 for the essay's frame).
    pub chapter: u8,
    /// The essay's words, verbatim.
    pub zh: &'static str,
    /// A faithful English rendering: every modal word of `zh` kept.
    pub en: &'static str,
    pub kind: Kind,
}

/// The Chinese modal and hedging words, each with the English words that
/// may render it: where a sentence's `zh` has the first, its `en` has one of the second.
pub const MODALS: [(&str, &[&str]); 14] = [
    ("可能", &["may", "possible"]),
    ("可以", &["can"]),
    ("常常", &["often"]),
    ("逐渐", &["gradually"]),
    ("不一定", &["not necessarily"]),
    ("只", &["merely"]),
    ("甚至", &["even"]),
    ("进一步说明", &["further suggests"]),
    ("更适合", &["better understood as"]),
    ("动态", &["dynamic"]),
    ("临时", &["temporary"]),
    ("主要", &["mainly"]),
    ("显著", &["significant"]),
    ("几乎", &["almost"]),
];

pub mod sentences;
pub use sentences::SENTENCES;

/// Every sentence, in the essay's order.
pub fn all() -> impl Iterator<Item = &'static Sentence> {
    SENTENCES.iter()
}

/// The sentence `id`.
///
/// # Panics
/// If the essay has no sentence `id` (the message lists the valid ids' count).
pub fn sentence(id: &str) -> &'static Sentence {
    find(id).unwrap_or_else(|| {
        panic!(
            "the essay has no sentence '{id}' ({} sentences: see essay::SENTENCES)",
            all().count()
        )
    })
}

/// The sentence `id`, if the essay has it.
pub fn find(id: &str) -> Option<&'static Sentence> {
    all().find(|s| s.id == id)
}

/// The sentence whose Chinese text is `zh`, verbatim.
pub fn by_text(zh: &str) -> Option<&'static Sentence> {
    all().find(|s| s.zh == zh)
}

/// The modal words of `s.zh` whose English `s.en` lacks: empty for a faithful rendering.
pub fn dropped_hedges(s: &Sentence) -> Vec<&'static str> {
    let en = s.en.to_lowercase();
    MODALS
        .iter()
        .filter(|(zh, ens)| s.zh.contains(zh) && !ens.iter().any(|e| en.contains(e)))
        .map(|(zh, _)| *zh)
        .collect()
}
