//! The trained findings cached under `target/recall-cache/`, keyed by an
//! FNV-1a hash of the [`Setup`], `Cargo.lock` and every source file the
//! findings depend on ([`SOURCES`]): a change to any of them recomputes them. Numbers are written with Rust's
//! shortest round-trip formatting, so a cached run reads back bit for bit.

use std::fs;
use std::path::{Path, PathBuf};

use super::inside::Inside;
use super::{Findings, Setup};

/// FNV-1a, 64 bit.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

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

/// The files and directories (under the package root) the findings are computed by.
pub const SOURCES: [&str; 12] = [
    "Cargo.lock",
    "src/attention.rs",
    "src/delta",
    "src/experiment/mod.rs",
    "src/experiment/delta_attention/recall/cache.rs",
    "src/experiment/delta_attention/recall/inside.rs",
    "src/experiment/delta_attention/recall/mod.rs",
    "src/mixer",
    "src/random.rs",
    "src/recall.rs",
    "src/stats.rs",
    "src/train",
];

/// The cache key: the setup and [`SOURCES`], or `None` if a source is not readable.
fn key(setup: &Setup) -> Option<u64> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for s in SOURCES {
        let p = root.join(s);
        if p.is_dir() {
            files(&p, &mut paths).ok()?;
        } else {
            paths.push(p);
        }
    }
    paths.sort();
    let mut h = fnv(0xcbf2_9ce4_8422_2325, format!("{setup:?}").as_bytes());
    for p in paths {
        h = fnv(h, p.strip_prefix(root).ok()?.to_string_lossy().as_bytes());
        h = fnv(h, &fs::read(&p).ok()?);
    }
    Some(h)
}

fn push(out: &mut Vec<f64>, xs: &[f64]) {
    out.push(xs.len() as f64);
    out.extend_from_slice(xs);
}

/// The findings as a flat list of length-prefixed vectors.
fn flatten(f: &Findings) -> Vec<f64> {
    let mut out = Vec::new();
    out.push(f.tuning.len() as f64);
    for grid in &f.tuning {
        let flat: Vec<f64> = grid.iter().flat_map(|&(r, a)| [r, a]).collect();
        push(&mut out, &flat);
    }
    for sweep in [&f.by_pairs, &f.by_state] {
        out.push(sweep[0].len() as f64);
        sweep.iter().flatten().for_each(|accs| push(&mut out, accs));
    }
    out.push(f.inside[0].len() as f64);
    for i in f.inside.iter().flatten() {
        push(&mut out, &i.decay);
        push(&mut out, &i.decay_init);
        let scalars = [
            i.beta_values,
            i.beta_other,
            i.rho,
            i.hit_weights,
            i.hit_similarity,
        ];
        push(&mut out, &scalars);
    }
    out
}

/// Reads [`flatten`]'s list back, front to back.
struct Reader<'a>(std::slice::Iter<'a, f64>);

impl Reader<'_> {
    fn count(&mut self) -> Option<usize> {
        self.0.next().map(|&n| n as usize)
    }

    fn vector(&mut self) -> Option<Vec<f64>> {
        let n = self.count()?;
        (0..n).map(|_| self.0.next().copied()).collect()
    }
}

/// The inverse of [`flatten`]; `None` if the list is malformed.
fn unflatten(xs: &[f64]) -> Option<Findings> {
    let mut r = Reader(xs.iter());
    let n_m = r.count()?;
    let mut tuning = Vec::new();
    for _ in 0..n_m {
        let flat = r.vector()?;
        tuning.push(flat.chunks(2).map(|c| (c[0], c[1])).collect());
    }
    let mut sweeps = Vec::new();
    for _ in 0..2 {
        let points = r.count()?;
        let mut sweep = Vec::new();
        for _ in 0..n_m {
            sweep.push(
                (0..points)
                    .map(|_| r.vector())
                    .collect::<Option<Vec<_>>>()?,
            );
        }
        sweeps.push(sweep);
    }
    let seeds = r.count()?;
    let mut inside = Vec::new();
    for _ in 0..n_m {
        let mut runs = Vec::new();
        for _ in 0..seeds {
            let (decay, decay_init, s) = (r.vector()?, r.vector()?, r.vector()?);
            if s.len() != 5 {
                return None;
            }
            runs.push(Inside {
                decay,
                decay_init,
                beta_values: s[0],
                beta_other: s[1],
                rho: s[2],
                hit_weights: s[3],
                hit_similarity: s[4],
            });
        }
        inside.push(runs);
    }
    let by_state = sweeps.pop()?;
    let by_pairs = sweeps.pop()?;
    r.0.next().is_none().then_some(Findings {
        tuning,
        by_pairs,
        by_state,
        inside,
    })
}

/// The cached findings of `setup` if present (and
/// [`crate::experiment::may_read_cache`]), else `run(setup)`, written to the cache.
pub fn load_or_run(setup: &Setup, run: fn(&Setup) -> Findings) -> Findings {
    let Some(key) = key(setup) else {
        return run(setup);
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/recall-cache");
    let path = dir.join(format!("{key:016x}.txt"));
    let cached = crate::experiment::may_read_cache()
        .then(|| fs::read_to_string(&path).ok())
        .flatten()
        .and_then(|text| {
            let xs: Option<Vec<f64>> = text.lines().map(|l| l.parse().ok()).collect();
            unflatten(&xs?)
        });
    if let Some(f) = cached {
        return f;
    }
    let f = run(setup);
    let text: String = flatten(&f).iter().map(|x| format!("{x:?}\n")).collect();
    // a failed write only costs the next process a recomputation
    let _ =
        fs::create_dir_all(&dir).and_then(|_| crate::figures::write_atomic(&path, text.as_bytes()));
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_round_trip_through_the_flat_list() {
        let inside = Inside {
            decay: vec![0.1, 0.2],
            decay_init: vec![0.3, 0.4],
            beta_values: 0.9,
            beta_other: f64::NAN,
            rho: 1.0 / 3.0,
            hit_weights: 0.5,
            hit_similarity: 0.25,
        };
        let f = Findings {
            tuning: vec![vec![(0.01, 0.5), (0.1, 0.7)]; 2],
            by_pairs: vec![vec![vec![0.1, 0.2]; 3]; 2],
            by_state: vec![vec![vec![0.3, 0.4]; 2]; 2],
            inside: vec![vec![inside; 2]; 2],
        };
        let text: String = flatten(&f).iter().map(|x| format!("{x:?}\n")).collect();
        let xs: Vec<f64> = text.lines().map(|l| l.parse().unwrap()).collect();
        let back = unflatten(&xs).unwrap();
        // NaN ≠ NaN: compare the debug texts
        assert_eq!(format!("{back:?}"), format!("{f:?}"));
    }
}
