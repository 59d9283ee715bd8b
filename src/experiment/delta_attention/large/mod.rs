//! Chapter 7's associative recall where capacity binds: multi-query
//! associative recall ([`crate::recall::Mqar`]) at a setting in the spirit of
//! Zoology's (Arora et al. 2023), on the two-block model of
//! [`crate::mixer::stack`], as a **long experiment**: it runs only under
//! `cargo run --release -- mqar-large` (about 5 minutes on two cores), writes
//! `findings/mqar-large.json`, and the book reads that file. The file carries
//! the SHA-256 of the code that produced it ([`code_hash`]); a test fails
//! when the code has changed since.
//!
//! ```text
//! task    vocab 64 (keys 1..32, values 32..64), T = 64
//! model   d = 32, 2 blocks, conv width 4, one head, K = V = 8
//! cells   4 pairs (K/2: the pairs fit the state) and 16 pairs (2K: they cannot)
//! arms    softmax, linear, DeltaNet, Gated DeltaNet × {fla, horizon T} gates, KDA × {fla, horizon T}
//! ```
//!
//! Why this setting. The first version (vocab 256, d = 32, K = V = 8 and 16
//! at 16 pairs, cap 2000) left every recurrent arm at chance. Diagnosed on
//! one seed, DeltaNet, rate 0.01, batch 16, 1500 steps, T = 64, d = 32
//! (held-out accuracy at the end):
//!
//! ```text
//! vocab 256, K = 16,  8 pairs   0.008   (chance 0.008)
//! vocab  64, K = 16,  8 pairs   0.99    (flat to step 900, then a jump)
//! vocab  64, K = 16,  8 pairs   0.92    at rate 0.003
//! vocab 256, K = 32, 16 pairs   0.96    (the earlier trial at K = 32, 165 ms a step)
//! vocab  64, K =  8,  4 pairs   0.97    (2000 steps; flat to step 500, then a jump)
//! vocab  64, K =  8, 16 pairs   0.06    (2000 steps; chance 0.031)
//! linear attention, vocab 64, K = 16, 8 pairs: 0.98; at K = 8, 4 pairs: 0.61 at 2000 steps, rising
//! Gated DeltaNet, fla gates, vocab 64, K = 8, 4 pairs: 0.13 at 1500 steps (softmax 1.00 at 1000)
//! ```
//!
//! So the rate was not the cause, nor the width d against K: at the same K and
//! pairs, the vocabulary decides whether the recurrent arms leave chance
//! within the budget. MQAR curves are flat, then jump; the flat phase grows
//! with the number of keys and values the embeddings must sort out. Zoology
//! affords the long flat phase: vocab 8192, d_model 64–256, rates
//! `np.logspace(-3, -1.5, 4)`, 32 epochs of 180 000 sequences in batches of
//! 256, about 22 500 steps and 5.8 M sequences
//! (`zoology/experiments/mqar_example_configs/original_mqar_configs.py`).
//! This run sees 3000 × 16 = 48 000 sequences at most, 120 times fewer, so it
//! trades the vocabulary for steps: 64 tokens, Zoology's rate grid's middle
//! (0.003, 0.01, 0.03), and a state of K = V = 8, small enough that 16 pairs
//! fit the sequence of 64 (`T ≥ 4 · pairs`) at twice the state.
//!
//! The arithmetic of the budget (release, the f64 reference pass; one Adam
//! step at batch 16 and K = 8 costs about 5 ms on an idle core, 15 ms on a
//! shared one; the runs go two at a time on two cores):
//!
//! ```text
//! tuning     7 arms × 3 rates × 1000 steps × 5 ms                 ≈  2 min of one core
//! reported   7 arms × 2 cells × 3 seeds × 3000 steps × 5 ms       ≈ 11 min of one core at the cap
//! ```
//! Runs that plateau stop earlier (not before step 1500): 102 700 steps in
//! all (21 000 tuning, 81 700 reported). The last run took 267 s on two
//! cores; the first, one run at a time on a shared machine, 31 minutes.
//! Every arm's rate is
//! the best of three by held-out loss after 1000 steps on one tuning seed
//! (1000, not a reported seed) in the cell where the pairs fit; the reported
//! seeds 0, 1, 2 then train at that rate in both cells.

pub mod claims;
pub mod report;
pub mod run;

pub use claims::claims;
pub use report::measures;

pub use run::{Arm, Cell, Findings, Record, Setup, Tuned, setup};

use std::path::Path;

/// The command that runs the experiment.
pub const COMMAND: &str = "cargo run --release -- mqar-large";

/// Where the findings live, relative to the repository root.
pub const FINDINGS: &str = "findings/mqar-large.json";

/// The experiment's own file: its findings depend on it and on
/// [`crate::experiment::source::TRAINING`].
pub const RUN: &str = "src/experiment/delta_attention/large/run.rs";

/// The SHA-256 (hex) of [`RUN`] and the training code under `root` ([`crate::experiment::source::training`]).
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
    crate::experiment::source::training(root, RUN)
}

findings! {
    /// The committed findings (compiled in).
    ///
    /// # Panics
    /// If the committed file does not parse.
    pub fn findings() -> Findings =
        serde_json::from_str(include_str!("../../../../findings/mqar-large.json"))
            .unwrap_or_else(|e| panic!("{FINDINGS} does not parse ({e}); rerun `{COMMAND}`"))
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
