//! Chapter 5's trained-model section as the prose quotes it: its measures
//! (keys `tr_…`) and its claims (evidence: pretrained).

use super::{Absorbed, BOOK, Iteration, ModelFindings, book};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, pm, table_of};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::stats::Summary;

/// Median over `xs`.
fn median(xs: impl Iterator<Item = f64>) -> f64 {
    crate::stats::median(&xs.collect::<Vec<_>>())
}

impl ModelFindings {
    /// Summary over every token of layer `l → l + 1`'s relative update.
    pub fn update(&self, l: usize) -> Summary {
        Summary::of(&self.update[l])
    }

    /// Summary over every token of layer `l → l + 1`'s cosine.
    pub fn cosine(&self, l: usize) -> Summary {
        Summary::of(&self.cosine[l])
    }

    /// Every iteration of one layer setting, pooled over layers and sentences.
    pub fn layer_runs(&self, paths: usize) -> Vec<&Iteration> {
        self.layer[paths].iter().flatten().collect()
    }

    /// Median over heads and sentences of `total / direct` for symmetrised heads.
    pub fn head_ratio(&self) -> f64 {
        median(self.heads.iter().flatten().map(|a| a.ratio))
    }

    /// Share of heads and sentences with `total < direct`.
    pub fn heads_absorbed(&self) -> f64 {
        let all: Vec<&Absorbed> = self.heads.iter().flatten().collect();
        all.iter().filter(|a| a.ratio < 1.0).count() as f64 / all.len() as f64
    }

    /// Median over layers and sentences of `total / direct` for removed skips.
    pub fn skip_ratio(&self) -> f64 {
        median(self.skips.iter().flatten().map(|a| a.ratio))
    }
}

/// The numbers the trained-model section of chapter 5 quotes (keys `tr_…`).
pub fn measures() -> Vec<Measure> {
    let f = book();
    let tokens = f.trained.update[0].len();
    let mut m = vec![
        Measure::new("tr_stream_sentences", BOOK.stream_sentences.to_string()),
        Measure::new("tr_stream_tokens", tokens.to_string()),
        Measure::new("tr_iterate_sentences", BOOK.iterate_sentences.to_string()),
        Measure::new("tr_steps", BOOK.steps.to_string()),
        Measure::new("tr_loops", BOOK.loops.to_string()),
        Measure::new("tr_absorb_sentences", BOOK.absorb_sentences.to_string()),
        Measure::new("tr_heads", (LAYERS * HEADS).to_string()),
        Measure::new(
            "tr_absorb_heads",
            (BOOK.absorb_sentences * LAYERS * HEADS).to_string(),
        ),
    ];
    let mut stream = vec![Vec::new(); LAYERS];
    let (mut layer, mut stack, mut absorb) = (Vec::new(), Vec::new(), Vec::new());
    for model in Model::BOTH {
        let (r, name) = (f.model(model), model.name());
        for (l, row) in stream.iter_mut().enumerate() {
            row.extend([
                Measure::new(format!("tr_update_{name}_l{}", l + 1), pm(r.update(l), 2)),
                Measure::new(format!("tr_cosine_{name}_l{}", l + 1), pm(r.cosine(l), 2)),
            ]);
        }
        for (p, key) in ["residual", "none"].iter().enumerate() {
            let over = |xs: Vec<f64>| pm(Summary::of(&xs), 2);
            let runs = r.layer_runs(p);
            let last = |g: fn(&Iteration) -> f64| over(runs.iter().map(|i| g(i)).collect());
            let path = ["with", "without"][p];
            layer.push((
                format!("{name}, {path} residual paths"),
                vec![
                    Measure::new(
                        format!("tr_layer_residual_{key}_{name}"),
                        last(|i| *i.residual.last().expect("steps > 0")),
                    ),
                    Measure::new(
                        format!("tr_layer_collapse_{key}_{name}"),
                        last(|i| *i.collapse.last().expect("steps > 0")),
                    ),
                    Measure::new(format!("tr_layer_drift_{key}_{name}"), last(|i| i.drift)),
                ],
            ));
            let looped = |g: fn(&Iteration) -> f64| over(r.stack[p].iter().map(g).collect());
            stack.push((
                format!("{name}, {path} residual paths"),
                vec![
                    Measure::new(
                        format!("tr_stack_residual_{key}_{name}"),
                        looped(|i| *i.residual.last().expect("loops > 0")),
                    ),
                    Measure::new(
                        format!("tr_stack_collapse_{key}_{name}"),
                        looped(|i| *i.collapse.last().expect("loops > 0")),
                    ),
                ],
            ));
        }
        let start: Vec<f64> = r.layer_runs(0).iter().map(|i| i.collapse[0]).collect();
        let dmg = median(r.heads.iter().flatten().map(|a| a.damage));
        absorb.push((
            name.to_string(),
            vec![
                Measure::new(
                    format!("tr_collapse_start_{name}"),
                    pm(Summary::of(&start), 2),
                ),
                Measure::new(format!("tr_head_ratio_{name}"), fixed(r.head_ratio(), 2)),
                Measure::new(
                    format!("tr_heads_absorbed_{name}"),
                    fixed(r.heads_absorbed(), 2),
                ),
                Measure::new(format!("tr_skip_ratio_{name}"), fixed(r.skip_ratio(), 2)),
                Measure::new(format!("tr_head_damage_{name}"), fixed(dmg, 3)),
            ],
        ));
    }
    let stream = stream
        .into_iter()
        .enumerate()
        .map(|(l, c)| (format!("{}", l + 1), c))
        .collect();
    let header = [
        "layer",
        "update, trained",
        "cosine, trained",
        "update, random",
        "cosine, random",
    ];
    m.extend(table_of("tr_stream", &header, stream));
    let header = [
        "one layer iterated",
        "step",
        "distance from rank one",
        "drift",
    ];
    m.extend(table_of("tr_layer", &header, layer));
    let header = ["whole stack looped", "step", "distance from rank one"];
    m.extend(table_of("tr_stack", &header, stack));
    let header = [
        "weights",
        "distance from rank one of the real input",
        "median total/direct, symmetric head",
        "share with total/direct < 1",
        "median total/direct, attention skip removed",
        "median damage at the output",
    ];
    m.extend(table_of("tr_absorb", &header, absorb));
    m
}

