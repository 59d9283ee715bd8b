//! Unit tests of `crate::experiment::delta_attention::operator` (`src/experiment/delta_attention/operator/mod.rs`).

use std::time::Instant;

use attention_geometry::experiment::delta_attention::operator::accounts::pairs;
use attention_geometry::experiment::delta_attention::operator::{Reading, Role};
use attention_geometry::mixer::stack::Stack;
use attention_geometry::random::seeded;

use attention_geometry::experiment::delta_attention::operator::run::train;
use attention_geometry::mixer::layer::GateInit;
use attention_geometry::mixer::stack::{Config, Engine, Training};
use attention_geometry::mixer::{Mixer, Schedule};
use attention_geometry::recall::Updates;
use attention_geometry::train::Plateau;

#[test]
#[ignore]
fn step_time() {
    let task = Updates {
        vocab: 24,
        pairs: 4,
        updates: 2,
        len: 24,
    };
    for mixer in [Mixer::Softmax, Mixer::Linear, Mixer::DeltaNet, Mixer::Kda] {
        for batch in [32, 64] {
            let config = Config {
                mixer,
                vocab: 24,
                d: 32,
                k: 8,
                v: 8,
                layers: 2,
                conv: 4,
            };
            let schedule = Schedule {
                steps: 1500,
                batch,
                lr: 0.01,
                test: 256,
            };
            let t = Training {
                schedule,
                every: 50,
                plateau: Plateau::BOOK.after(100_000),
                engine: Engine::Fast,
            };
            let start = Instant::now();
            let run = train(config, GateInit::Horizon(24), task, t, 0);
            let s = start.elapsed().as_secs_f64();
            let curve: Vec<String> = run
                .curve
                .iter()
                .step_by(3)
                .map(|(s, a)| format!("{s}:{a:.2}"))
                .collect();
            println!(
                "{} batch {batch}: {:.2} ms/step; {}",
                mixer.name(),
                1000.0 * s / 1500.0,
                curve.join(" ")
            );
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
        println!(
            "{} u{} s{}: acc {:.2} rew {:.2} {:?} sim {:?} op {:?} | untrained sim {:?} op {:?} | latest s{:?} o{:?} e{:.2}",
            a.mixer,
            a.updates,
            a.seed,
            a.accuracy,
            a.accuracy_rewritten,
            a.stop,
            a.trained.similarity,
            a.trained.operator,
            a.untrained.similarity,
            a.untrained.operator,
            a.trained.latest_similarity,
            a.trained.latest_operator,
            a.trained.latest_effect
        );
    }
    for m in measures() {
        println!("{} = {}", m.key, m.value);
    }
    for c in claims::claims() {
        println!(
            "{} {:?}\n  {}\n  {}",
            c.id,
            c.verdict(),
            c.prediction(),
            c.measured()
        );
        for ch in &c.choices {
            println!(
                "  under {}: {}",
                ch.name,
                ch.core
                    .iter()
                    .map(|t| t.measured())
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
    }
}

fn tiny(mixer: Mixer) -> (Stack, Updates) {
    let task = Updates {
        vocab: 24,
        pairs: 4,
        updates: 2,
        len: 24,
    };
    let config = Config {
        mixer,
        vocab: 24,
        d: 8,
        k: 4,
        v: 4,
        layers: 2,
        conv: 4,
    };
    (
        Stack::init(config, GateInit::Horizon(24), &mut seeded(1)),
        task,
    )
}

#[test]
fn the_accounts_agree_without_a_transition_and_differ_with_one() {
    for mixer in [Mixer::Softmax, Mixer::Linear, Mixer::DeltaNet, Mixer::Kda] {
        let (model, task) = tiny(mixer);
        let seqs = task.batch(&mut seeded(2), 3);
        let ps = pairs(&model, task, &seqs, 0);
        // every value write against every query
        assert_eq!(ps.len(), 3 * task.writes() * task.pairs);
        assert_eq!(
            ps.iter().filter(|p| p.role == Role::Stale).count(),
            3 * task.updates
        );
        assert_eq!(
            ps.iter().filter(|p| p.role == Role::Answer).count(),
            3 * task.pairs
        );
        let same = ps.iter().all(|p| p.similarity == p.operator);
        assert_eq!(
            same,
            matches!(mixer, Mixer::Softmax | Mixer::Linear),
            "{mixer:?}"
        );
        // replacing the answer's value lowers the answer, on average over the queries
        assert!(ps.iter().all(|p| p.tv >= 0.0 && p.tv <= 1.0));
        let r = Reading::of(&ps, 2);
        assert_eq!(r.margin(1, 0, 0) == 0.0, same);
    }
}

#[test]
#[ignore]
fn chinese_of_the_cards_and_measures() {
    use attention_geometry::edition::cards::missing;
    use attention_geometry::edition::phrases::{untranslated, zh};
    use attention_geometry::experiment::delta_attention::operator::{claims, measures};
    for c in claims::claims() {
        println!("missing: {:?}", missing(&c));
    }
    let page = std::fs::read_to_string("chapters/07-delta-attention-operator.md").unwrap();
    for m in measures() {
        let quoted = |k: &str| page.contains(&format!("{{{{measure ch07.{k}}}}}"));
        if !quoted(&m.key) && !m.table.as_deref().is_some_and(quoted) {
            println!("unquoted: {}", m.key);
        }
        let words = untranslated(&zh(&m.value));
        if !words.is_empty() {
            println!("{}: {words:?}", m.key);
        }
    }
}
