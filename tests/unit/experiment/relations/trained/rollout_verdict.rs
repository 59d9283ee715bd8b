//! Unit tests of `crate::experiment::relations::trained::rollout_verdict` (`src/experiment/relations/trained/rollout_verdict.rs`).

use attention_geometry::experiment::relations::trained::importance::Counterfactual;
use attention_geometry::experiment::relations::trained::importance::{STEP, removals};
use attention_geometry::experiment::relations::trained::rollout_verdict::*;
use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;

/// Input × gradient by the forward difference agrees with the central
/// difference at ten times the step, token by token.
#[test]
fn the_forward_difference_is_input_times_gradient() {
    let m = Architecture::Minilm.with(Model::Trained);
    let e = m.encode("the bank raised its rates").expect("encodes");
    let x0 = m.embed(&e.ids);
    let h = m.run_from(0, x0.clone(), &[]).output;
    let forward = m.run_edits(&x0, &removals(m, &e.ids, &x0, Counterfactual::Gradient));
    let big = 10.0 * STEP;
    let scaled = |s: f64| -> Vec<_> {
        let edits: Vec<_> = (0..e.ids.len())
            .map(|j| (j, x0.row(j).transpose() * s))
            .collect();
        m.run_edits(&x0, &edits)
    };
    let (up, down) = (scaled(1.0 + big), scaled(1.0 - big));
    for j in 0..e.ids.len() {
        let f = (&forward[j] - &h).row(0).norm() / STEP;
        let c = (&up[j] - &down[j]).row(0).norm() / (2.0 * big);
        assert!((f - c).abs() <= 1e-2 * c, "token {j}: {f} vs {c}");
    }
}

#[test]
#[ignore = "prints the composite claims"]
fn print() {
    for c in claims() {
        println!(
            "{} {:?}\n  {}\n  {}",
            c.id,
            c.verdict(),
            c.measured(),
            c.prediction()
        );
        for ch in &c.choices {
            println!(
                "  under {}: {:?}",
                ch.name,
                ch.core.iter().map(|t| t.measured()).collect::<Vec<_>>()
            );
        }
    }
    for m in measures() {
        println!("{} = {}", m.key, m.value);
    }
}
