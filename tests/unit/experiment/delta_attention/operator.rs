//! Unit tests of `crate::experiment::delta_attention::operator` (`src/experiment/delta_attention/operator/mod.rs`).

use std::time::Instant;

use attention_geometry::experiment::delta_attention::operator::accounts::pairs;
use attention_geometry::experiment::delta_attention::operator::{Reading, Role};
use attention_geometry::mixer::stack::Stack;
use attention_geometry::random::seeded;

use attention_geometry::experiment::delta_attention::operator;
use attention_geometry::mixer::layer::GateInit;
use attention_geometry::mixer::stack::{Config, Training};
use attention_geometry::mixer::{Mixer, Schedule};
use attention_geometry::recall::Updates;

#[test]
fn a_tiny_run_fills_every_arm_and_reads_it() {
    use attention_geometry::experiment::delta_attention::operator::{Findings, setup};
    let base = setup();
    let tiny = operator::Setup {
        d: 8,
        k: 4,
        seeds: 2,
        looked_at: 2,
        drawn: 1,
        training: Training {
            schedule: Schedule {
                steps: 4,
                batch: 2,
                lr: 0.01,
                test: 4,
            },
            every: 2,
            ..base.training
        },
        ..base
    };
    let f = Findings::run(&tiny);
    assert_eq!(f.arms.len(), 5 * 2);
    for mixer in [Mixer::Softmax, Mixer::Linear, Mixer::DeltaNet, Mixer::Kda] {
        assert_eq!(f.runs(mixer, tiny.task.updates).len(), 2);
    }
    assert_eq!(f.runs(Mixer::Kda, tiny.other.updates).len(), 2);
    let kda = f.runs(Mixer::Kda, tiny.task.updates)[0];
    assert_eq!(
        (kda.decay.len(), kda.decay[0].len(), kda.beta_first.len()),
        (2, 4, 2)
    );
    assert_eq!(kda.drawn.len(), tiny.task.writes() * tiny.task.pairs);
    assert!(f.runs(Mixer::Linear, tiny.task.updates)[0].decay.is_empty());
}

#[test]
#[ignore]
fn book_run() {
    use attention_geometry::experiment::delta_attention::operator::{claims, measures};
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
