//! Unit tests of `crate::experiment::delta_attention::budget` (`src/experiment/delta_attention/budget/`).

use attention_geometry::experiment::delta_attention::budget::*;
use attention_geometry::mixer::Mixer;
use attention_geometry::train::Outcome;

/// The experiment at a size a test affords: two mixers, two cells, tiny runs.
fn tiny() -> Setup {
    Setup {
        vocab: 24,
        len: 16,
        d: 8,
        mixers: vec![Mixer::Softmax, Mixer::GatedDeltaNet],
        cells: vec![(4, 2), (4, 3)],
        cap: 6,
        tune_cap: 4,
        tune_seeds: vec![10, 11],
        seeds: 2,
        batch: 2,
        test: 4,
        every: 2,
        ..setup()
    }
}

#[test]
fn a_resumed_run_reuses_every_record_and_fills_every_cell() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    let first = resume(&tiny(), "h1", dir.path(), |l| lines.push(l)).unwrap();
    // softmax and two gate initialisations of Gated DeltaNet, in two cells
    assert_eq!(first.cells.len(), 6);
    for c in &first.cells {
        assert_eq!(c.runs.len(), 2);
        assert!(c.tuning.len() >= 3 && c.tuning.iter().all(|(_, rs)| rs.len() == 2));
        // every pick sits inside its grid, or at a limit
        let rates: Vec<f64> = c.tuning.iter().map(|&(r, _)| r).collect();
        let (low, high) = (
            rates.iter().copied().fold(1.0, f64::min),
            rates.iter().copied().fold(0.0, f64::max),
        );
        assert!((c.lr > low && c.lr < high) || c.lr <= 1e-4 * 1.001 || c.lr >= 0.1 * 0.999);
        // a capped tiny run cannot have solved or left chance by a window
        assert!(c.runs.iter().all(|r| r.cap == 6 && r.steps() <= 6));
    }
    // a second call finds every run on disk and runs nothing
    let mut again = Vec::new();
    let second = resume(&tiny(), "h1", dir.path(), |l| again.push(l)).unwrap();
    assert_eq!(second, first);
    assert!(again.iter().all(|l| !l.starts_with("  ")), "{again:?}");
    // another code hash reruns everything
    let mut other = Vec::new();
    resume(&tiny(), "h2", dir.path(), |l| other.push(l)).unwrap();
    assert!(
        other.iter().filter(|l| l.starts_with("  ")).count()
            >= lines.iter().filter(|l| l.starts_with("  ")).count()
    );
}

#[test]
fn the_pick_prefers_accuracy_then_speed_and_the_grid_widens_past_an_edge() {
    let record = |lr: f64, accuracy: f64, steps: usize| Record {
        code_hash: String::new(),
        stage: Stage::Tune,
        arm: "linear".into(),
        state: 8,
        pairs: 8,
        lr,
        seed: 0,
        cap: 100,
        outcome: Outcome::Flat,
        accuracy,
        curve: vec![(steps, accuracy)],
        seconds: 0.0,
    };
    let (a, b, c) = (
        record(0.001, 0.995, 900),
        record(0.003, 0.996, 400),
        record(0.01, 0.5, 100),
    );
    let grid = vec![(0.001, vec![&a]), (0.003, vec![&b]), (0.01, vec![&c])];
    assert_eq!(pick(&grid), 0.003);
    assert_eq!(setup().widened(&grid), None);
    // equal accuracy: the faster rate wins, here the low edge, so the grid widens below it
    let fast_low = record(0.001, 0.996, 300);
    let grid = vec![
        (0.001, vec![&fast_low]),
        (0.003, vec![&b]),
        (0.01, vec![&c]),
    ];
    assert_eq!(pick(&grid), 0.001);
    let next = setup().widened(&grid).unwrap();
    assert!((next - 0.001 / 10f64.sqrt()).abs() < 1e-12);
}
