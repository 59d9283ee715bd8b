//! The rules a referee reads a verdict by: every empirical claim is measured
//! under more than one choice, every cited result is first replicated on its
//! own protocol, and the machine-readable outputs carry all of it.

use std::process::Command;

use attention_geometry::claim::{Evidence, Kind};
use attention_geometry::experiment::{claims, measures};

/// The claims that test a published result on a trained model, with the paper.
const CITED: [(&str, &str); 11] = [
    ("ch01.encoder-more-symmetric", "Saponati"),
    ("ch02.trained-weight-not-effect", "Kobayashi"),
    ("ch02.trained-sinks-take-weight-not-norm", "Xiao"),
    ("ch03.trained-heads-compose", "Olsson"),
    ("ch03.trained-later-layers-correct", "McGrath"),
    ("ch04.trained-rollout", "Abnar"),
    ("ch05.trained-absorbs", "McGrath"),
    ("ch05.trained-prediction-settles", "nostalgebraist"),
    ("ch05.trained-prediction-settles", "Belrose"),
    ("ch07.learned-delta-recalls-more", "Yang"),
    ("ch07.learned-softmax-ceiling", "Arora"),
];

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_empirical_claim_is_measured_under_more_than_its_default() {
    for c in claims().iter().filter(|c| c.kind == Kind::Empirical) {
        assert!(
            !c.default_choice.is_empty() && !c.choices.is_empty(),
            "{}: name its default choice and vary it at least once (Claim::default_choice, Claim::under)",
            c.id
        );
        for ch in &c.choices {
            assert_eq!(
                ch.core.len(),
                c.core.len(),
                "{}: choice '{}' must repeat every core test",
                c.id,
                ch.name
            );
        }
    }
}

#[test]
fn every_pretrained_claim_names_the_model_it_rests_on() {
    for c in claims()
        .iter()
        .filter(|c| c.evidence == Evidence::Pretrained)
    {
        assert!(
            c.setting.contains("MiniLM") || c.setting.contains("SmolLM2"),
            "{}: say in its setting which pretrained model it rests on: {}",
            c.id,
            c.setting
        );
    }
}

#[test]
fn every_cited_result_is_replicated_on_its_own_protocol() {
    let all = claims();
    for (id, paper) in CITED {
        let c = all
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id}: no such claim"));
        assert!(
            c.replications.iter().any(|r| r.paper.contains(paper)),
            "{id}: replicate {paper} on its own protocol first (Claim::replication)"
        );
    }
}

#[test]
fn the_json_lists_every_claim_with_its_tests_choices_and_replications() {
    let out = run(&["verdicts", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let all = claims();
    let rows = v.as_array().expect("an array of claims");
    assert_eq!(rows.len(), all.len());
    for (row, c) in rows.iter().zip(&all) {
        assert_eq!(row["id"], c.id.as_str());
        assert_eq!(row["verdict"], c.verdict().to_string());
        let tests = row["tests"].as_array().unwrap();
        assert_eq!(tests.len(), c.core.len() + c.scope.len(), "{}", c.id);
        for t in tests {
            for field in ["quantity", "relation", "bound", "measured", "held", "role"] {
                assert!(t.get(field).is_some(), "{}: test lacks {field}", c.id);
            }
        }
        assert_eq!(
            row["sensitivity"].as_array().unwrap().len(),
            c.choices.len()
        );
        assert_eq!(
            row["replications"].as_array().unwrap().len(),
            c.replications.len()
        );
    }
}

#[test]
fn the_measures_command_lists_every_registered_measure() {
    let out = run(&["measures", "--tsv"]);
    assert!(out.status.success());
    let tsv = String::from_utf8(out.stdout).unwrap();
    let mut lines = tsv.lines();
    assert_eq!(lines.next(), Some("key\tvalue\ttable\ttext"));
    let rows: Vec<&str> = lines.collect();
    let all = measures();
    assert_eq!(rows.len(), all.len());
    for (row, m) in rows.iter().zip(&all) {
        let fields: Vec<&str> = row.split('\t').collect();
        assert_eq!(fields.len(), 4, "{row}");
        assert_eq!(fields[0], m.key);
    }
    let bad = run(&["measures", "--csv"]);
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert!(
        !bad.status.success() && stderr.lines().count() == 1,
        "{stderr}"
    );
}

#[test]
fn every_measure_has_its_own_key() {
    let all = measures();
    let keys: std::collections::BTreeSet<&str> = all.iter().map(|m| m.key.as_str()).collect();
    let repeated: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| all.iter().filter(|m| m.key == *k).count() > 1)
        .collect();
    assert!(repeated.is_empty(), "measure keys used twice: {repeated:?}");
}
