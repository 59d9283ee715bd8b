//! Unit tests of `crate::bench::report` (`src/bench/report.rs`).

use attention_geometry::bench::report::*;
use attention_geometry::bench::{Machine, Mixer, Row};

fn row(mixer: Mixer, seconds: f64) -> Row {
    Row {
        mixer,
        t: 4096,
        d: 128,
        seconds,
        flops: 1e9,
    }
}

/// 1e9 flops at 100 GFLOP/s bound a kernel at 10 ms; the state,
/// 4096 · 16 · 128² bytes ≈ 1.07 GB at 214.7 GB/s, at 5 ms.
fn machine() -> Machine {
    Machine {
        gemm_gflops: 100.0,
        bandwidth: vec![(128, 4096.0 * 16.0 * 16384.0 / 5e-3 / 1e9)],
    }
}

#[test]
fn the_report_checks_both_goals_either_way() {
    let sweep = [(32, 0.02), (64, 0.03)];
    let fast = [
        row(Mixer::Kda, 0.1),
        row(Mixer::KdaFused, 0.015),
        row(Mixer::KdaChunked, 0.02),
    ];
    let r = report(&fast, &sweep, &machine());
    assert!(r.full.contains("32: 20.0 ms, 64: 30.0 ms"));
    assert!(r.full.ends_with(&r.summary));
    assert!(
        r.summary
            .contains("kda_fused reaches 67% of its roofline bound; goal ≥ 50%: met")
    );
    assert!(
        r.summary
            .contains("kda_chunked reaches 50% of the matrix-product rate; goal ≥ 50%: met")
    );
    assert!(
        r.summary
            .contains("kda_fused is 6.67× faster than kda there")
    );
    assert!(
        r.summary
            .contains("  K = V = 128, T = 4096: kda_fused (1.33×)\n")
    );
    let slow = [
        row(Mixer::Kda, 0.1),
        row(Mixer::KdaFused, 0.03),
        row(Mixer::KdaChunked, 0.025),
    ];
    let r = report(&slow, &[], &machine());
    assert!(
        r.summary
            .contains("kda_fused reaches 33% of its roofline bound; goal ≥ 50%: NOT met")
    );
    assert!(
        r.summary
            .contains("kda_chunked reaches 40% of the matrix-product rate; goal ≥ 50%: NOT met")
    );
    assert!(r.summary.contains("T = 4096: kda_chunked (1.20×)"));
}

#[test]
fn the_table_names_each_bound_and_its_share() {
    let m = machine();
    let t = table(&[row(Mixer::Kda, 0.02), row(Mixer::KdaChunked, 0.02)], &m);
    // kda: the flops (10 ms) bound it more than the state (5 ms); half of the bound reached
    assert!(
        t.lines()
            .nth(1)
            .unwrap()
            .ends_with("10.000  flops       50%"),
        "{t}"
    );
    let state = Machine {
        gemm_gflops: 1000.0,
        ..m
    };
    let t = table(&[row(Mixer::KdaFused, 0.01)], &state);
    assert!(
        t.lines()
            .nth(1)
            .unwrap()
            .ends_with("5.000  state       50%"),
        "{t}"
    );
}
