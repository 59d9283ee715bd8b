//! Unit tests of `crate::experiment::relations::flexible::member` (`src/experiment/relations/flexible/member.rs`).

use attention_geometry::experiment::relations::flexible::member::*;
use attention_geometry::random::seeded;
use attention_geometry::train::{Plateau, Schedule};

const SIZES: Sizes = Sizes {
    d: 16,
    vocab: 8,
    context: 8,
    margin: 4.0,
};

#[test]
fn the_fixed_form_scores_the_margin_on_its_offset_only() {
    let world = world(SIZES, &mut seeded(3));
    let (w_q, w_k) = form(&world, 2, 4.0);
    let w_qk = &w_q * w_k.transpose() / 4.0;
    for q in 0..8 {
        for key in 0..8 {
            for label in 0..8 {
                let x = world.keys.row(key) + world.labels.row(label);
                let s = (world.keys.row(q) * &w_qk).dot(&x);
                let want = if key == (q + 2) % 8 { 4.0 } else { 0.0 };
                assert!((s - want).abs() < 1e-9, "score {s} for q {q}, key {key}");
            }
        }
    }
}

#[test]
fn a_member_reads_the_label_at_its_offset() {
    let mut rng = seeded(5);
    let world = world(SIZES, &mut rng);
    let ex = example(&world, 3, &mut rng);
    let x = &ex.x;
    // the answer's row minus its label embedding is the key e[q + 3]
    let q = (0..8)
        .find(|&k| (x.row(8) - world.keys.row(k)).abs().max() < 1e-12)
        .unwrap();
    let key = x.row(ex.position) - world.labels.row(ex.target);
    assert!((key - world.keys.row((q + 3) % 8)).abs().max() < 1e-12);
}

#[test]
fn a_fixed_form_learns_its_own_member() {
    let schedule = Schedule {
        steps: 300,
        batch: 16,
        lr: 0.03,
        eval_every: 50,
        test: 128,
        threshold: 0.8,
    };
    let h = train(
        SIZES,
        Head::Fixed(1),
        1,
        schedule,
        Plateau::BOOK.after(300),
        0,
        false,
    );
    assert!(h.final_accuracy > 0.8, "{:?}", h.accuracy);
}
