//! Unit tests of `crate::experiment::fixed_points::idempotence::verdict` (`src/experiment/fixed_points/idempotence/verdict.rs`).

#[test]
#[ignore]
fn print_the_claims_and_measures() {
    let t0 = std::time::Instant::now();
    let _ = attention_geometry::experiment::fixed_points::trained::book();
    eprintln!("trained::book {:?}", t0.elapsed());
    let t0 = std::time::Instant::now();
    let _ = attention_geometry::experiment::fixed_points::idempotence::book();
    eprintln!("idempotence::book {:?}", t0.elapsed());
    for c in [
        attention_geometry::experiment::fixed_points::trained::stream_claim(),
        attention_geometry::experiment::fixed_points::idempotence::verdict::claim(),
    ] {
        {
            println!("== {} {:?}", c.id, c.verdict());
            for t in &c.core {
                println!("  core {} = {:.4} pass {}", t.quantity, t.value, t.passes());
            }
            for ch in &c.choices {
                println!(" under {}", ch.name);
                for t in &ch.core {
                    println!("    {} = {:.4} pass {}", t.quantity, t.value, t.passes());
                }
            }
            for t in &c.scope {
                println!(
                    "  scope {} = {:.4} pass {}",
                    t.quantity,
                    t.value,
                    t.passes()
                );
            }
        }
    }
    let mut ms = attention_geometry::experiment::fixed_points::trained::measures();
    ms.extend(attention_geometry::experiment::fixed_points::idempotence::verdict::measures());
    for m in ms {
        if m.key.starts_with("tr_tail")
            || m.key.starts_with("tr_dec_tail")
            || m.key.starts_with("id_")
        {
            println!("{} = {}", m.key, m.value);
        }
    }
}
