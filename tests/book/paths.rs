//! Library paths stay out of sentences: a path such as `mixer::stack` in
//! backticks belongs in a code block, a table or the reproducing appendix's
//! list of where the code lives, not in a line of prose.

use super::length::cut;
use std::fs;

/// Pages whose subject is the code itself, so paths are their prose: the
/// reproducing appendix (where each computation lives) and *How fast* (the
/// kernels it times, named as the benchmark report names them).
const ALLOWED: [&str; 2] = ["appendix-reproducing.md", "appendix-how-fast.md"];

/// `a::b`: two identifier characters joined by `::`.
fn is_path(code: &str) -> bool {
    code.match_indices("::").any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + 2..].chars().next();
        [before, after]
            .iter()
            .all(|c| c.is_some_and(|c| c.is_alphanumeric() || c == '_'))
    })
}

/// The paths in backticks on the prose lines of a page's markdown: not in
/// code blocks, tables or folds.
fn paths_in_prose(markdown: &str) -> Vec<String> {
    let text = cut(markdown, "```", "```", "");
    let text = cut(&text, "<details>", "</details>", "");
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.starts_with('|'))
        .flat_map(|l| {
            l.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|code| is_path(code))
        .collect()
}

#[test]
fn finding_paths_leaves_out_code_tables_and_folds() {
    let page = "Built by `mixer::stack` and `x`.\n\n```rust\nuse a::b;\n```\n\n\
                | `delta::kda` |\n\n<details>\n`train::null`\n</details>\n";
    assert_eq!(paths_in_prose(page), ["mixer::stack"]);
    assert!(!is_path("a ::") && !is_path("{{measure ch07.x}}"));
}

#[test]
fn no_sentence_names_a_library_path() {
    let mut found = Vec::new();
    for entry in fs::read_dir("chapters").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.extension().is_some_and(|e| e == "md") && !ALLOWED.contains(&name.as_str()) {
            for p in paths_in_prose(&fs::read_to_string(&path).unwrap()) {
                found.push(format!("{name}: `{p}`"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "library paths in prose (move them to a code block, a table or \
         appendix-reproducing.md's 'Where the code lives'):\n{}",
        found.join("\n")
    );
}
