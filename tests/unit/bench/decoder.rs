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
    let decode = decode(SmolLm2::shared(), 2, 1);
    assert!(decode.tokens_per_second().is_finite() && decode.bytes > 90_000_000);
    let text = report(&rows, 10.0, &decode, 20.0);
    assert!(
        text.contains("tokens/s") && text.contains("of that bound"),
        "{text}"
    );
}

#[test]
fn a_decode_step_is_bound_by_reading_its_packed_weights() {
    // 30 blocks of Q4_1 (20 bytes per 32 weights) and the Q8_0 embedding (34 per 32)
    let row = DecodeRow {
        tokens: 1,
        seconds: 0.01,
        bytes: 96_000_000,
    };
    assert!((row.bound_seconds(24.0) - 0.004).abs() < 1e-12);
    assert_eq!(row.tokens_per_second(), 100.0);
}
