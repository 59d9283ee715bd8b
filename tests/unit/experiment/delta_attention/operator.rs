//! Unit tests of `crate::experiment::delta_attention::operator` (`src/experiment/delta_attention/operator/mod.rs`).

use std::time::Instant;

use attention_geometry::experiment::delta_attention::operator::run::train;
use attention_geometry::mixer::layer::GateInit;
use attention_geometry::mixer::stack::{Config, Engine, Training};
use attention_geometry::mixer::{Mixer, Schedule};
use attention_geometry::recall::Updates;
use attention_geometry::train::Plateau;

#[test]
#[ignore]
fn step_time() {
    let task = Updates { vocab: 24, pairs: 4, updates: 2, len: 24 };
    for mixer in [Mixer::Softmax, Mixer::Linear, Mixer::DeltaNet, Mixer::Kda] {
        for batch in [32, 64] {
            let config = Config { mixer, vocab: 24, d: 32, k: 8, v: 8, layers: 2, conv: 4 };
            let schedule = Schedule { steps: 1500, batch, lr: 0.01, test: 256 };
            let t = Training { schedule, every: 50, plateau: Plateau::BOOK.after(100_000), engine: Engine::Fast };
            let start = Instant::now();
            let run = train(config, GateInit::Horizon(24), task, t, 0);
            let s = start.elapsed().as_secs_f64();
            let curve: Vec<String> = run.curve.iter().step_by(3).map(|(s, a)| format!("{s}:{a:.2}")).collect();
            println!("{} batch {batch}: {:.2} ms/step; {}", mixer.name(), 1000.0 * s / 1500.0, curve.join(" "));
        }
    }
}

#[test]
#[ignore]
fn book_run() {
    use attention_geometry::experiment::delta_attention::operator::{self, claims, measures};
    let start = Instant::now();
    let f = operator::book();
    println!("run: {:.1} s", start.elapsed().as_secs_f64());
    for a in &f.arms {
        println!("{} u{} s{}: acc {:.2} rew {:.2} {:?} sim {:?} op {:?} | untrained sim {:?} op {:?} | latest s{:?} o{:?} e{:.2}", a.mixer, a.updates, a.seed, a.accuracy, a.accuracy_rewritten, a.stop,
            a.trained.similarity, a.trained.operator, a.untrained.similarity, a.untrained.operator, a.trained.latest_similarity, a.trained.latest_operator, a.trained.latest_effect);
    }
    for m in measures() {
        println!("{} = {}", m.key, m.value);
    }
    for c in claims::claims() {
        println!("{} {:?}\n  {}\n  {}", c.id, c.verdict(), c.prediction(), c.measured());
        for ch in &c.choices {
            println!("  under {}: {}", ch.name, ch.core.iter().map(|t| t.measured()).collect::<Vec<_>>().join("; "));
        }
    }
}
