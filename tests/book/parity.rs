//! The two editions in step: every English page has its Chinese page
//! (`chapters/zh/`, the same name), and each pair quotes the same markers,
//! shows the same figures in the same order and holds the same code
//! (`attention_geometry::edition::parity`, whose unit tests show it failing).

use std::fs;

use attention_geometry::edition::parity::differences;

/// Every page of an edition's sources but `SUMMARY.md`, by name.
fn pages(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "SUMMARY.md")
        .collect();
    names.sort();
    names
}

#[test]
fn every_page_has_its_translation_and_no_translation_its_own_page() {
    assert_eq!(pages("chapters"), pages("chapters/zh"));
}

/// Every page that has its translation: its name, its English and its Chinese.
pub(crate) fn pairs() -> Vec<(String, String, String)> {
    pages("chapters")
        .into_iter()
        .filter_map(|p| {
            let zh = fs::read_to_string(format!("chapters/zh/{p}")).ok()?;
            let en = fs::read_to_string(format!("chapters/{p}")).unwrap();
            Some((p, en, zh))
        })
        .collect()
}

#[test]
fn every_translation_quotes_the_same_numbers_figures_and_code() {
    let differ: Vec<String> = pairs()
        .iter()
        .flat_map(|(p, en, zh)| differences(p, en, zh))
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The `(page.md)` links of a `SUMMARY.md`, with their indentation.
fn contents(dir: &str) -> Vec<String> {
    fs::read_to_string(format!("{dir}/SUMMARY.md"))
        .unwrap()
        .lines()
        .filter_map(|line| {
            let (before, after) = line.split_once("](")?;
            let indent = before.len() - before.trim_start().len();
            Some(format!("{indent} {}", after.split(')').next()?))
        })
        .collect()
}

#[test]
fn both_tables_of_contents_list_the_same_pages_in_the_same_order() {
    assert_eq!(contents("chapters"), contents("chapters/zh"));
}