/// The claims of chapter 5's trained-model section (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    let f = book();
    let (t, r) = (&f.trained, &f.random);
    let last = LAYERS - 1;
    let final_of = |x: &ModelFindings, p: usize, g: fn(&Iteration) -> f64| {
        Summary::of(&x.layer_runs(p).iter().map(|i| g(i)).collect::<Vec<_>>()).mean
    };
    let res = |i: &Iteration| *i.residual.last().expect("steps > 0");
    let col = |i: &Iteration| *i.collapse.last().expect("steps > 0");
    let setting = format!(
        "all-MiniLM-L6-v2 against the same architecture at BERT initialisation (random_init), on the context sentences of models/contexts.txt: {} sentences for the stream, {} for {} iterations of each layer and {} loops of the stack, {} for absorption (72 heads each)",
        BOOK.stream_sentences,
        BOOK.iterate_sentences,
        BOOK.steps,
        BOOK.loops,
        BOOK.absorb_sentences
    );
    vec![
        Claim::empirical(
            "trained-stream-settles",
            "the network computes by iteration toward a fixed point: the residual stream's updates shrink with depth",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::below("trained: relative update of layer 6 / of layer 1", t.update(last).mean / t.update(0).mean, 1.0, 2))
        .core(Test::above("trained: cos(h₅, h₆) − cos(h₀, h₁)", t.cosine(last).mean - t.cosine(0).mean, 0.0, 2))
        .scope(Test::near("random baseline: relative update of layer 6 / of layer 1", r.update(last).mean / r.update(0).mean, 1.0, 0.1, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "trained-layer-converges",
            "a trained layer iterated on a real hidden state converges, because its residual path keeps the tokens apart",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::below("trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last step", final_of(t, 0, res), 0.01, 2))
        .scope(Test::above("trained, with residual paths: distance from rank one at the end", final_of(t, 0, col), 0.1, 2))
        .scope(Test::below("trained, without residual paths: distance from rank one at the end", final_of(t, 1, col), 0.01, 2))
        .scope(Test::below("random baseline, without residual paths: the same", final_of(r, 1, col), 0.01, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "trained-absorbs",
            "heads, layers and residual paths absorb the mismatch: later layers undo part of a damage (total effect below direct effect)",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::below("trained, symmetrised W_QK: median ‖Δ_tot‖/‖Δ_dir‖ over heads", t.head_ratio(), 1.0, 2))
        .core(Test::below("trained, attention skip removed: median ‖Δ_tot‖/‖Δ_dir‖ over layers", t.skip_ratio(), 1.0, 2))
        .scope(Test::below("trained minus random: median head ratio", t.head_ratio() - r.head_ratio(), 0.0, 2))
        .setting(setting),
    ]
}
