//! Unit tests of `crate::experiment::coordinate_mismatch::trained_verdict` (`src/experiment/coordinate_mismatch/trained_verdict.rs`).

use attention_geometry::claim::Evidence;
use attention_geometry::claim::{Kind, Verdict};
use attention_geometry::experiment::coordinate_mismatch::trained_verdict::*;

#[test]
fn the_theorems_check_and_every_claim_rests_on_the_models() {
    let claims = claims();
    assert_eq!(claims.len(), 5);
    for c in &claims {
        assert!(
            c.id.starts_with(char::is_lowercase) && !c.id.contains('.'),
            "{}",
            c.id
        );
        if c.kind == Kind::Theorem {
            assert_eq!(c.verdict(), Verdict::Checked, "{}", c.id);
        }
    }
    let pretrained = claims.iter().filter(|c| c.evidence == Evidence::Pretrained);
    assert_eq!(pretrained.count(), 4);
}

#[test]
fn measure_keys_are_unique_and_local() {
    let keys: Vec<String> = measures().into_iter().map(|m| m.key).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), keys.len());
    assert!(keys.iter().all(|k| k.starts_with("trained_")));
}

#[test]
#[ignore = "prints the claims and their missing Chinese strings"]
fn print_claims() {
    for mut c in claims() {
        c.chapter = 1;
        eprintln!("{} {:?}", c.id, c.verdict());
        for t in c.core.iter().chain(&c.scope) {
            eprintln!(
                "  core/scope {} = {:.4} ({:?} {})",
                t.quantity, t.value, t.relation, t.bound
            );
        }
        for ch in &c.choices {
            eprintln!("  under {ch:?}");
        }
        eprintln!("  setting {}", c.setting);
        for m in attention_geometry::edition::cards::missing(&c) {
            eprintln!("{m}");
        }
    }
}
