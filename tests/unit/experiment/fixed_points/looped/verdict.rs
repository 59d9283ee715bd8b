//! Unit tests of `crate::experiment::fixed_points::looped::verdict` (`src/experiment/fixed_points/looped/verdict.rs`).

/// Prints the claims and measures (runs the experiment if its findings are stale).
#[test]
#[ignore]
fn print() {
    for m in attention_geometry::experiment::fixed_points::looped::verdict::measures() {
        println!("{} = {}", m.key, m.value);
    }
    for c in attention_geometry::experiment::fixed_points::looped::verdict::claims() {
        println!(
            "{} [{:?}] {}\n  {}\n  {:?}",
            c.id,
            c.verdict(),
            c.sentence,
            c.measured(),
            c.choices
                .iter()
                .map(|c| (
                    &c.name,
                    c.core.iter().map(|t| t.measured()).collect::<Vec<_>>()
                ))
                .collect::<Vec<_>>()
        );
    }
}
