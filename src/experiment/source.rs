//! The code a long experiment's numbers came from: a SHA-256 over its
//! source files, so a test can tell when the committed findings are stale.

use std::path::Path;

use sha2::{Digest, Sha256};

/// What every trained recall run depends on besides its experiment's own
/// file, relative to the repository root: the model, the task, the training
/// code, the kernels' helpers they call and the locked dependencies
/// (directories recursively).
pub const TRAINING: [&str; 7] = [
    "src/mixer",
    "src/recall.rs",
    "src/train",
    "src/delta/layer.rs",
    "src/attention.rs",
    "src/random.rs",
    "Cargo.lock",
];

/// The SHA-256 (hex) of the experiment file `run` and [`TRAINING`] under `root`.
///
/// # Panics
/// If a source file cannot be read.
pub fn training(root: &Path, run: &str) -> String {
    let mut sources = vec![run];
    sources.extend(TRAINING);
    hash(root, &sources)
}

fn files(root: &Path, rel: &str, out: &mut Vec<String>) {
    let path = root.join(rel);
    if path.is_dir() {
        let mut entries: Vec<String> = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("source::hash: cannot list {rel}: {e}"))
            .map(|e| {
                let name = e.expect("a directory entry").file_name();
                format!("{rel}/{}", name.to_string_lossy())
            })
            .collect();
        entries.sort();
        for e in entries {
            files(root, &e, out);
        }
    } else {
        out.push(rel.to_string());
    }
}

/// The SHA-256 (hex) of `sources` under `root`: every file's path and
/// bytes, in sorted order (`Cargo.lock` without the book's own entry).
///
/// # Panics
/// If a source file cannot be read.
pub fn hash(root: &Path, sources: &[&str]) -> String {
    let mut all = Vec::new();
    for s in sources {
        files(root, s, &mut all);
    }
    all.sort();
    let mut hasher = Sha256::new();
    for rel in all {
        let mut bytes = std::fs::read(root.join(&rel))
            .unwrap_or_else(|e| panic!("source::hash: cannot read {rel}: {e}"));
        if rel == "Cargo.lock" {
            bytes = without_root_package(&String::from_utf8_lossy(&bytes)).into_bytes();
        }
        hasher.update(rel.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Packages that only `serve` builds (its HTTP parser), which no training
/// run links against.
const SERVE_ONLY: [&str; 1] = ["httparse"];

/// `Cargo.lock` without the book's own `[[package]]` entry and without
/// [`SERVE_ONLY`]: the versions of the crates the numbers run on, not the
/// list of the book's dependencies (adding a dependency the experiment
/// never calls does not change it).
fn without_root_package(lock: &str) -> String {
    let named = |block: &str, name: &str| block.starts_with(&format!("name = \"{name}\"\n"));
    lock.split("\n[[package]]\n")
        .filter(|block| {
            !named(block, "attention-geometry") && !SERVE_ONLY.iter().any(|n| named(block, n))
        })
        .collect::<Vec<_>>()
        .join("\n[[package]]\n")
}
