//! Unit tests of `crate::experiment::fixed_points::gradual` (`src/experiment/fixed_points/gradual.rs`).

mod checkpoint;

use attention_geometry::experiment::fixed_points::gradual::*;

#[test]
#[ignore]
fn book_claims() {
    let t = std::time::Instant::now();
    let f = book();
    eprintln!("findings in {:.1}s", t.elapsed().as_secs_f64());
    for a in &f.arms {
        eprintln!(
            "{} {} lr {} ends {:?}",
            a.relation.name(),
            a.arch,
            a.tuning.lr,
            a.runs
                .iter()
                .map(|r| (r.history.end(), (r.history.final_accuracy * 100.0) as i32))
                .collect::<Vec<_>>()
        );
    }
    for m in measures() {
        eprintln!("{} = {}", m.key, m.value);
    }
    for c in claims() {
        eprintln!("{} {:?}\n  {}", c.id, c.verdict(), c.measured());
        for ch in &c.choices {
            let m: Vec<String> = ch.core.iter().map(|t| t.measured()).collect();
            eprintln!("  under {}: {}", ch.name, m.join("; "));
        }
        for t in &c.plateau_tests() {
            eprintln!("  {}", t.measured());
        }
    }
}
