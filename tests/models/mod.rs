//! The vendored real models: MiniLM and SmolLM2 against their reference
//! implementations (`models/*/reference*.json`, written by the scripts in
//! `scripts/`), their extracts, and the commands that run them.

mod cli;
mod composite;
mod extract;
mod heads;
mod lens;
mod minilm;
mod reference;
mod tokenizer;

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

/// A refused command (bad input): exit code 2, one line on stderr naming
/// each of `needles`, nothing on stdout, nothing written in `dir`.
pub fn assert_refused(out: &Output, dir: &Path, needles: &[&str]) {
    assert_stopped(out, dir, 2, needles);
}

/// A failed command (a missing or corrupted file): the same with exit code 1.
pub fn assert_failed(out: &Output, dir: &Path, needles: &[&str]) {
    assert_stopped(out, dir, 1, needles);
}

fn assert_stopped(out: &Output, dir: &Path, code: i32, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for n in needles {
        assert!(err.contains(n), "'{n}' not in: {err}");
    }
    assert!(out.stdout.is_empty());
    assert_eq!(fs::read_dir(dir).unwrap().count(), 0, "files were written");
}

/// A reference file of `models/`, e.g. `minilm/reference.json`.
pub fn reference(file: &str) -> Value {
    let path = attention_geometry::pretrained::models_dir().join(file);
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// A JSON array of token ids.
pub fn ids(v: &Value) -> Vec<u32> {
    let ids = v.as_array().unwrap().iter();
    ids.map(|i| i.as_u64().unwrap() as u32).collect()
}
