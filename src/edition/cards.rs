//! The claim cards' English in the Chinese edition: every test quantity,
//! setting, choice, plateau line and replication a claim writes, with its
//! Chinese, looked up whole.
//!
//! A card's strings are built with `format!`, numbers inside. A string is
//! looked up with each of its numbers (a number not inside a word:
//! `0.8`, `-0.01`, `2` of `2^20`, not the `2` of `SmolLM2`) taken out; the
//! Chinese puts the string's own numbers back in the same order. So an
//! entry is written once with the numbers of one run, `("20 seeds", "20 个种子")`,
//! and still matches after the findings change. The entries are one line each,
//! in one table per chapter ([`TABLES`]); a string without one stays in English,
//! and [`missing`] names it.

mod ch01;
mod ch02;
mod ch03;
mod ch04;
mod ch05;
mod ch05_depth;
mod ch06;
mod ch07;
mod papers;

use std::collections::HashMap;
use std::sync::OnceLock;

use super::phrases::{is_word, number_len, untranslated};
use crate::claim::{Claim, Test};

/// Every table of English card strings → Chinese.
pub const TABLES: &[&[(&str, &str)]] = &[
    papers::CARDS,
    ch01::CARDS,
    ch02::CARDS,
    ch03::CARDS,
    ch04::CARDS,
    ch05::CARDS,
    ch05_depth::CARDS,
    ch06::CARDS,
    ch07::CARDS,
];

/// Where a number was taken out of a string.
pub const SLOT: char = '\u{e000}';

/// `text` with its numbers taken out, and the numbers in order.
///
/// ```
/// use attention_geometry::edition::cards::skeleton;
/// let (shape, numbers) = skeleton("share of SmolLM2 runs (0 of 20), ρ = -0.01");
/// assert_eq!(numbers, ["0", "20", "-0.01"]);
/// assert_eq!(shape.matches('\u{e000}').count(), 3);
/// ```
pub fn skeleton(text: &str) -> (String, Vec<&str>) {
    let mut shape = String::new();
    let mut numbers = Vec::new();
    let mut prev: Option<char> = None;
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let free = !prev.is_some_and(is_word);
        match number_len(&text[at..]).filter(|_| free) {
            Some(n) => {
                numbers.push(&text[at..at + n]);
                shape.push(SLOT);
                prev = text[at..at + n].chars().last();
                at += n;
            }
            None => {
                shape.push(c);
                prev = Some(c);
                at += c.len_utf8();
            }
        }
    }
    (shape, numbers)
}

/// Every entry of `tables` by its English shape: the Chinese shape.
pub fn catalogue_of(tables: &[&[(&str, &str)]]) -> HashMap<String, String> {
    tables
        .iter()
        .flat_map(|t| t.iter())
        .map(|(en, zh)| {
            let (shape, numbers) = skeleton(en);
            (shape, chinese_shape(zh, &numbers))
        })
        .collect()
}

/// Every card entry by its English shape: the Chinese shape.
fn catalogue() -> &'static HashMap<String, String> {
    static CATALOGUE: OnceLock<HashMap<String, String>> = OnceLock::new();
    CATALOGUE.get_or_init(|| catalogue_of(TABLES))
}

/// The Chinese `zh` of an entry with the English's `numbers` taken out, in
/// order; a number the English writes inside a word (`rank-8`, `n64`) and
/// the Chinese on its own (`秩 8`) stays.
pub fn chinese_shape(zh: &str, numbers: &[&str]) -> String {
    let (shape, found) = skeleton(zh);
    let mut wanted = numbers.iter().peekable();
    let mut found = found.into_iter();
    shape
        .chars()
        .map(|c| match c {
            SLOT => {
                let n = found.next().unwrap_or_default();
                match wanted.next_if(|w| **w == n) {
                    Some(_) => SLOT.to_string(),
                    None => n.to_string(),
                }
            }
            c => c.to_string(),
        })
        .collect()
}

/// A card string in Chinese, its numbers kept in order: its entry in the
/// tables, else the measures' phrases ([`super::phrases::zh`]) where they
/// leave no English; `None` when neither has it.
///
/// ```
/// use attention_geometry::edition::cards::zh;
/// assert_eq!(zh("untied head").as_deref(), Some("独立投影单头"));
/// assert_eq!(zh("a string nobody wrote"), None);
/// ```
pub fn zh(text: &str) -> Option<String> {
    whole(text).or_else(|| in_phrases(text))
}

/// `text` through the measures' phrase table ([`super::phrases::zh`]),
/// when that leaves no English word.
fn in_phrases(text: &str) -> Option<String> {
    let chinese = super::phrases::zh(text);
    untranslated(&chinese).is_empty().then_some(chinese)
}

