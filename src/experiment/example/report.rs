//! The running example's numbers, by the chapter that quotes them (keys
//! `example_…_minilm` and `example_…_smollm2`).

use super::{Example, Reading, book};
use crate::measure::{Measure, fixed};
use crate::pretrained::transformer::Architecture;
use crate::stats::mean;

/// `f` of the two sentences' readings, averaged.
fn both(e: &Example, f: impl Fn(&Reading) -> f64) -> f64 {
    mean(&e.sentences.iter().map(f).collect::<Vec<_>>())
}

/// `f` of the two sentences' readings, written "A and B".
fn each(e: &Example, f: impl Fn(&Reading) -> String) -> String {
    format!("{} and {}", f(&e.sentences[0]), f(&e.sentences[1]))
}

/// One model's numbers for chapter `chapter`, keys without the model's name.
fn of(e: &Example, chapter: u8) -> Vec<(&'static str, String)> {
    let lo = e.rho.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = e.rho.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    match chapter {
        1 => vec![
            ("example_layer", e.layer.to_string()),
            ("example_head", e.head.to_string()),
            ("example_rho", fixed(e.rho[e.head], 2)),
            ("example_rho_lo", fixed(lo, 2)),
            ("example_rho_hi", fixed(hi, 2)),
        ],
        2 => vec![
            (
                "example_weight_special",
                fixed(both(e, |r| r.on_special(&r.weight)), 2),
            ),
            (
                "example_norm_special",
                fixed(both(e, |r| r.on_special(&r.carried)), 2),
            ),
        ],
        3 => vec![
            (
                "example_partners",
                each(e, |r| r.partners(true).to_string()),
            ),
            (
                "example_partners_inner",
                each(e, |r| r.partners(false).to_string()),
            ),
        ],
        4 => vec![
            ("example_last_first", fixed(both(e, |r| r.last[0]), 2)),
            ("example_rollout_first", fixed(both(e, |r| r.rollout[0]), 2)),
        ],
        5 => vec![
            ("example_drift_first", fixed(e.drift[0], 2)),
            ("example_drift_last", fixed(e.drift[e.drift.len() - 1], 2)),
        ],
        _ => Vec::new(),
    }
}

/// The numbers chapter `chapter` quotes of the running example.
pub fn measures(chapter: u8) -> Vec<Measure> {
    if !(1..=5).contains(&chapter) {
        return Vec::new();
    }
    let f = book();
    Architecture::ALL
        .iter()
        .flat_map(|&arch| {
            of(f.arch(arch), chapter)
                .into_iter()
                .map(move |(key, value)| Measure::new(format!("{key}_{}", arch.name()), value))
        })
        .collect()
}
