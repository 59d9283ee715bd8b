//! Unit tests of `crate::experiment::coordinate_mismatch::rotating_verdict` (`src/experiment/coordinate_mismatch/rotating_verdict.rs`).

use attention_geometry::experiment::coordinate_mismatch::rotating::{
    Keys, Similarity, Variant, book,
};
use attention_geometry::stats::mean;

#[test]
fn every_sentence_once_is_the_pooled_mean() {
    let t = &book().trained;
    let n = t.by_sentence[0][0].len();
    for sim in Similarity::ALL {
        for k in Keys::ALL {
            let all: Vec<usize> = (0..n).collect();
            let pooled = mean(t.rows(sim, k, Variant::Trained));
            assert!((t.rho_over(sim, k, &all) - pooled).abs() < 1e-9);
            let (lo, hi) = t.rho_interval(sim, k);
            assert!(lo < pooled && pooled < hi);
            eprintln!(
                "{sim:?} {k:?}: {pooled:.4} [{lo:.4}, {hi:.4}] random {:.4} tied {:.4}",
                mean(t.rows(sim, k, Variant::Random)),
                mean(t.rows(sim, k, Variant::Tied)),
            );
        }
    }
}
