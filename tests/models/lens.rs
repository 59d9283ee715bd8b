//! Chapter 5's fitted lens and norm-matched null against an independent
//! numpy implementation (`scripts/reference_lens.py` →
//! `models/smollm2/reference-lens.json`): its own dequantisation, forward
//! pass, tokenizer and least squares.

use super::{ids, reference};
use attention_geometry::experiment::fixed_points::affine_lens::AffineLens;
use attention_geometry::experiment::fixed_points::lens_fitted::{self, held_out};
use attention_geometry::experiment::fixed_points::logit_lens::{
    self, ModelFindings, Positions, lens_top1, sentence_ids,
};
use attention_geometry::pretrained::smollm2::SmolLm2;

/// Share of (sentence, boundary, position) whose fitted-lens top-1 must
/// equal numpy's. Both keep activations in f32 and fit in f64; they differ
/// in summation order, which can flip a near-tie.
const TOP1_SHARE: f64 = 0.98;
/// Boundaries compared: 0, 5, …, 30.
const BOUNDARY_STEP: usize = 5;

/// Largest |library − numpy| for a mean boundary (0–30).
const BOUNDARY_TOLERANCE: f64 = 0.25;

/// Largest |library − numpy| for a share of positions or boundaries.
const SHARE_TOLERANCE: f64 = 0.02;

/// Largest |library − numpy| for a block's mean write share ‖Δ_l‖ / ‖h_(l+1)‖.
const WRITE_TOLERANCE: f64 = 1e-3;

#[test]
fn the_fitted_lens_on_a_few_sentences_is_numpys() {
    let r = reference("smollm2/reference-lens.json");
    let small = &r["small"];
    let m = SmolLm2::shared();
    let held: Vec<Vec<u32>> = small["held_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(ids)
        .collect();
    let eval: Vec<Vec<u32>> = small["eval_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(ids)
        .collect();
    // the same token ids from the library's tokenizer
    for (text, want) in held_out().iter().zip(&held) {
        assert_eq!(&m.encode(text).unwrap().ids, want, "{text}");
    }
    assert_eq!(sentence_ids(m, eval.len()), eval);
    let runs: Vec<_> = held.iter().map(|s| m.run(s).states()).collect();
    let lens = AffineLens::fit(&runs, r["header"]["ridge"].as_f64().unwrap());
    let (mut same, mut all) = (0, 0);
    for (s, want) in eval.iter().zip(small["top1"].as_array().unwrap()) {
        // every fifth boundary: the vocabulary's logits are most of the cost
        for (x, row) in lens
            .apply(&m.run(s).states())
            .iter()
            .zip(want.as_array().unwrap())
            .step_by(BOUNDARY_STEP)
        {
            for (ours, theirs) in lens_top1(m, x).iter().zip(ids(row)) {
                same += usize::from(*ours == theirs as usize);
                all += 1;
            }
        }
    }
    let share = same as f64 / all as f64;
    println!("{same} of {all} fitted-lens top-1s are numpy's");
    assert!(all >= 7 * 20 && share >= TOP1_SHARE, "{share}");
}

/// `|ours − theirs| ≤ tol`, named.
fn near(name: &str, ours: f64, theirs: f64, tol: f64) {
    println!("{name}: library {ours:.4}, numpy {theirs:.4}");
    assert!((ours - theirs).abs() <= tol, "{name}: {ours} vs {theirs}");
}

#[test]
fn the_book_numbers_are_numpys() {
    let r = reference("smollm2/reference-lens.json");
    let b = &r["book"];
    let f = lens_fitted::book();
    assert_eq!(
        f.held_out_tokens as u64,
        b["held_out_tokens"].as_u64().unwrap()
    );
    let check = |name: &str, lib: &ModelFindings, want: &serde_json::Value| {
        let a = lib.agreement(Positions::All);
        let get = |k: &str| want[k].as_f64().unwrap();
        near(
            &format!("{name} first"),
            lib.first(Positions::All),
            get("first_all"),
            BOUNDARY_TOLERANCE,
        );
        near(
            &format!("{name} settled"),
            lib.settled(Positions::Open),
            get("settled_open"),
            BOUNDARY_TOLERANCE,
        );
        near(
            &format!("{name} stay"),
            lib.stay(Positions::Open),
            get("stay_open"),
            SHARE_TOLERANCE,
        );
        near(
            &format!("{name} agree 0"),
            a[0],
            get("agree0"),
            SHARE_TOLERANCE,
        );
        near(
            &format!("{name} agree 29"),
            a[29],
            get("agree29"),
            SHARE_TOLERANCE,
        );
    };
    check("fitted", &f.fitted.trained.pooled(), &b["fitted"]);
    check("plain", &logit_lens::book().trained, &b["plain"]);
    for (l, want) in b["write_share"].as_array().unwrap().iter().enumerate() {
        near(
            &format!("write share {l}"),
            f.write_share.trained[l],
            want.as_f64().unwrap(),
            WRITE_TOLERANCE,
        );
    }
    // the null's rotations are drawn by different generators: compare as
    // statistics, within 3 standard errors of the difference of the two seed means
    let null = f.null_plain();
    let (lib_seeds, np_seeds) = (f.null.len() as f64, r["header"]["seeds"].as_f64().unwrap());
    for (k, ours) in [
        ("first_all", null.first(Positions::All)),
        ("stay_open", null.stay(Positions::Open)),
        ("agree29", null.agreement(Positions::All)[29]),
    ] {
        let w = &b["null_plain"][k];
        let tol = 3.0 * w["sd"].as_f64().unwrap() * (1.0 / lib_seeds + 1.0 / np_seeds).sqrt();
        near(
            &format!("null {k}"),
            ours,
            w["mean"].as_f64().unwrap(),
            tol.max(SHARE_TOLERANCE),
        );
    }
}
