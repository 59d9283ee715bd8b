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
fn the_training_report_names_the_slowest_speed_up_against_the_goal() {
    use attention_geometry::bench::training::{self, Pass, TrainingRow};
    use attention_geometry::mixer::Mixer;
    let row = |pass, seconds| TrainingRow {
        mixer: Mixer::Kda,
        pass,
        batch: 16,
        seconds,
        flops: training::flops(training::config(Mixer::Kda), 16),
    };
    let rows = [
        row(Pass::Reference, 0.012),
        row(Pass::Fast, 0.003),
        row(Pass::Fused, 0.001),
        row(Pass::Reference, 0.010),
        row(Pass::Fast, 0.004),
        row(Pass::Fused, 0.002),
    ];
    let text = training::report(&rows, 100.0);
    // judged on the fused pass: 12× and 5×, the smaller not met
    assert!(text.contains("not met (smallest speed-up 5.0×)"), "{text}");
    assert!(text.contains("12.0×"), "{text}");
    assert!(text.contains("4.0×"), "{text}");
    // the products of one step at batch 16: tens of MFLOP
    assert!((1e7..1e8).contains(&rows[0].flops));
}
