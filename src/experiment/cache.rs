//! Expensive findings cached under `target/findings/`, so that a second run
//! with nothing changed recomputes nothing.
//!
//! A cached file is named for its experiment and a key: an FNV-1a hash of
//! everything that determines the findings — the experiment's setup (its
//! `Debug` text), `Cargo.lock`, every file under `src/`, and every file
//! under `models/` (the weight files through their `SHA256SUMS` lines, which
//! the loader verifies). A change to any of them misses the cache. Findings
//! are stored with postcard, so every `f64` (NaN included) reads back bit for
//! bit. [`recompute`] turns the cache off for the rest of the process;
//! `figures --check`, and so CI, calls it.

use std::fmt::Debug;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde::de::DeserializeOwned;

static FRESH: AtomicBool = AtomicBool::new(false);

/// From now on, this process recomputes every experiment instead of reading
/// a cached result.
pub fn recompute() {
    FRESH.store(true, Ordering::SeqCst);
}

/// FNV-1a, 64 bit, continued from `hash`.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every file under `dir`, recursively.
fn files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
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

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The hash of the sources and models, once per process; `None` if one is unreadable.
fn sources() -> Option<u64> {
    static HASH: OnceLock<Option<u64>> = OnceLock::new();
    *HASH.get_or_init(|| {
        let root = root();
        let mut paths = vec![root.join("Cargo.lock")];
        files(&root.join("src"), &mut paths).ok()?;
        files(&root.join("models"), &mut paths).ok()?;
        paths.sort();
        let mut h = 0xcbf2_9ce4_8422_2325;
        for p in paths {
            h = fnv(h, p.strip_prefix(root).ok()?.to_string_lossy().as_bytes());
            if p.extension().is_none_or(|e| e != "safetensors") {
                h = fnv(h, &fs::read(&p).ok()?);
            }
        }
        Some(h)
    })
}

/// The file experiment `name`'s findings at `setup` are cached in.
fn path(name: &str, setup: &impl Debug) -> Option<PathBuf> {
    let key = fnv(sources()?, format!("{name} {setup:?}").as_bytes());
    let name = name
        .trim_start_matches("attention_geometry::")
        .replace("::", ".");
    Some(root().join(format!("target/findings/{name}-{key:016x}.bin")))
}

/// The cached findings of experiment `name` (its module path) at `setup` if
/// present (and [`recompute`] was not called), else `run()`, written to the cache.
pub fn load_or_run<F: Serialize + DeserializeOwned>(
    name: &str,
    setup: &impl Debug,
    run: impl FnOnce() -> F,
) -> F {
    let Some(path) = path(name, setup) else {
        return run();
    };
    let cached = (!FRESH.load(Ordering::SeqCst))
        .then(|| fs::read(&path).ok())
        .flatten()
        .and_then(|bytes| postcard::from_bytes(&bytes).ok());
    if let Some(f) = cached {
        return f;
    }
    let f = run();
    // a failed write only costs the next process a recomputation
    if let (Ok(bytes), Some(dir)) = (postcard::to_allocvec(&f), path.parent()) {
        let _ = fs::create_dir_all(dir).and_then(|_| crate::figures::write_atomic(&path, &bytes));
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Serialize, serde::Deserialize)]
    struct Toy {
        xs: Vec<f64>,
        pair: (usize, f64),
    }

    #[test]
    fn findings_read_back_bit_for_bit_and_a_cached_run_does_not_recompute() {
        let toy = || Toy {
            xs: vec![1.0 / 3.0, f64::NAN, -0.0, f64::MAX],
            pair: (7, 1e-300),
        };
        let setup = ("cache test", std::process::id());
        let first = load_or_run("test-toy", &setup, toy);
        let second: Toy = load_or_run("test-toy", &setup, || panic!("recomputed"));
        assert_eq!(format!("{first:?}"), format!("{second:?}"));
        let bits = |t: &Toy| t.xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&first), bits(&second));
        let _ = fs::remove_file(path("test-toy", &setup).unwrap());
    }
}
