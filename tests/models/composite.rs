//! Chapter 4's norm-weighted composite against an independent numpy
//! reference (`models/minilm/reference-composite.json`, written by
//! `scripts/reference_composite.py`): the composite matrix of one sentence
//! and the agreement of raw attention and of the composite with the
//! mean-ablation effect on the first sentences.

use attention_geometry::experiment::relations::trained::composite::carried_mix;
use attention_geometry::experiment::relations::trained::{
    Counterfactual, Keys, Target, importance,
};
use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;
use attention_geometry::relation::chain;

use super::{ids, reference};

/// Sentences compared (the reference has 20; three keep the test fast).
const SENTENCES: usize = 3;
/// Largest |ρ − ρ_ref| allowed: both compute in float64 from the same
/// float16 weights, so only summation order differs (measured: below 1e-12).
const RHO_TOLERANCE: f64 = 1e-9;
/// Largest |C − C_ref| allowed over the composite's entries (the same reason).
const ENTRY_TOLERANCE: f64 = 1e-9;

#[test]
fn the_composite_and_its_agreement_match_the_numpy_reference() {
    let r = reference("minilm/reference-composite.json");
    let m = Architecture::Minilm.with(Model::Trained);
    for (s, record) in r["sentences"].as_array().unwrap()[..SENTENCES]
        .iter()
        .enumerate()
    {
        let e = m.encode(record["text"].as_str().unwrap()).unwrap();
        assert_eq!(e.ids, ids(&record["ids"]), "sentence {s}: token ids");
        let found = importance::importance(m, &e, &[Counterfactual::Mean]);
        let cell = found
            .cell(Counterfactual::Mean, Target::Words, Keys::All)
            .unwrap();
        for (name, ours, theirs) in [
            ("raw", cell.raw, &record["rho_raw"]),
            ("carried", cell.carried, &record["rho_carried"]),
        ] {
            let theirs = theirs.as_f64().unwrap();
            assert!(
                (ours - theirs).abs() < RHO_TOLERANCE,
                "sentence {s}, ρ({name}): {ours} vs numpy {theirs}"
            );
        }
        if let Some(c) = record.get("composite") {
            let trace = m.run(&e.ids);
            let mixes: Vec<_> = trace.layers.iter().map(|t| carried_mix(m, t)).collect();
            let ours = chain(&mixes);
            let n = e.ids.len();
            let theirs = c.as_array().unwrap();
            for i in 0..n {
                for j in 0..n {
                    let t = theirs[i * n + j].as_f64().unwrap();
                    assert!(
                        (ours[(i, j)] - t).abs() < ENTRY_TOLERANCE,
                        "composite[{i}, {j}]: {} vs numpy {t}",
                        ours[(i, j)]
                    );
                }
            }
        }
    }
}
