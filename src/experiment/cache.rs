//! Expensive findings, computed once and committed under `findings/`, so that
//! a fresh clone draws every figure without retraining a model.
//!
//! Experiment `name`'s findings live in `findings/<name>.bin` (postcard, so
//! every `f64`, NaN included, reads back bit for bit) beside
//! `findings/<name>.key`, an FNV-1a hash of everything that can change them:
//! the experiment's setup (its `Debug` text), `Cargo.lock`, every file under
//! `models/` (the weight files through their `SHA256SUMS` lines, which the
//! loader verifies) and every file under `src/` except those that only draw,
//! phrase or print what the experiments found:
//!
//! ```text
//! key = FNV-1a(Cargo.lock, models/**, "name setup",
//!              src/** ∖ {file.rs, edition/, glossary.rs, figures/, claim/, bench/, main.rs,
//!                        render/, measure.rs,
//!                        experiment/delta_attention/{arm.rs, budget/}, mixer/stack/,
//!                        experiment/**/*{claims,report,verdict,tally}.rs})
//! ```
//! A key that differs from the stored one recomputes the findings and writes
//! both files (the developer commits them, as with figures). [`recompute`]
//! turns the stored findings off for the rest of the process and records
//! every recomputed finding that differs from the committed one;
//! `figures --check`, and so CI, calls it and fails on [`stale`] findings, so
//! a key that misses a dependency cannot hide stale findings for long.
//!
//! The cache prints nothing: it tells a [`Progress`] to the listener the
//! command line installs with [`listen`] (one line per experiment there).

use std::fmt::Debug;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::file::write_atomic;

static FRESH: AtomicBool = AtomicBool::new(false);
static STALE: Mutex<Vec<String>> = Mutex::new(Vec::new());
static LISTENER: OnceLock<fn(&Progress)> = OnceLock::new();

/// What happened to one experiment's findings (`stem`: its file name in
/// `findings/`, without extension).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress<'a> {
    /// Read from `findings/`: the key is current.
    Read { stem: &'a str },
    /// About to be computed: the key changed, or [`recompute`] was called.
    Computing { stem: &'a str },
    /// Computed, in `seconds` of wall time.
    Computed { stem: &'a str, seconds: f64 },
}

/// Tell `f` every [`Progress`] from now on; the first listener stays.
pub fn listen(f: fn(&Progress)) {
    let _ = LISTENER.set(f);
}

fn tell(p: Progress) {
    if let Some(f) = LISTENER.get() {
        f(&p);
    }
}

/// How many experiments have findings in `findings/` (one `.key` each).
pub fn count() -> usize {
    fs::read_dir(dir()).map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "key"))
            .count()
    })
}

/// From now on, this process recomputes every experiment instead of reading
/// its committed findings, and records those whose committed bytes differ.
pub fn recompute() {
    FRESH.store(true, Ordering::SeqCst);
}

/// The experiments recomputed since [`recompute`] whose committed findings
/// differ from what the code computes now (or are missing), by file name.
pub fn stale() -> Vec<String> {
    let mut names = STALE.lock().expect("no writer panicked").clone();
    names.sort();
    names
}

/// The folder of committed findings.
pub fn dir() -> PathBuf {
    root().join("findings")
}

/// FNV-1a, 64 bit, continued from `hash`.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every file under `dir`, recursively.
pub fn files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The parts of `src/` that cannot change a cached finding — code that only
/// draws, phrases or prints findings, and the long experiment: folders and
/// files by path, and every experiment file whose name ends in `claims.rs`,
/// `report.rs`, `verdict.rs` or `tally.rs` (they read findings into measures
/// and claims).
const PRESENTATION: [&str; 15] = [
    "src/file.rs",
    "src/edition/",
    "src/glossary.rs",
    "src/cli/",
    "src/figures/",
    "src/claim/",
    "src/bench/",
    "src/main.rs",
    "src/render/",
    "src/measure.rs",
    // the long experiment and its model: no cached experiment runs them, and
    // their findings carry their own hash (`findings/mqar-budget.json`)
    "src/experiment/delta_attention/arm.rs",
    "src/experiment/delta_attention/budget/",
    "src/experiment/source.rs",
    "src/mixer/stack/",
    // the fused training pass: only the bench times it
    "src/fused/",
];
const PRESENTATION_FILES: [&str; 4] = ["claims.rs", "report.rs", "verdict.rs", "tally.rs"];

