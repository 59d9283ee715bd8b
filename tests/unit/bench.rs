//! Unit tests of `crate::bench` (`src/bench/mod.rs`).

mod decoder;
mod machine;
mod report;

use attention_geometry::bench::*;

#[test]
fn rounds_time_every_kernel_and_report_one_median_each() {
    let mut calls = [0; 3];
    let medians = median_seconds(4, 3, |i| calls[i] += 1);
    assert_eq!(calls, [5, 5, 5]); // a warm-up round and four timed rounds
    assert!(medians.len() == 3 && medians.iter().all(|&s| s >= 0.0));
}

#[test]
fn only_the_recurrences_stream_their_state() {
    let streaming: Vec<&str> = Mixer::ALL
        .into_iter()
        .filter(|m| m.streams_state())
        .map(Mixer::name)
        .collect();
    assert_eq!(streaming, ["kda", "kda_fused"]);
}
#[test]
#[ignore]
fn print_training_bench() {
    use attention_geometry::bench::{self, training};
    let rows = training::run(7);
    eprintln!("{}", training::report(&rows, bench::gemm_gflops::<f32>(128, 576, 1536, 7)));
}
