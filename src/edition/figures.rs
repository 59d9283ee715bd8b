//! The figures' English in the Chinese edition: every title, axis
//! description, legend entry, tick word and note a figure draws, with its
//! Chinese, looked up whole with its numbers taken out (as the cards'
//! strings are: [`super::cards::skeleton`]). One table per chapter
//! ([`TABLES`]); the Chinese figures are drawn with
//! [`crate::figures::edition::say`], measured with the CJK subset that
//! `scripts/subset-cjk-font.py` cuts to the characters these tables use.

mod appendix;
mod ch01;
mod ch02;
mod ch03;
mod ch04;
mod ch05;
mod ch06;
mod ch07;

use std::collections::HashMap;
use std::sync::OnceLock;

use super::cards::{catalogue_of, look_up};

/// Every table of English figure strings → Chinese.
pub const TABLES: &[&[(&str, &str)]] = &[
    ch01::FIGURES,
    ch02::FIGURES,
    ch03::FIGURES,
    ch04::FIGURES,
    ch05::FIGURES,
    ch06::FIGURES,
    ch07::FIGURES,
    appendix::FIGURES,
];

/// Words the Chinese figures keep in English besides the edition's kept
/// names ([`super::phrases::KEPT`]): the word the examples follow, function
/// names and units of the formulas, the counterfactuals' codes the captions
/// spell out, names of methods.
pub const KEPT: &[&str] = &[
    "bank", "log", "cos", "exp", "Diag", "Jz", "nats", "ms", "GFLOP", "NaN", "logit", "logits",
    "roofline", "UT", "KO", "MV", "VZ", "Adam", "ReLU", "FFN", "top",
];

/// A figure string in Chinese, its numbers kept in order; `None` when no
/// table has it.
///
/// ```
/// use attention_geometry::edition::figures::zh;
/// assert_eq!(zh("a string nobody wrote"), None);
/// ```
pub fn zh(text: &str) -> Option<String> {
    static CATALOGUE: OnceLock<HashMap<String, String>> = OnceLock::new();
    look_up(CATALOGUE.get_or_init(|| catalogue_of(TABLES)), text)
}

/// Every character the tables' Chinese uses, once, in order of first use.
pub fn characters() -> Vec<char> {
    let mut out = Vec::new();
    for c in TABLES
        .iter()
        .flat_map(|t| t.iter())
        .flat_map(|(_, zh)| zh.chars())
    {
        if !c.is_whitespace() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}
