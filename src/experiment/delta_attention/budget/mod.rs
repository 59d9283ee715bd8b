//! Chapter 7's multi-query associative recall at a budget that decides: every
//! arm trained as Zoology trains (Arora et al. 2023, `zoology/train.py`)
//! until it solves the task or has been flat for a long window after leaving
//! chance, in cells that bracket the state, with eight seeds per cell and
//! rates tuned per cell at a third of the budget. It is a **long
//! experiment**, run in pieces: `cargo run --release -- mqar-budget` runs
//! every run that has no file yet in [`DIR`] (one JSON file per run, carrying
//! the code's hash), so it can be stopped and resumed; when every run has its
//! file it writes [`FINDINGS`], which the book reads.
//!
//! ```text
//! task     vocab 64 (keys 1..32, values 32..64), T = 64
//! model    d = 32, 2 blocks, conv width 4, one head (the capacity page's)
//! cells    K = V = 8 at 4, 8, 16 pairs (K/2, K, 2K); K = V = 16 at 16 pairs
//! train    AdamW (β 0.9, 0.999; ε 1e-8; decay 0.1 on every tensor), cosine to 0 over the cap,
//!          no warm-up, no clipping, batch 64, fresh sequences every step, f32 (the fast pass)
//! stop     held-out accuracy (256 sequences) > 0.99: solved;
//!          flat (rise < 0.01) over the last 30% of the cap, all of it above 1/pairs + 0.1: flat;
//!          at the cap: still rising (cut) or below 1/pairs + 0.1 (never learned)
//! tune     grid 0.001, 0.003, 0.01, widened by √10 where an arm picks an edge (limits 1e-4, 0.1);
//!          2 tuning seeds per rate and cell, at 5 000 steps (⅓ of the 15 000-step cap)
//! report   8 seeds per arm and cell at the picked rate
//! longer   where the cap cut half or more of an arm's runs in a cell while still rising,
//!          every seed again at twice the cap (same rate), up to 120 000 steps
//! ```
//!
//! What was taken from Zoology and what was not: the optimiser, its decay on
//! every tensor, the cosine schedule without warm-up, no clipping and the
//! 0.99 stop are Zoology's. Its data are a fixed set of 100 000 sequences
//! seen for 32–64 epochs; here every batch is fresh, so no sequence repeats
//! and there is nothing for dropout to guard against: no dropout (Zoology's
//! embedding dropout of 0.1 is left out). The cosine steps every step, not
//! every epoch. The block stays fla's (RMSNorm, output gate), not Zoology's
//! (LayerNorm), and the embedding is not tied to the readout.
//!
//! The budget: a run sees up to 15 000 × 64 = 960 000 sequences, five times
//! the 192 000 of the independent re-implementation that found no plateau at
//! 16 pairs, and a sixth of the 5.8–6.4 M of Zoology's configurations (whose
//! vocabulary of 8 192 makes its flat phase far longer than this one's of 64).
//!
//! The cost, measured: one step at batch 64 takes 8–10 ms of one idle core
//! (`figures/bench-training.txt`), so a run at the cap takes about 2½ minutes
//! and the whole experiment, 9 arms × 4 cells × (3+ rates × 2 tuning seeds
//! × 5 000 steps + 8 seeds × 15 000 steps), 5.4 M steps, at least 13
//! core-hours if every run went to its cap; solved and flat runs stop earlier.
//!
//! Under the cosine, the last stretch of a run trains at a small rate, so a
//! run that reaches its cap is usually flat there: the report counts the
//! runs that ran to the cap apart from how they ended.

pub mod caps;
pub mod claims;
pub mod report;
pub mod run;
mod store;

pub use claims::claims;
pub use report::measures;

pub use run::{Job, Record, Setup, Stage, pick, setup};

use std::path::Path;

use serde::{Deserialize, Serialize};

use store::Store;

use crate::experiment::delta_attention::arm::Arm;

/// The command that runs (or resumes) the experiment.
pub const COMMAND: &str = "cargo run --release -- mqar-budget";

/// The folder of per-run files, relative to the repository root.
pub const DIR: &str = "findings/mqar-budget";

/// The assembled findings, relative to the repository root.
pub const FINDINGS: &str = "findings/mqar-budget.json";

/// How often the cap may double past [`Setup::cap`] for an arm in a cell
/// while the cap cuts half or more of its runs there: up to 8 × 15 000 = 120 000 steps.
pub const DOUBLINGS: u32 = 3;

/// The experiment's own file: its findings depend on it and on
/// [`crate::experiment::source::TRAINING`].
pub const RUN: &str = "src/experiment/delta_attention/budget/run.rs";

/// The SHA-256 (hex) of [`RUN`] and the training code under `root` ([`crate::experiment::source::training`]).
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
        serde_json::from_str(include_str!("../../../../findings/mqar-budget.json"))
            .unwrap_or_else(|e| panic!("{FINDINGS} does not parse ({e}); rerun `{COMMAND}`"))
}

