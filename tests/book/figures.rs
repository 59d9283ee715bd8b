//! The figure registry and the chapters agree, drawing is reproducible, and
//! bad input is refused without writing anything.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use attention_geometry::edition::figures::zh;
use attention_geometry::edition::{Lang, han};
use attention_geometry::figures::{self, Figure, edition, registry, select, stale, write_all};

/// Every `figures/NAME.svg` that a chapter references.
fn referenced() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for entry in fs::read_dir("chapters").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = fs::read_to_string(&path).unwrap();
            for piece in text.split("figures/").skip(1) {
                if let Some(end) = piece.find(".svg") {
                    let name = &piece[..end];
                    if name.starts_with("ch")
                        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                    {
                        names.insert(name.to_string());
                    }
                }
            }
        }
    }
    names
}

#[test]
fn registry_and_chapters_agree() {
    let registered: BTreeSet<String> = registry().iter().map(|f| f.name.to_string()).collect();
    let referenced = referenced();
    let unshown: Vec<_> = registered.difference(&referenced).collect();
    let unregistered: Vec<_> = referenced.difference(&registered).collect();
    assert!(
        unshown.is_empty(),
        "registered but shown by no chapter: {unshown:?}"
    );
    assert!(
        unregistered.is_empty(),
        "referenced by a chapter but not registered: {unregistered:?}"
    );
}

#[test]
fn names_are_unique_and_prefixed_by_their_chapter() {
    let all = registry();
    let names: BTreeSet<_> = all.iter().map(|f| f.name).collect();
    assert_eq!(names.len(), all.len(), "duplicate figure names");
    for f in &all {
        assert!(
            f.name.starts_with(&format!("ch{:02}-", f.chapter)),
            "{} is not named for chapter {}",
            f.name,
            f.chapter
        );
    }
}

#[test]
fn drawing_is_byte_identical_in_both_editions() {
    let all = registry();
    for lang in Lang::ALL {
        assert_eq!(
            figures::draw_all_in(&all, lang).unwrap(),
            figures::draw_all_in(&all, lang).unwrap(),
            "{lang:?}"
        );
    }
}

/// The chapter table of `src/edition/figures/` a figure's strings go in.
fn table(f: &Figure) -> String {
    match f.chapter {
        0 => "src/edition/figures/appendix.rs".into(),
        n => format!("src/edition/figures/ch{n:02}.rs"),
    }
}

/// Every registered figure with its Chinese drawing.
fn chinese() -> Vec<(Figure, String)> {
    let all = registry();
    let drawn = figures::draw_all_in(&all, Lang::Zh).unwrap();
    all.into_iter().zip(drawn).collect()
}

#[test]
fn every_chinese_figure_is_drawn_in_chinese() {
    let mut english = Vec::new();
    for (f, svg) in chinese() {
        if !svg.chars().any(han) {
            english.push(format!("{}: no Chinese character at all", f.name));
        }
        for s in edition::english_left(&svg) {
            english.push(format!(
                "{}: add to {}:\n    ({s:?}, \"\"),",
                f.name,
                table(&f)
            ));
        }
    }
    assert!(
        english.is_empty(),
        "{} strings of the Chinese figures read English:\n{}",
        english.len(),
        english.join("\n")
    );
}

#[test]
fn no_chinese_figure_draws_an_english_string_its_table_translates() {
    let mut unsaid = Vec::new();
    for (f, svg) in chinese() {
        for t in edition::texts(&svg) {
            if zh(&t).is_some_and(|z| z != t) {
                unsaid.push(format!("{}: {t:?} (draw it through style::say)", f.name));
            }
        }
    }
    assert!(unsaid.is_empty(), "{}", unsaid.join("\n"));
}

#[test]
fn committed_figures_are_current_and_an_altered_one_is_named() {
    let all = registry();
    let committed = Path::new("figures");
    assert_eq!(
        stale(&all, committed).unwrap(),
        Vec::<String>::new(),
        "run `cargo run --release -- figures`"
    );

    let dir = tempfile::tempdir().unwrap();
    write_all(&all, dir.path()).unwrap();
    assert!(stale(&all, dir.path()).unwrap().is_empty());
    let victim = &all[0];
    for lang in Lang::ALL {
        assert!(victim.path(dir.path(), lang).is_file(), "{lang:?}");
    }
    fs::write(dir.path().join(victim.file_name()), "<svg/>").unwrap();
    fs::write(victim.path(dir.path(), Lang::Zh), "<svg/>").unwrap();
    assert_eq!(
        stale(&all, dir.path()).unwrap(),
        [victim.name.to_string(), format!("zh/{}", victim.name)]
    );
    let leftovers: Vec<_> = [dir.path().to_path_buf(), dir.path().join("zh")]
        .iter()
        .flat_map(|d| fs::read_dir(d).unwrap())
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );
}

#[test]
fn unknown_names_are_refused_with_the_valid_ones() {
    let err = select(&["ch01-token-cloud".into(), "no-such-figure".into()]).unwrap_err();
    assert!(
        err.contains("'no-such-figure'") && err.contains("ch01-token-cloud"),
        "{err}"
    );
    assert!(!err.contains('\n'));
}

#[test]
fn the_command_line_refuses_an_unknown_figure_and_writes_nothing() {
    let before: BTreeSet<_> = fs::read_dir("figures")
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
        .args(["figures", "ch01-token-cloud", "nope"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("unknown figure 'nope'") && stderr.contains("valid names"),
        "{stderr}"
    );
    let after: BTreeSet<_> = fs::read_dir("figures")
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before, after);
}

#[test]
fn the_command_line_refuses_unknown_commands_and_options() {
    for args in [
        &["frobnicate"][..],
        &["figures", "--force"],
        &["list", "extra"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: a usage error exits with 2"
        );
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn the_command_line_has_help_and_a_version() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let help = run(&["--help"]);
    for command in [
        "build", "figures", "verdicts", "measures", "attend", "heads",
    ] {
        assert!(help.contains(command), "--help does not list {command}");
    }
    assert_eq!(run(&["-h"]), run(&["help"]));
    assert!(run(&["figures", "--help"]).contains("--check"));
    assert!(run(&["heads", "-h"]).contains("minilm"));
    assert_eq!(
        run(&["--version"]).trim(),
        format!("attention-geometry {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn reading_the_findings_prints_a_line_per_experiment_on_standard_error() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (table, progress) = run(&["verdicts", "--tsv"]);
    let stems: Vec<&str> = progress
        .lines()
        .filter(|l| !l.starts_with("computing ")) // the banner, if a key changed
        .map(|l| {
            let l = l.trim_start();
            let rest = l
                .strip_prefix("cached   ")
                .or_else(|| l.strip_prefix("computed "))
                .unwrap_or_else(|| panic!("not a progress line: {l:?}"));
            rest.split(' ').next().unwrap()
        })
        .collect();
    assert!(stems.len() >= 20, "{progress}");
    for stem in &stems {
        assert!(
            Path::new("findings").join(format!("{stem}.bin")).is_file(),
            "{stem}: no such findings"
        );
    }
    // the data alone on standard output; nothing on standard error with --quiet
    assert!(table.lines().all(|l| l.contains('\t')));
    let (quiet_table, quiet) = run(&["verdicts", "--tsv", "--quiet"]);
    assert_eq!((quiet_table, quiet), (table, String::new()));
}
