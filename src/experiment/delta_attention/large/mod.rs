//! Chapter 7's associative recall where capacity binds: multi-query
//! associative recall ([`crate::recall::Mqar`]) at a setting in the spirit of
//! Zoology's (Arora et al. 2023), on the two-block model of
//! [`crate::mixer::stack`], as a **long experiment**: it runs only under
//! `cargo run --release -- mqar-large` (about an hour of one core), writes
//! `findings/mqar-large.json`, and the book reads that file. The file carries
//! the SHA-256 of the code that produced it ([`code_hash`]); a test fails
//! when the code has changed since.
//!
//! ```text
//! task    vocab 256 (keys 1..128, values 128..256), T = 64, 16 pairs
//! model   d = 32, 2 blocks, conv width 4, one head
//! cells   K = V = 16 (pairs = K) and K = V = 8 (pairs = 2K)
//! arms    softmax, linear, DeltaNet, Gated DeltaNet × {fla, horizon T} gates, KDA × {fla, horizon T}
//! ```
//!
//! The arithmetic of the budget (one thread, release; one Adam step at batch
//! 16 measured at about 16 ms at K = 8 and 31 ms at K = 16, the gated mixers
//! up to 1.3× more):
//!
//! ```text
//! tuning     7 arms × 3 rates × 1000 steps × 31 ms              ≈ 11 min
//! reported   7 arms × 3 seeds × 2000 steps × (16 + 31) ms        ≈ 33 min at the cap
//! ```
//! It took 36 minutes (most runs stopped on the plateau rule at its floor,
//! step 1500). What was cut to fit, in the brief's order: the widths 32 and
//! 64 (K = 32 cost 75–100 ms a step here, about 80 minutes for the whole
//! experiment) and the pair counts below 16 (fewer pairs give fewer queries
//! per sequence and learn more slowly: softmax at 4 pairs stayed at chance for
//! 1500 steps in a trial run). Every arm's rate is the best of three by
//! held-out loss after 1000 steps on one tuning seed (1000, not a reported
//! seed) at K = V = 16; the reported seeds 0, 1, 2 then train at that rate.

mod claims;
pub mod report;
pub mod run;

pub use claims::claims;
pub use report::measures;

pub use run::{Arm, Cell, Findings, Record, Setup, Tuned, setup};

use std::path::Path;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

/// The command that runs the experiment.
pub const COMMAND: &str = "cargo run --release -- mqar-large";

/// Where the findings live, relative to the repository root.
pub const FINDINGS: &str = "findings/mqar-large.json";

/// The source the findings depend on, relative to the repository root: the
/// experiment, the model, the task, the training code, the kernels' helpers
/// they call and the locked dependencies (directories recursively).
pub const SOURCES: [&str; 8] = [
    "src/experiment/delta_attention/large/run.rs",
    "src/mixer",
    "src/recall.rs",
    "src/train",
    "src/delta/layer.rs",
    "src/attention.rs",
    "src/random.rs",
    "Cargo.lock",
];

fn files(root: &Path, rel: &str, out: &mut Vec<String>) {
    let path = root.join(rel);
    if path.is_dir() {
        let mut entries: Vec<String> = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("code_hash: cannot list {rel}: {e}"))
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

/// The SHA-256 (hex) of [`SOURCES`] under `root`: every file's path and bytes, in sorted order
/// (`Cargo.lock` without the book's own entry).
///
/// ```
/// use attention_geometry::experiment::delta_attention::large::code_hash;
/// let h = code_hash(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
/// assert_eq!(h.len(), 64);
/// ```
///
/// # Panics
/// If a source file cannot be read.
pub fn code_hash(root: &Path) -> String {
    let mut all = Vec::new();
    for s in SOURCES {
        files(root, s, &mut all);
    }
    all.sort();
    let mut hasher = Sha256::new();
    for rel in all {
        let mut bytes = std::fs::read(root.join(&rel))
            .unwrap_or_else(|e| panic!("code_hash: cannot read {rel}: {e}"));
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

/// `Cargo.lock` without the book's own `[[package]]` entry: the versions of
/// the crates the numbers run on, not the list of the book's dependencies
/// (adding a dependency the experiment never calls does not change it).
fn without_root_package(lock: &str) -> String {
    lock.split("\n[[package]]\n")
        .filter(|block| !block.starts_with("name = \"attention-geometry\"\n"))
        .collect::<Vec<_>>()
        .join("\n[[package]]\n")
}

/// The committed findings (compiled in).
///
/// # Panics
/// If the committed file does not parse.
pub fn findings() -> &'static Findings {
    static F: OnceLock<Findings> = OnceLock::new();
    F.get_or_init(|| {
        serde_json::from_str(include_str!("../../../../findings/mqar-large.json"))
            .unwrap_or_else(|e| panic!("{FINDINGS} does not parse ({e}); rerun `{COMMAND}`"))
    })
}

/// Run the experiment and write [`FINDINGS`] under `root`, logging progress to stderr.
///
/// # Errors
/// If the file cannot be written.
pub fn run_and_write(root: &Path) -> Result<Findings, String> {
    let hash = code_hash(root);
    let found = run::run(&setup(), hash, |line| eprintln!("{line}"));
    let json = serde_json::to_string_pretty(&found).map_err(|e| e.to_string())?;
    let path = root.join(FINDINGS);
    std::fs::create_dir_all(path.parent().expect("findings/")).map_err(|e| e.to_string())?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, json + "\n")
        .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_run_fills_every_cell_of_every_arm() {
        let tiny = Setup {
            vocab: 40,
            d: 4,
            rates: vec![0.01, 0.03],
            tune_steps: 2,
            seeds: 2,
            batch: 1,
            test: 2,
            cap: 4,
            every: 2,
            ..setup()
        };
        let f = run::run(&tiny, "h".into(), |_| {});
        assert_eq!(f.tuning.len(), 7);
        assert_eq!(f.cells.len(), 7 * setup().cells.len());
        for c in &f.cells {
            assert_eq!(c.runs.len(), 2);
            assert_eq!(c.survival_init.len(), usize::from(c.arm.contains('_')) * 2);
        }
        let json = serde_json::to_string(&f).expect("serialises");
        let back: Findings = serde_json::from_str(&json).expect("parses");
        assert_eq!((back.setup, back.cells.len()), (tiny, f.cells.len()));
        if let Ok(path) = std::env::var("MQAR_SMOKE") {
            std::fs::write(path, json).expect("writes the smoke findings");
        }
    }

    #[test]
    fn the_committed_findings_come_from_this_code() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            findings().code_hash,
            code_hash(root),
            "{FINDINGS} is stale: the code it depends on ({SOURCES:?}) changed since it was \
             written; rerun `{COMMAND}` (about an hour of one core) and commit the new file"
        );
        assert_eq!(
            findings().setup,
            setup(),
            "{FINDINGS} is stale: rerun `{COMMAND}`"
        );
    }
}