/// Whether a file of `models/` is documentation or a test's reference output
/// (`README.md`, `LICENSE`, `reference*.json`), which no experiment reads.
fn model_documentation(name: &str) -> bool {
    name.ends_with(".md") || name == "LICENSE" || name.starts_with("reference")
}

/// Whether the file at `rel` (relative to the root, `/`-separated) can change findings.
pub fn in_key(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    !PRESENTATION.iter().any(|p| rel.starts_with(p))
        && !(rel.starts_with("src/experiment/")
            && PRESENTATION_FILES.iter().any(|f| name.ends_with(f)))
        && !(rel.starts_with("models/") && model_documentation(name))
}

/// The hash of the code and models the findings depend on, once per
/// process; `None` if one is unreadable.
fn sources() -> Option<u64> {
    static HASH: OnceLock<Option<u64>> = OnceLock::new();
    *HASH.get_or_init(|| tree_hash(root()))
}

/// The hash of `Cargo.lock`, `src/` and `models/` under `root`, over the
/// files [`in_key`] keeps (a weight file by its path: its checksum is hashed
/// through `SHA256SUMS`).
pub fn tree_hash(root: &Path) -> Option<u64> {
    let mut paths = vec![root.join("Cargo.lock")];
    files(&root.join("src"), &mut paths).ok()?;
    files(&root.join("models"), &mut paths).ok()?;
    paths.sort();
    let mut h = 0xcbf2_9ce4_8422_2325;
    for p in paths {
        let rel = p
            .strip_prefix(root)
            .ok()?
            .to_string_lossy()
            .replace('\\', "/");
        if !in_key(&rel) {
            continue;
        }
        h = fnv(h, rel.as_bytes());
        if p.extension().is_none_or(|e| e != "safetensors") {
            h = fnv(h, &fs::read(&p).ok()?);
        }
    }
    Some(h)
}

/// The file stem of experiment `name` (its module path): `experiment.chapter.part`.
pub fn stem(name: &str) -> String {
    name.trim_start_matches("attention_geometry::")
        .replace("::", ".")
}

/// The committed findings of experiment `name` (its module path) at `setup`
/// if their key is current (and [`recompute`] was not called), else `run()`,
/// written to `findings/`.
pub fn load_or_run<F: Serialize + DeserializeOwned>(
    name: &str,
    setup: &impl Debug,
    run: impl FnOnce() -> F,
) -> F {
    let Some(sources) = sources() else {
        return run();
    };
    let key = format!(
        "{:016x}\n",
        fnv(sources, format!("{name} {setup:?}").as_bytes())
    );
    let stem = stem(name);
    let (bin, key_path) = (
        dir().join(format!("{stem}.bin")),
        dir().join(format!("{stem}.key")),
    );
    let fresh = FRESH.load(Ordering::SeqCst);
    let stored = (!fresh && fs::read_to_string(&key_path).is_ok_and(|k| k == key))
        .then(|| fs::read(&bin).ok())
        .flatten()
        .and_then(|bytes| postcard::from_bytes(&bytes).ok());
    if let Some(f) = stored {
        tell(Progress::Read { stem: &stem });
        return f;
    }
    tell(Progress::Computing { stem: &stem });
    let start = std::time::Instant::now();
    let f = run();
    tell(Progress::Computed {
        stem: &stem,
        seconds: start.elapsed().as_secs_f64(),
    });
    let Ok(bytes) = postcard::to_allocvec(&f) else {
        return f;
    };
    if fresh {
        if !fs::read(&bin).is_ok_and(|old| old == bytes) {
            STALE
                .lock()
                .expect("no writer panicked")
                .push(format!("{stem}.bin"));
        }
        return f;
    }
    // the findings first, then their key: a crash between leaves a stale key,
    // which only costs the next process a recomputation
    let _ = fs::create_dir_all(dir())
        .and_then(|_| write_atomic(&bin, &bytes))
        .and_then(|_| write_atomic(&key_path, key.as_bytes()));
    f
}
