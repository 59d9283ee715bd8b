//! What keeps the two editions in step: a page and its translation quote the
//! same measures, claims and verdicts, show the same figures in the same
//! order, and hold byte-identical code blocks (only the English run under
//! skeptic; this proves the Chinese show the same code).
//!
//! ```text
//! markers   {{measure K}} {{claim ID}} {{verdict ID}} …   the same multiset
//! figures   ![…](figures/N.svg), {{figure N}}            the same sequence
//!           (the Chinese image is figures/zh/N.svg)
//! code      ```…```                                      the same blocks, in order
//! ```

use std::collections::BTreeMap;

/// A page split into its prose and its fenced code blocks (fences included).
pub fn split(page: &str) -> (String, Vec<String>) {
    let mut prose = String::new();
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in page.lines() {
        let trimmed = line.trim_start();
        match &mut open {
            None if trimmed.starts_with("```") => {
                let fence: String = trimmed.chars().take_while(|c| *c == '`').collect();
                open = Some((fence, format!("{line}\n")));
            }
            None => {
                prose.push_str(line);
                prose.push('\n');
            }
            Some((fence, block)) => {
                block.push_str(line);
                block.push('\n');
                if trimmed.starts_with(fence.as_str()) && trimmed.trim_matches('`').is_empty() {
                    blocks.push(std::mem::take(block));
                    open = None;
                }
            }
        }
    }
    if let Some((_, block)) = open {
        blocks.push(block);
    }
    (prose, blocks)
}

/// Every `{{…}}` marker of `prose` but mdBook's own `{{#…}}`, trimmed.
pub fn markers(prose: &str) -> Vec<String> {
    prose
        .split("{{")
        .skip(1)
        .filter(|m| !m.starts_with('#'))
        .filter_map(|m| {
            m.split_once("}}")
                .map(|(inside, _)| inside.trim().to_string())
        })
        .collect()
}

/// The figures `prose` shows and names, in order: `image NAME` for
/// `![…](figures/NAME.svg)`, `figure NAME` for `{{figure NAME}}`.
pub fn figures(prose: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = prose;
    loop {
        let image = rest.find("](figures/");
        let marker = rest.find("{{figure ");
        let (at, image) = match (image, marker) {
            (Some(i), Some(m)) if i < m => (i, true),
            (Some(i), None) => (i, true),
            (_, Some(m)) => (m, false),
            (None, None) => return found,
        };
        let (open, close) = match image {
            true => ("](figures/", ".svg)"),
            false => ("{{figure ", "}}"),
        };
        let after = &rest[at + open.len()..];
        let Some(end) = after.find(close) else {
            return found;
        };
        let kind = if image { "image" } else { "figure" };
        found.push(format!("{kind} {}", after[..end].trim()));
        rest = &after[end..];
    }
}

/// How `translation` differs from `original` in what parity covers, one
/// line each, naming `page` and the marker, figure or code block; empty
/// when the two are in step.
///
/// ```
/// use attention_geometry::edition::parity::differences;
/// let en = "The mean is {{measure m}}.\n\n```rust\nassert!(true);\n```\n";
/// let zh = "均值为{{measure m}}。\n\n```rust\nassert!(true);\n```\n";
/// assert!(differences("p.md", en, zh).is_empty());
/// ```
pub fn differences(page: &str, original: &str, translation: &str) -> Vec<String> {
    let (en_prose, en_code) = split(original);
    let (zh_prose, zh_code) = split(translation);
    let mut out = Vec::new();
    let count = |prose: &str| {
        let mut counts: BTreeMap<String, i64> = BTreeMap::new();
        for m in markers(prose) {
            *counts.entry(m).or_default() += 1;
        }
        counts
    };
    let (en, zh) = (count(&en_prose), count(&zh_prose));
    for key in en
        .keys()
        .chain(zh.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let (a, b) = (
            en.get(key).copied().unwrap_or(0),
            zh.get(key).copied().unwrap_or(0),
        );
        if a != b {
            out.push(format!(
                "{page}: {{{{{key}}}}} appears {a} times in the English and {b} in the Chinese"
            ));
        }
    }
    let (en_figures, zh_figures) = (figures(&en_prose), figures(&zh_prose));
    // the Chinese page shows the Chinese drawing of each figure, `figures/zh/NAME.svg`
    let chinese = |f: &String| {
        f.strip_prefix("image ")
            .map_or_else(|| f.clone(), |n| format!("image zh/{n}"))
    };
    if let Some(i) = (0..en_figures.len().max(zh_figures.len()))
        .find(|&i| en_figures.get(i).map(chinese).as_ref() != zh_figures.get(i))
    {
        let name = |f: Option<&String>| f.map_or("nothing".to_string(), |f| format!("“{f}”"));
        let english = en_figures.get(i).filter(|f| Some(*f) == zh_figures.get(i));
        let hint = english
            .and_then(|f| f.strip_prefix("image "))
            .map_or_else(String::new, |n| {
                format!(" (a Chinese page shows figures/zh/{n}.svg)")
            });
        out.push(format!(
            "{page}: figure reference {} is {} in the English and {} in the Chinese{hint}",
            i + 1,
            name(en_figures.get(i)),
            name(zh_figures.get(i))
        ));
    }
    if en_code.len() != zh_code.len() {
        out.push(format!(
            "{page}: {} code blocks in the English, {} in the Chinese",
            en_code.len(),
            zh_code.len()
        ));
    }
    for (i, (a, b)) in en_code.iter().zip(&zh_code).enumerate() {
        if a != b {
            let first = a.lines().nth(1).unwrap_or("").trim();
            out.push(format!(
                "{page}: code block {} differs (it begins “{first}”)",
                i + 1
            ));
        }
    }
    out
}
