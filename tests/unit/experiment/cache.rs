//! Unit tests of `crate::experiment::cache` (`src/experiment/cache.rs`).

use attention_geometry::experiment::cache::*;
use serde::Serialize;
use std::fmt::Debug;
use std::fs;

#[derive(Debug, Serialize, serde::Deserialize)]
struct Toy {
    xs: Vec<f64>,
    pair: (usize, f64),
}

#[test]
fn findings_read_back_bit_for_bit_and_a_current_key_does_not_recompute() {
    let toy = || Toy {
        xs: vec![1.0 / 3.0, f64::NAN, -0.0, f64::MAX],
        pair: (7, 1e-300),
    };
    let name = format!("test-toy-{}", std::process::id());
    let first = load_or_run(&name, &"setup", toy);
    let second: Toy = load_or_run(&name, &"setup", || panic!("recomputed"));
    assert_eq!(format!("{first:?}"), format!("{second:?}"));
    let bits = |t: &Toy| t.xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&first), bits(&second));
    // another setup is another key: recomputed
    let mut ran = false;
    let _: Toy = load_or_run(&name, &"other setup", || {
        ran = true;
        toy()
    });
    assert!(ran);
    for ext in ["bin", "key"] {
        let _ = fs::remove_file(dir().join(format!("{name}.{ext}")));
    }
}

/// A copy of the book's `src/` and `Cargo.lock` (its `models/` linked):
/// the same hash as the book, and an edit changes it only where a
/// finding can change.
#[cfg(unix)]
#[test]
fn editing_a_figure_keeps_every_key_and_editing_the_maths_changes_them() {
    let tree = tempfile::tempdir().unwrap();
    let at = tree.path();
    let mut sources = Vec::new();
    files(&root().join("src"), &mut sources).unwrap();
    for from in sources {
        let to = at.join(from.strip_prefix(root()).unwrap());
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(&from, &to).unwrap();
    }
    fs::copy(root().join("Cargo.lock"), at.join("Cargo.lock")).unwrap();
    std::os::unix::fs::symlink(root().join("models"), at.join("models")).unwrap();
    let book = tree_hash(root()).unwrap();
    assert_eq!(tree_hash(at), Some(book));
    let edit = |rel: &str| {
        let path = at.join(rel);
        let mut text = fs::read_to_string(&path).unwrap();
        text.push_str("\n// an edit\n");
        fs::write(&path, text).unwrap();
        tree_hash(at).unwrap()
    };
    for presentation in [
        "src/figures/palette.rs",
        "src/claim/mod.rs",
        "src/cli/mod.rs",
        "src/render/mod.rs",
        "src/edition/words.rs",
        "src/glossary.rs",
        "src/experiment/coverage/claims.rs",
    ] {
        assert_eq!(
            edit(presentation),
            book,
            "{presentation} re-keyed the findings"
        );
    }
    let mut before = book;
    for maths in [
        "src/stats.rs",
        "src/attention.rs",
        "src/experiment/coverage/trained.rs",
    ] {
        let after = edit(maths);
        assert_ne!(after, before, "{maths} left the findings' keys alone");
        before = after;
    }
}

#[test]
fn presentation_files_are_outside_the_key_and_experiments_inside() {
    assert!(!in_key("src/figures/coverage.rs") && !in_key("src/claim/text.rs"));
    assert!(
        !in_key("src/experiment/coverage/claims.rs")
            && !in_key("src/experiment/coverage/trained_claims.rs")
    );
    assert!(!in_key("src/experiment/delta_attention/recall/report.rs"));
    assert!(in_key("src/experiment/coverage/trained.rs") && in_key("src/mixer/model.rs"));
    assert!(in_key("src/mixer/report.rs")); // only experiments' reports are presentation
    assert!(!in_key("models/smollm2/README.md") && !in_key("models/minilm/reference.json"));
    assert!(in_key("models/smollm2/tokenizer.json") && in_key("models/contexts.txt"));
    assert_eq!(
        stem("attention_geometry::experiment::coverage::trained"),
        "experiment.coverage.trained"
    );
}

/// The fused pass is outside the key because no experiment runs it: only
/// the bench names it.
#[test]
fn only_the_bench_runs_the_fused_pass() {
    assert!(!in_key("src/fused/block.rs"));
    let mut paths = Vec::new();
    files(&root().join("src"), &mut paths).expect("src/ lists");
    let users: Vec<String> = paths
        .iter()
        .filter(|p| fs::read_to_string(p).is_ok_and(|s| s.contains("crate::fused")))
        .map(|p| {
            p.strip_prefix(root())
                .expect("under the root")
                .display()
                .to_string()
        })
        .filter(|rel| !rel.starts_with("src/fused/") && !rel.starts_with("src/bench/"))
        .collect();
    assert!(
        users.is_empty(),
        "the fused pass is run by {users:?}, inside the findings' key"
    );
}
