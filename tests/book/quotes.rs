//! The prose and the registries agree: every measure the chapters quote is
//! registered and every registered one is quoted, every registered claim is
//! quoted by its own chapter, and no theorem or construction failed its check.

use std::collections::BTreeSet;
use std::fs;

use attention_geometry::claim::{Kind, Verdict};
use attention_geometry::experiment::{CHAPTERS, claims, measures};

/// Every `{{WHAT ARG}}` marker in `text`, as `ARG`.
fn markers(text: &str, what: &str) -> Vec<String> {
    let open = format!("{{{{{what} ");
    text.split(open.as_str())
        .skip(1)
        .filter_map(|s| s.split("}}").next())
        .map(|s| s.trim().to_string())
        .collect()
}

/// Every page of the book with its text.
fn pages() -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = fs::read_dir("chapters")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).unwrap())
        })
        .collect();
    pages.sort();
    pages
}

#[test]
fn every_quoted_measure_is_registered() {
    let registered: BTreeSet<String> = measures().into_iter().map(|m| m.key).collect();
    let quoted: BTreeSet<String> = pages()
        .iter()
        .flat_map(|(_, text)| markers(text, "measure"))
        .collect();
    let unregistered: Vec<_> = quoted.difference(&registered).collect();
    assert!(
        unregistered.is_empty(),
        "quoted but not registered: {unregistered:?}"
    );
}

#[test]
fn every_registered_measure_is_quoted() {
    let quoted: BTreeSet<String> = pages()
        .iter()
        .flat_map(|(_, text)| markers(text, "measure"))
        .collect();
    // a table's cell reaches the reader through its quoted table
    let unquoted: Vec<String> = measures()
        .into_iter()
        .filter(|m| {
            !quoted.contains(&m.key) && !m.table.as_ref().is_some_and(|t| quoted.contains(t))
        })
        .map(|m| m.key)
        .collect();
    assert!(
        unquoted.is_empty(),
        "{} registered measures are quoted nowhere, alone or in a table: {unquoted:?}",
        unquoted.len()
    );
}

/// The text of chapter `n`'s pages: its own, `NN-name.md`, and its sub-pages,
/// `NN-name-part.md`.
fn chapter_text(n: u8) -> String {
    let prefix = format!("{n:02}-");
    pages()
        .into_iter()
        .filter(|(name, _)| name.starts_with(&prefix))
        .map(|(_, text)| text)
        .collect()
}

#[test]
fn every_claim_is_quoted_by_its_own_chapter() {
    let all = claims();
    for chapter in CHAPTERS {
        let text = chapter_text(chapter.number);
        let quoted: BTreeSet<String> = markers(&text, "claim").into_iter().collect();
        let own: BTreeSet<String> = all
            .iter()
            .filter(|c| c.chapter == chapter.number)
            .map(|c| c.id.clone())
            .collect();
        let missing: Vec<_> = own.difference(&quoted).collect();
        let foreign: Vec<_> = quoted.difference(&own).collect();
        assert!(
            missing.is_empty(),
            "{}: claims not quoted: {missing:?}",
            chapter.page()
        );
        assert!(
            foreign.is_empty(),
            "{}: quotes claims not its own: {foreign:?}",
            chapter.page()
        );
    }
}

/// Each chapter opens with its answer, in both editions: its "What this
/// chapter found" box (every essay sentence it tests, with the verdicts of
/// the claims that test it: `claim::text::found`) is its first section,
/// before any displayed derivation, code block or claim card; and every
/// empirical essay claim of the chapter is in that box.
#[test]
fn every_chapter_opens_with_what_it_found() {
    use attention_geometry::claim::Source;
    use attention_geometry::claim::card::Pages;
    use attention_geometry::claim::text::found;
    use attention_geometry::edition::words::EN;
    struct Nowhere;
    impl Pages for Nowhere {
        fn card(&self, _: &str) -> Option<&str> {
            None
        }
        fn registry(&self) -> Option<&str> {
            None
        }
    }
    let all = claims();
    for chapter in CHAPTERS {
        let page = chapter.page();
        let marker = format!("{{{{found {}}}}}", chapter.number);
        for dir in ["chapters", "chapters/zh"] {
            let text = fs::read_to_string(format!("{dir}/{page}")).unwrap();
            let at = text.find(&marker).unwrap_or(usize::MAX);
            let first_section = text.find("\n## ").unwrap_or(usize::MAX);
            let next_section = text[first_section + 1..]
                .find("\n## ")
                .map_or(usize::MAX, |n| n + first_section + 1);
            let first_other = ["$$", "```", "{{claim "]
                .iter()
                .filter_map(|m| text.find(m))
                .min()
                .unwrap_or(usize::MAX);
            assert!(
                at < next_section && at < first_other,
                "{dir}/{page}: '{marker}' is not the first section, before any derivation, code or card"
            );
        }
        let shown = found(&all, chapter.number, &Nowhere, &EN);
        let missing: Vec<&str> = all
            .iter()
            .filter(|c| c.chapter == chapter.number)
            .filter(|c| c.kind == Kind::Empirical && c.source == Source::Essay)
            .map(|c| c.id.as_str())
            .filter(|id| !shown.contains(id))
            .collect();
        assert!(missing.is_empty(), "{page}: the box leaves out {missing:?}");
    }
}

/// No number the prose quotes is in e-notation unless it has to be: every
/// `1.3e-1` a measure prints is tiny (below 0.001) or huge (10,000 and up).
#[test]
fn no_measure_prints_a_plain_number_in_e_notation() {
    let mut plain = Vec::new();
    for m in measures() {
        for word in m
            .value
            .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        {
            let word = word.trim_end_matches([',', ';', '.']);
            let looks =
                word.contains('e') && word.starts_with(|c: char| c.is_ascii_digit() || c == '-');
            let x = looks.then(|| word.parse::<f64>().ok()).flatten();
            if x.is_some_and(|x| x == 0.0 || (1e-3..1e4).contains(&x.abs())) {
                plain.push(format!("{}: {word}", m.key));
            }
        }
    }
    assert!(plain.is_empty(), "plain numbers in e-notation: {plain:?}");
}

#[test]
fn claim_ids_are_unique_and_every_check_passed() {
    let all = claims();
    let ids: BTreeSet<&str> = all.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), all.len(), "duplicate claim ids");
    for c in &all {
        assert!(!c.setting.is_empty(), "{}: say what was measured", c.id);
        if c.kind != Kind::Empirical {
            assert_eq!(c.verdict(), Verdict::Checked, "{}: {}", c.id, c.measured());
        }
    }
}

#[test]
fn no_verdict_word_is_typed_by_hand() {
    for (page, text) in pages() {
        for word in ["supported", "qualified", "contradicted"] {
            assert!(
                !text.contains(&format!("**{word}**")),
                "{page} types the verdict **{word}** by hand; quote the claim instead"
            );
        }
    }
}

#[test]
fn the_verdicts_command_prints_every_claim_and_refuses_bad_options() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["verdicts", "--tsv"]);
    assert!(out.status.success());
    let tsv = String::from_utf8(out.stdout).unwrap();
    let mut lines = tsv.lines();
    assert_eq!(
        lines.next(),
        Some("id\tchapter\tkind\tevidence\tverdict\tmeasured\tprediction")
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), claims().len());
    assert!(rows.iter().all(|r| r.split('\t').count() == 7));
    let bad = run(&["verdicts", "--csv"]);
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert!(
        !bad.status.success() && stderr.lines().count() == 1,
        "{stderr}"
    );
}
