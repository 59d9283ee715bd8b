//! Unit tests of `crate::pretrained::smollm2::random_init` (`src/pretrained/smollm2/random_init.rs`).

use attention_geometry::pretrained::smollm2::random_init::*;
use attention_geometry::pretrained::smollm2::{Cache, forward};

#[test]
fn a_random_decoder_runs_finite_and_predicts_next_to_nothing() {
    let w = random_weights(&tiny(), BASELINE_SEED);
    let x = forward::embed(&w, &[5, 17, 99, 3]);
    let (out, _) = forward::run_from(&w, 0, x, &mut Cache::new(&w.config), Default::default());
    let logits = forward::logits(&w, &out.rows(3, 1).into_owned());
    let lp = forward::log_softmax(logits.as_slice());
    assert!(lp.iter().all(|v| v.is_finite()));
    // untrained: close to uniform over the 100 tokens
    let best = lp.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!(best < 0.05f64.ln(), "top probability {}", best.exp());
}