/// One arm in one cell: its tuning runs by rate, the rate it picked, its
/// reported runs at its longest cap, and those at every shorter cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub arm: String,
    pub state: usize,
    pub pairs: usize,
    pub tuning: Vec<(f64, Vec<Record>)>,
    pub lr: f64,
    pub runs: Vec<Record>,
    /// `(cap, runs)` at each shorter cap, shortest first.
    #[serde(default)]
    pub shorter: Vec<(usize, Vec<Record>)>,
}

/// Everything the experiment measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    pub code_hash: String,
    pub command: String,
    pub setup: Setup,
    /// Seconds of one core summed over every run.
    pub core_seconds: f64,
    pub cells: Vec<Cell>,
}

/// The next, doubled cap past `cap` with the runs it needs: every seed of
/// every arm-cell of `cells` whose runs the cap binds ([`Cell::cap_binds`]),
/// at the cell's rate; `None` when no cap binds or the cap has doubled
/// [`DOUBLINGS`] times already.
fn longer(setup: &Setup, arms: &[Arm], cells: &[Cell], cap: usize) -> Option<(Setup, Vec<Job>)> {
    let jobs: Vec<Job> = cells
        .iter()
        .filter(|c| c.cap_binds())
        .flat_map(|c| {
            let arm = *arms
                .iter()
                .find(|a| a.name() == c.arm)
                .expect("a cell's arm is an arm of the setup");
            (0..setup.seeds).map(move |seed| Job {
                stage: Stage::Report,
                arm,
                cell: (c.state, c.pairs),
                lr: c.lr,
                seed,
            })
        })
        .collect();
    (!jobs.is_empty() && cap < setup.cap << DOUBLINGS).then(|| {
        let longer = Setup {
            cap: 2 * cap,
            ..setup.clone()
        };
        (longer, jobs)
    })
}

