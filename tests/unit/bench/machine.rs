//! Unit tests of `crate::bench::machine` (`src/bench/machine.rs`).

use attention_geometry::bench::Mixer;
use attention_geometry::bench::Row;
use attention_geometry::bench::machine::*;

#[test]
fn a_kernel_that_does_not_stream_state_is_bound_by_its_flops() {
    let m = Machine {
        gemm_gflops: 50.0,
        bandwidth: vec![(64, 1.0)],
    };
    let row = |mixer| Row {
        mixer,
        t: 1000,
        d: 64,
        seconds: 0.1,
        flops: 1e9,
    };
    assert_eq!(m.bound(&row(Mixer::KdaChunked)).limit, Limit::Flops);
    assert_eq!(m.bound(&row(Mixer::Kda)).limit, Limit::State);
    assert!((m.share(&row(Mixer::KdaChunked)) - 0.2).abs() < 1e-12);
}

#[test]
fn the_stream_measures_a_finite_positive_rate() {
    let gbs = stream_gbs(1024, 1);
    assert!(gbs.is_finite() && gbs > 0.0);
}
