//! Unit tests of `crate::experiment::multi_head::repair::verdict` (`src/experiment/multi_head/repair/verdict.rs`).

use attention_geometry::experiment::multi_head::repair::book;
use attention_geometry::experiment::multi_head::repair::verdict::*;
use attention_geometry::pretrained::transformer::Architecture;

#[test]
fn every_repair_marker_of_chapter_3_is_a_measure() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/chapters/03-multi-head.md");
    let text = std::fs::read_to_string(path).unwrap();
    let keys: Vec<String> = measures().into_iter().map(|m| m.key).collect();
    let quoted: Vec<&str> = text
        .split("{{measure ch03.")
        .skip(1)
        .filter_map(|p| p.split("}}").next())
        .filter(|k| {
            ["dr_", "lm_kept", "lm_repair", "lm_hydra", "lm_resample"]
                .iter()
                .any(|p| k.starts_with(p))
        })
        .collect();
    assert!(quoted.len() > 30);
    for key in quoted {
        assert!(keys.iter().any(|k| k == key), "{key} is not a measure");
    }
}

/// The caption of `ch03-decoder-self-repair`: at layer 0 the later blocks' response dwarfs the
/// change and is nearly orthogonal to it, and the first token's state is
/// not where κ turns negative.
#[test]
fn the_decoders_layer_zero_response_is_large_and_nearly_orthogonal() {
    let [kept, later, cos, ratio, ratio_random] = layer_zero(book(Architecture::Smollm2));
    assert!(
        kept < 0.0 && later < 0.0,
        "κ {kept}, without the first {later}"
    );
    assert!((later - kept).abs() < 0.1 * kept.abs());
    assert!(cos.abs() < 0.1, "cos {cos}");
    assert!(ratio > 3.0 * ratio_random, "{ratio} against {ratio_random}");
}

#[test]
fn every_decoder_choice_names_the_model() {
    assert!(
        decoder_choices()
            .iter()
            .all(|(name, _, _)| name.contains(MODEL))
    );
    assert!(setting().contains(MODEL));
}
