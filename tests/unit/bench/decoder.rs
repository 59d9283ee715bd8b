//! Unit tests of `crate::bench::decoder` (`src/bench/decoder.rs`).

use attention_geometry::bench::decoder::*;
use attention_geometry::pretrained::smollm2::SmolLm2;

#[test]
fn a_prompt_costs_about_twice_the_parameters_per_token() {
    let m = SmolLm2::shared();
    // 30 blocks of 576·(576 + 192 + 192 + 576) + 3·576·1536 weights
    let per_token = 2.0 * 30.0 * (576.0 * 1536.0 + 3.0 * 576.0 * 1536.0);
    let f = flops(m, 128);
    assert!(f > 128.0 * per_token && f < 1.2 * 128.0 * per_token, "{f}");
}

#[test]
fn a_timed_row_reports_finite_rates() {
    let rows = run(SmolLm2::shared(), &[4], 1);
    assert!(rows[0].tokens_per_second().is_finite() && rows[0].gflops() > 0.0);
    assert!(report(&rows, 10.0).contains("tokens/s"));
}
