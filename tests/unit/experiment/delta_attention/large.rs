//! Unit tests of `crate::experiment::delta_attention::large` (`src/experiment/delta_attention/large/mod.rs`).

mod claims;

use std::path::Path;

use attention_geometry::experiment::delta_attention::large::*;
use attention_geometry::mixer::Schedule;
use attention_geometry::mixer::stack::Training;

#[test]
fn a_tiny_run_fills_every_cell_of_every_arm() {
    let tiny = Setup {
        vocab: 40,
        d: 4,
        rates: vec![0.01, 0.03],
        tune_steps: 2,
        seeds: 2,
        training: Training {
            schedule: Schedule {
                steps: 4,
                batch: 1,
                lr: 0.0,
                test: 2,
            },
            every: 2,
            ..setup().training
        },
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
        "{FINDINGS} is stale: the code it depends on ({RUN} and the training code) changed since it was \
         written; rerun `{COMMAND}` (about 5 minutes on two cores) and commit the new file"
    );
    assert_eq!(
        findings().setup,
        setup(),
        "{FINDINGS} is stale: rerun `{COMMAND}`"
    );
}
