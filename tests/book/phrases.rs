//! The Chinese edition's measures: every registered measure, put through
//! `edition::phrases::zh`, leaves no English word but the kept names, keeps
//! its table's shape and keeps its numbers in order.

use attention_geometry::edition::phrases::{cells, untranslated, zh};
use attention_geometry::experiment::measures;

/// The numbers of `text`, in order (`-0.14`, `3e-15`, the `2` of `SmolLM2`).
fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|s| s.trim_matches('.'))
        .filter(|s| s.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

#[test]
fn phrases_put_every_measure_into_chinese() {
    let all = measures();
    let english = all
        .iter()
        .filter(|m| !untranslated(&m.value).is_empty())
        .count();
    let mut left = Vec::new();
    for m in &all {
        let text = zh(&m.value);
        let words = untranslated(&text);
        if !words.is_empty() {
            left.push(format!("{}: {words:?} in {text:?}", m.key));
        }
        assert_eq!(
            numbers(&m.value),
            numbers(&text),
            "{}: numbers moved",
            m.key
        );
        let (en_rows, zh_rows): (Vec<&str>, Vec<&str>) =
            (m.value.lines().collect(), text.lines().collect());
        assert_eq!(en_rows.len(), zh_rows.len(), "{}: rows", m.key);
        for (a, b) in en_rows.iter().zip(&zh_rows) {
            assert_eq!(cells(a).len(), cells(b).len(), "{}: cells of {b:?}", m.key);
        }
    }
    eprintln!(
        "{english} of {} measures carry English words; {} after zh",
        all.len(),
        left.len()
    );
    assert!(left.is_empty(), "English words left:\n{}", left.join("\n"));
}