/// `shape` with its slots filled by `numbers`, in order.
fn fill_numbers(shape: &str, numbers: &[&str]) -> String {
    let mut numbers = numbers.iter();
    shape
        .chars()
        .map(|c| match c {
            SLOT => numbers.next().copied().unwrap_or_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// A whole string through the card tables.
fn whole(text: &str) -> Option<String> {
    look_up(catalogue(), text)
}

/// `text` through `catalogue` (made by [`catalogue_of`]): its entry's
/// Chinese with `text`'s own numbers put back in order.
pub fn look_up(catalogue: &HashMap<String, String>, text: &str) -> Option<String> {
    let (shape, numbers) = skeleton(text);
    Some(fill_numbers(catalogue.get(&shape)?, &numbers))
}

/// A card string in Chinese where the tables have it, else as it is.
pub fn zh_or_same(text: &str) -> String {
    zh(text).unwrap_or_else(|| text.to_string())
}

/// Claim `c` with the strings its card shows (test quantities, setting,
/// choices, plateau lines, replications) in Chinese where the tables have them.
pub fn claim(c: &Claim) -> Claim {
    let mut z = c.clone();
    let put = |s: &mut String| *s = zh_or_same(s);
    let put_tests = |tests: &mut Vec<Test>| tests.iter_mut().for_each(|t| put(&mut t.quantity));
    put_tests(&mut z.core);
    put_tests(&mut z.scope);
    z.plateau.iter_mut().for_each(|r| put(&mut r.arm));
    put(&mut z.setting);
    put(&mut z.default_choice);
    for ch in &mut z.choices {
        put(&mut ch.name);
        put_tests(&mut ch.core);
    }
    for r in &mut z.replications {
        put(&mut r.paper);
        put(&mut r.metric);
        put(&mut r.finding.quantity);
    }
    z
}

/// Every English string of claim `c`'s card, each with the field it fills.
pub fn strings(c: &Claim) -> Vec<(&'static str, &str)> {
    let mut out: Vec<(&'static str, &str)> = Vec::new();
    out.extend(c.core.iter().map(|t| ("core", t.quantity.as_str())));
    out.extend(c.scope.iter().map(|t| ("scope", t.quantity.as_str())));
    out.push(("setting", &c.setting));
    out.push(("default choice", &c.default_choice));
    for ch in &c.choices {
        out.push(("choice", &ch.name));
        out.extend(
            ch.core
                .iter()
                .map(|t| ("choice's core", t.quantity.as_str())),
        );
    }
    out.extend(c.plateau.iter().map(|r| ("plateau", r.arm.as_str())));
    for r in &c.replications {
        out.push(("paper", &r.paper));
        out.push(("metric", &r.metric));
        out.push(("finding", &r.finding.quantity));
    }
    out.retain(|(_, s)| !untranslated(s).is_empty());
    out
}

/// Claim `c`'s card strings that read English and have no Chinese yet, each
/// as a line naming the claim and the field, then the entry to add (its
/// Chinese left empty) to the chapter's table in `src/edition/cards/`.
pub fn missing(c: &Claim) -> Vec<String> {
    let mut seen = Vec::new();
    strings(c)
        .into_iter()
        .filter(|(_, s)| zh(s).is_none())
        .filter(|(_, s)| {
            let new = !seen.contains(s);
            seen.push(*s);
            new
        })
        .map(|(field, s)| {
            format!(
                "{} {field}: no Chinese for {s:?}; add to src/edition/cards/ch{:02}.rs:\n    ({s:?}, \"\"),",
                c.id, c.chapter
            )
        })
        .collect()
}

/// The English words left in a rendered card, outside its HTML tags, link
/// targets, math (`$…$`), code spans and the kept names ([`super::phrases::KEPT`]).
///
/// ```
/// use attention_geometry::edition::cards::english_left;
/// let card = "<span class=\"held\">✓</span> [登记表](a.md#x) $\\max_j$ `id` 均值 of";
/// assert_eq!(english_left(card), ["of"]);
/// ```
pub fn english_left(card: &str) -> Vec<String> {
    let mut prose = String::new();
    let (mut tag, mut math, mut target) = (false, false, false);
    let mut prev = ' ';
    for c in card.chars() {
        match c {
            '<' if !math => tag = true,
            '>' if tag => tag = false,
            '$' if !tag => math = !math,
            '(' if prev == ']' && !tag && !math => target = true,
            ')' if target => target = false,
            _ if !(tag || math || target) => prose.push(c),
            _ => {}
        }
        prev = c;
    }
    untranslated(&prose)
}
