//! Unit tests of `crate::experiment::relations::flexible::verdict` (`src/experiment/relations/flexible/verdict.rs`).

use attention_geometry::experiment::relations::flexible::verdict::*;
use attention_geometry::experiment::relations::flexible::{BOOK, SHARP, book, sharp};

/// Prints the section's claims and numbers (runs the experiment if uncached).
#[test]
fn flexible_claims_print() {
    let t = std::time::Instant::now();
    let (f, g) = (book(), sharp());
    eprintln!("findings in {:.1} s", t.elapsed().as_secs_f64());
    assert_eq!(f.setup, BOOK);
    assert_eq!(g.setup, SHARP);
    for m in measures() {
        eprintln!("{} = {}", m.key, m.value);
    }
    for c in claims() {
        eprintln!(
            "{} {:?}\n  core: {}\n  measured: {}",
            c.id,
            c.verdict(),
            c.prediction(),
            c.measured()
        );
        for ch in &c.choices {
            eprintln!(
                "  under {}: {:?}",
                ch.name,
                ch.core
                    .iter()
                    .map(|t| (t.value, t.passes()))
                    .collect::<Vec<_>>()
            );
        }
        for t in c.plateau_tests().iter().chain(&c.scope) {
            eprintln!("  {} = {} {}", t.quantity, t.value, t.passes());
        }
    }
}
