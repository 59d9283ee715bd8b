use attention_geometry::train::*;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let d: usize = args[1].parse().unwrap();
    let vocab: usize = args[2].parse().unwrap();
    let context: usize = args[3].parse().unwrap();
    let steps: usize = args[4].parse().unwrap();
    let noise: f64 = args[5].parse().unwrap();
    let examples: Option<usize> = args[6].parse().ok();
    let batch: usize = args[7].parse().unwrap();
    let layers: usize = args[8].parse().unwrap();
    let rels: Vec<Relation> = if args[9] == "m" {
        vec![Relation::Match]
    } else {
        Relation::ALL.to_vec()
    };
    for rel in rels.clone() {
        for qk in Qk::ALL {
            for lr in [0.01, 0.03] {
                let t = Instant::now();
                let task = Task {
                    relation: rel,
                    vocab,
                    context,
                    d,
                    noise,
                    examples,
                };
                let sch = Schedule {
                    steps,
                    batch,
                    lr,
                    eval_every: 25,
                    test: 128,
                    threshold: 0.9,
                };
                let hs: Vec<History> = (0..4)
                    .map(|s| {
                        train(
                            Config {
                                layers,
                                residual: layers > 1,
                                ..Config::single(d, vocab, qk)
                            },
                            task,
                            sch,
                            s,
                        )
                    })
                    .collect();
                let el = t.elapsed().as_secs_f64();
                println!(
                    "{:10} {:9} lr {:5} stt {:?} acc {:?} {:.2}s ({:.0} steps/s)",
                    rel.name(),
                    qk.name(),
                    lr,
                    hs.iter().map(|h| h.steps_to_threshold).collect::<Vec<_>>(),
                    hs.iter()
                        .map(|h| (h.final_accuracy * 100.0).round())
                        .collect::<Vec<_>>(),
                    el,
                    4.0 * steps as f64 / el
                );
            }
        }
    }
}
