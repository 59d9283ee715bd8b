//! One symbol, one meaning: the notation appendix lists every symbol once.
//! A row's first cell may name several symbols (`$X$, $x_i$` or
//! `$W_Q, W_K$`); a definition `$c = \eta \lVert W_V\rVert_2$` names `c`.

use std::collections::BTreeMap;
use std::fs;

/// The symbols one first cell names, in order.
fn symbols(cell: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, math) in cell.split('$').enumerate() {
        if n % 2 == 0 {
            continue;
        }
        let mut depth = 0i32;
        let mut start = 0;
        let mut parts = Vec::new();
        for (at, ch) in math.char_indices() {
            match ch {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&math[start..at]);
                    start = at + 1;
                }
                _ => {}
            }
        }
        parts.push(&math[start..]);
        for part in parts {
            let name = part.split(" = ").next().unwrap_or(part);
            let name: String = name.chars().filter(|c| !c.is_whitespace()).collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// Every symbol of the appendix's tables, with the line that lists it.
fn listed(appendix: &str) -> Vec<(String, usize)> {
    appendix
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("| $"))
        .flat_map(|(n, l)| {
            let cell = l.split('|').nth(1).unwrap_or("");
            symbols(cell).into_iter().map(move |s| (s, n + 1))
        })
        .collect()
}

#[test]
fn a_symbol_splits_into_its_names() {
    assert_eq!(symbols("$X$, $x_i$"), ["X", "x_i"]);
    assert_eq!(symbols("$W_Q, W_K$"), ["W_Q", "W_K"]);
    assert_eq!(symbols(r"$c = \eta \lVert W_V\rVert_2$"), ["c"]);
    assert_eq!(
        symbols(r"$\mathcal L(\theta, \lambda)$, $\psi(\theta)$"),
        [r"\mathcalL(\theta,\lambda)", r"\psi(\theta)"]
    );
}

#[test]
fn the_notation_appendix_lists_no_symbol_twice() {
    let appendix = fs::read_to_string("chapters/appendix-notation.md").expect("the appendix");
    let rows = listed(&appendix);
    assert!(rows.len() > 40, "only {} symbols parsed", rows.len());
    let mut lines: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (symbol, line) in &rows {
        lines.entry(symbol).or_default().push(*line);
    }
    let twice: Vec<String> = lines
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(symbol, at)| format!("{symbol} (lines {at:?})"))
        .collect();
    assert!(
        twice.is_empty(),
        "listed more than once: {}",
        twice.join(", ")
    );
}