/// [`resume`] in [`DIR`] under `root` with the code's hash, then write [`FINDINGS`].
///
/// # Errors
/// If a file cannot be read, parsed or written.
pub fn run_and_write(
    root: &Path,
    setup: &Setup,
    log: impl FnMut(String) + Send,
) -> Result<Findings, String> {
    let found = resume(setup, &code_hash(root), &root.join(DIR), log)?;
    let json = serde_json::to_string_pretty(&found).map_err(|e| e.to_string())?;
    let path = root.join(FINDINGS);
    crate::file::write_atomic(&path, (json + "\n").as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(found)
}

/// Where the runs of `setup` stand in `dir` for code `hash`, in a few lines:
/// the runs on file and their core time, the tuning runs still missing (the
/// grids may still widen), then each pick and the reported runs missing.
/// It runs nothing.
///
/// # Errors
/// If a file cannot be read or parsed.
pub fn status(setup: &Setup, hash: &str, dir: &Path) -> Result<String, String> {
    let store = Store::open(dir, hash)?;
    let on_file = |stage| store.records.values().filter(|r| r.stage == stage).count();
    let hours = store.records.values().map(|r| r.seconds).sum::<f64>() / 3600.0;
    let mut out = format!(
        "code {}: {} tuning and {} reported runs on file, {hours:.1} core-hours\n",
        &hash[..hash.len().min(12)],
        on_file(Stage::Tune),
        on_file(Stage::Report)
    );
    let pairs: Vec<(Arm, (usize, usize))> = setup
        .arms()
        .into_iter()
        .flat_map(|arm| setup.cells.iter().map(move |&cell| (arm, cell)))
        .collect();
    let grids: Vec<_> = pairs
        .iter()
        .map(|&(arm, cell)| store.grid(setup, arm, cell))
        .collect();
    let missing: usize = grids.iter().map(|(_, m)| m.len()).sum();
    if missing > 0 {
        out.push_str(&format!(
            "tuning: {missing} runs to go on the grids so far\n"
        ));
        return Ok(out);
    }
    let mut to_go = 0;
    let mut cells = Vec::new();
    for (&(arm, cell), (tuned, _)) in pairs.iter().zip(&grids) {
        let lr = pick(tuned);
        let runs: Vec<Record> = (0..setup.seeds)
            .filter_map(|seed| {
                let job = Job {
                    stage: Stage::Report,
                    arm,
                    cell,
                    lr,
                    seed,
                };
                store.get(&job).cloned()
            })
            .collect();
        let left = setup.seeds as usize - runs.len();
        to_go += left;
        cells.push(Cell {
            arm: arm.name(),
            state: cell.0,
            pairs: cell.1,
            tuning: Vec::new(),
            lr,
            runs,
            shorter: Vec::new(),
        });
        out.push_str(&format!(
            "  {} K = {}, {} pairs: rate {lr:.1e}, {left} seeds to go\n",
            arm.name(),
            cell.0,
            cell.1
        ));
    }
    out.push_str(&format!(
        "reported: {to_go} of {} runs to go\n",
        pairs.len() * setup.seeds as usize
    ));
    let mut cap = setup.cap;
    while let (0, Some((longer, jobs))) = (to_go, longer(setup, &setup.arms(), &cells, cap)) {
        let sub_dir = dir.join(format!("cap-{}", longer.cap));
        let sub = Store::open(&sub_dir, hash)?;
        to_go = jobs.iter().filter(|j| sub.get(j).is_none()).count();
        let binds = cells.iter().filter(|c| c.cap_binds()).count();
        out.push_str(&format!(
            "cap {}: {binds} arm-cells where the cap bound, {to_go} of {} runs to go\n",
            longer.cap,
            jobs.len()
        ));
        for cell in cells.iter_mut().filter(|c| c.cap_binds()) {
            cell.runs = jobs
                .iter()
                .filter(|j| j.arm.name() == cell.arm && j.cell == (cell.state, cell.pairs))
                .filter_map(|j| sub.get(j).cloned())
                .collect();
        }
        cap = longer.cap;
    }
    Ok(out)
}

/// Run every run of `setup` that has no record of `hash` in `dir` (tuning
/// first, the grids widened until every pick is inside, then the reported
/// seeds), writing one file per run and logging a line per run; return
/// everything. Killed part-way, it keeps every finished run's file, and the
/// next call goes on from there.
///
/// # Errors
/// If a file cannot be read, parsed or written.
pub fn resume(
    setup: &Setup,
    hash: &str,
    dir: &Path,
    log: impl FnMut(String) + Send,
) -> Result<Findings, String> {
    let mut store = Store::open(dir, hash)?;
    let log = std::sync::Mutex::new(log);
    let log = |line: String| (log.lock().expect("the log"))(line);
    let pairs: Vec<(Arm, (usize, usize))> = setup
        .arms()
        .into_iter()
        .flat_map(|arm| setup.cells.iter().map(move |&cell| (arm, cell)))
        .collect();
    loop {
        let missing: Vec<Job> = pairs
            .iter()
            .flat_map(|&(arm, cell)| store.grid(setup, arm, cell).1)
            .collect();
        if missing.is_empty() {
            break;
        }
        log(format!("tuning: {} runs", missing.len()));
        store.run(setup, &missing, &log)?;
    }
    let rates: Vec<f64> = pairs
        .iter()
        .map(|&(arm, cell)| pick(&store.grid(setup, arm, cell).0))
        .collect();
    let reported: Vec<Job> = pairs
        .iter()
        .zip(&rates)
        .flat_map(|(&(arm, cell), &lr)| {
            (0..setup.seeds).map(move |seed| Job {
                stage: Stage::Report,
                arm,
                cell,
                lr,
                seed,
            })
        })
        .collect();
    // seed by seed, so that an interrupted run leaves every cell equally far
    let mut missing: Vec<Job> = reported
        .iter()
        .filter(|j| store.get(j).is_none())
        .copied()
        .collect();
    missing.sort_by_key(|j| j.seed);
    log(format!(
        "reported: {} of {} runs to go",
        missing.len(),
        reported.len()
    ));
    store.run(setup, &missing, &log)?;
    let mut cells: Vec<Cell> = pairs
        .iter()
        .zip(&rates)
        .map(|(&(arm, (state, pairs)), &lr)| {
            let (tuning, _) = store.grid(setup, arm, (state, pairs));
            let runs = reported
                .iter()
                .filter(|j| j.arm == arm && j.cell == (state, pairs))
                .map(|j| store.get(j).expect("every run has run").clone())
                .collect();
            Cell {
                arm: arm.name(),
                state,
                pairs,
                tuning: tuning
                    .into_iter()
                    .map(|(r, rs)| (r, rs.into_iter().cloned().collect()))
                    .collect(),
                lr,
                runs,
                shorter: Vec::new(),
            }
        })
        .collect();
    let mut cap = setup.cap;
    let mut core_seconds: f64 = store.records.values().map(|r| r.seconds).sum();
    while let Some((longer, jobs)) = longer(setup, &setup.arms(), &cells, cap) {
        let sub_dir = dir.join(format!("cap-{}", longer.cap));
        let mut sub = Store::open(&sub_dir, hash)?;
        let mut missing: Vec<Job> = jobs
            .iter()
            .filter(|j| sub.get(j).is_none())
            .copied()
            .collect();
        missing.sort_by_key(|j| j.seed);
        log(format!(
            "cap {}: {} of {} runs to go",
            longer.cap,
            missing.len(),
            jobs.len()
        ));
        sub.run(&longer, &missing, &log)?;
        for cell in cells.iter_mut().filter(|c| c.cap_binds()) {
            let runs = jobs
                .iter()
                .filter(|j| j.arm.name() == cell.arm && j.cell == (cell.state, cell.pairs))
                .map(|j| sub.get(j).expect("every run has run").clone())
                .collect();
            let old = std::mem::replace(&mut cell.runs, runs);
            cell.shorter.push((cap, old));
        }
        core_seconds += sub.records.values().map(|r| r.seconds).sum::<f64>();
        cap = longer.cap;
    }
    Ok(Findings {
        code_hash: hash.to_string(),
        command: COMMAND.to_string(),
        setup: setup.clone(),
        core_seconds,
        cells,
    })
}
