//! Unit tests of `crate::experiment::multi_head::trained::verdict` (`src/experiment/multi_head/trained/verdict.rs`).

use attention_geometry::experiment::multi_head::trained::verdict::*;

#[test]
#[ignore = "prints the section's sink measures and claim"]
fn print_sinks() {
    for m in sink_measures() {
        eprintln!("{} = {}", m.key, m.value);
    }
    for mut c in claims() {
        if c.id != "trained-heads-specialise" {
            continue;
        }
        c.chapter = 3;
        eprintln!("{} {:?}\n{:#?}", c.id, c.verdict(), c.choices);
        eprintln!("{}", c.setting);
        for m in attention_geometry::edition::cards::missing(&c) {
            eprintln!("{m}");
        }
    }
}
