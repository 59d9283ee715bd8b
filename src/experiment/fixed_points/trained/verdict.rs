//! Chapter 5's trained-model section as the prose quotes it: its measures
//! (keys `tr_…`) and its claims (evidence: pretrained).

use super::{BOOK, Iteration, ModelFindings, book};
use crate::claim::{Claim, Evidence, Test};
use crate::experiment::fixed_points::decoder_iterate;
use crate::experiment::fixed_points::decoder_stream::{self, Series as DSeries, Stream};
use crate::experiment::multi_head::repair::{
    self,
    verdict::{with_hydra, with_repair},
};
use crate::measure::{Measure, fixed, pm, table_of};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::LAYERS;
use crate::stats::Summary;

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

    /// Least-squares slope over layers `0..upto` of the mean relative update
    /// (`Update`) or cosine (`Cosine`).
    pub fn slope(&self, series: Series, upto: usize) -> f64 {
        let ys: Vec<f64> = (0..upto)
            .map(|l| match series {
                Series::Update => self.update(l).mean,
                Series::Cosine => self.cosine(l).mean,
            })
            .collect();
        crate::stats::slope(&ys)
    }
}

/// Which per-layer curve of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Series {
    Update,
    Cosine,
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
    ];
    for model in Model::BOTH {
        let r = f.model(model);
        for (key, series) in [("update", Series::Update), ("cosine", Series::Cosine)] {
            for (upto, tail) in [(LAYERS, ""), (LAYERS - 1, "_first5")] {
                m.push(Measure::new(
                    format!("tr_slope_{key}_{}{tail}", model.name()),
                    fixed(r.slope(series, upto), 3),
                ));
            }
        }
    }
    let mut stream = vec![Vec::new(); LAYERS];
    let (mut layer, mut stack) = (Vec::new(), Vec::new());
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
        m.push(Measure::new(
            format!("tr_collapse_start_{name}"),
            pm(Summary::of(&start), 2),
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
    m.extend(decoder_measures());
    let header = [
        "one layer iterated",
        "step",
        "distance from rank one",
        "drift",
    ];
    m.extend(table_of("tr_layer", &header, layer));
    let header = ["whole stack looped", "step", "distance from rank one"];
    m.extend(table_of("tr_stack", &header, stack));
    m
}

/// The decoder's stream (keys `tr_dec_…`), every token but the first: the
/// relative update of the second and last blocks, the trained model's range
/// over blocks 4–29, and the slopes over blocks 2–30 (the claim card shows
/// the other settings).
fn decoder_measures() -> Vec<Measure> {
    let d = decoder_stream::book();
    let mut m = vec![Measure::new(
        "tr_dec_sentences",
        decoder_stream::BOOK.sentences.to_string(),
    )];
    // the prose quotes the last choice: blocks 2–30, every token but the first
    let quoted = &DECODER_CHOICES[2];
    for model in Model::BOTH {
        let (f, name) = (d.model(model), model.name());
        let s = quoted.stream(f);
        let blocks = s.update.len();
        m.push(Measure::new(
            format!("tr_dec_update_{name}_l2"),
            fixed(s.mean(DSeries::Update, 1), 2),
        ));
        m.push(Measure::new(
            format!("tr_dec_update_{name}_last"),
            fixed(s.mean(DSeries::Update, blocks - 1), 2),
        ));
        for (key, series) in [("update", DSeries::Update), ("cosine", DSeries::Cosine)] {
            m.push(Measure::new(
                format!("tr_dec_slope_{key}_{name}{}", quoted.key),
                fixed(s.slope(series, quoted.from), 4),
            ));
        }
    }
    let t = quoted.stream(&d.trained);
    let mid: Vec<f64> = (3..t.update.len() - 1)
        .map(|l| t.mean(DSeries::Update, l))
        .collect();
    let (lo, hi) = mid
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    m.push(Measure::new(
        "tr_dec_update_trained_mid",
        format!("{}–{}", fixed(lo, 2), fixed(hi, 2)),
    ));
    m
}

/// A setting of the decoder that the stream claim varies.
struct DecoderChoice {
    /// Measure key suffix.
    key: &'static str,
    /// Every token but the first.
    later: bool,
    /// The first block counted.
    from: usize,
    label: &'static str,
}

impl DecoderChoice {
    fn stream<'a>(&self, f: &'a decoder_stream::ModelFindings) -> &'a Stream {
        match self.later {
            true => &f.later,
            false => &f.all,
        }
    }
}

const DECODER_CHOICES: [DecoderChoice; 3] = [
    DecoderChoice {
        key: "",
        later: false,
        from: 0,
        label: "model: SmolLM2-135M-Instruct, a pre-RMSNorm decoder, blocks 1–30",
    },
    DecoderChoice {
        key: "_from2",
        later: false,
        from: 1,
        label: "model: SmolLM2-135M-Instruct, blocks 2–30 (its first write onto the small embedding left out)",
    },
    DecoderChoice {
        key: "_from2_later",
        later: true,
        from: 1,
        label: "model: SmolLM2-135M-Instruct, blocks 2–30, every token but the first (where the attention sink sits)",
    },
];

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
        "all-MiniLM-L6-v2 (post-LayerNorm) against the same architecture at BERT initialisation (random_init), on the context sentences of models/contexts.txt: {} sentences for the stream, {} for {} iterations of each layer and {} loops of the stack",
        BOOK.stream_sentences, BOOK.iterate_sentences, BOOK.steps, BOOK.loops,
    );
    let settles = |upto: usize| {
        vec![
            Test::below(
                "slope over layers of the mean relative update, trained − random",
                t.slope(Series::Update, upto) - r.slope(Series::Update, upto),
                0.0,
                3,
            ),
            Test::above(
                "slope over layers of the mean cosine of consecutive states, trained − random",
                t.slope(Series::Cosine, upto) - r.slope(Series::Cosine, upto),
                0.0,
                3,
            ),
        ]
    };
    let [u, c] = <[Test; 2]>::try_from(settles(LAYERS)).unwrap_or_else(|_| unreachable!());
    let stack_res = Summary::of(&t.stack[0].iter().map(res).collect::<Vec<_>>()).mean;
    let rep = repair::book(crate::pretrained::transformer::Architecture::Minilm);
    let absorbs = with_repair(
        Claim::empirical(
            "trained-absorbs",
            "heads, layers and residual paths absorb the mismatch: later layers undo part of a damage, more than an untrained stack does",
        )
        .evidence(Evidence::Pretrained),
        repair::HEAD_SYMMETRISED,
    );
    let absorbs = with_hydra(absorbs).setting(format!(
        "chapter 3's measurement (ch03.trained-later-layers-correct): MiniLM and its random-weight twin, {} corpus sentences each, one head per layer 0–4 per sentence; κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖², r = 1 − κ, the null the random model's",
        rep.setup.sentences
    ));
    let stream = Claim::empirical(
            "trained-stream-settles",
            "the network computes by iteration toward a fixed point: the residual stream's updates shrink with depth",
        )
        .evidence(Evidence::Pretrained)
        .default_choice("the whole curve, layers 1–6")
        .core(u)
        .core(c)
        .under("layers 1–5 (the last layer left out)", settles(LAYERS - 1));
    let stream = DECODER_CHOICES.iter().fold(stream, |claim, c| {
        let d = decoder_stream::book();
        let (t, r) = (c.stream(&d.trained), c.stream(&d.random));
        claim.under(
            c.label,
            vec![
                Test::below(
                    "slope over blocks of the mean relative update, trained − random",
                    t.slope(DSeries::Update, c.from) - r.slope(DSeries::Update, c.from),
                    0.0,
                    3,
                ),
                Test::above(
                    "slope over blocks of the mean cosine of consecutive states, trained − random",
                    t.slope(DSeries::Cosine, c.from) - r.slope(DSeries::Cosine, c.from),
                    0.0,
                    3,
                ),
            ],
        )
    });
    vec![
        stream
        .scope(Test::near("random baseline: relative update of layer 6 / of layer 1", r.update(last).mean / r.update(0).mean, 1.0, 0.1, 2))
        .setting(format!(
            "{setting}; and SmolLM2-135M-Instruct (pre-RMSNorm decoder, 30 blocks) against the same architecture at Llama's initialisation (N(0, (1/24)²), smollm2::random_init) on the same {} sentences",
            decoder_stream::BOOK.sentences
        )),
        decoder_iterate::with_decoder(Claim::empirical(
            "trained-layer-converges",
            "a trained layer iterated on a real hidden state converges, because its residual path keeps the tokens apart",
        )
        .evidence(Evidence::Pretrained)
        .default_choice("one layer iterated on its own input")
        .core(Test::below("trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last step", final_of(t, 0, res), 0.01, 2))
        .under("the whole stack looped", vec![Test::below("trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last loop", stack_res, 0.01, 2)]))
        .scope(Test::above("trained, with residual paths: distance from rank one at the end", final_of(t, 0, col), 0.1, 2))
        .scope(Test::below("trained, without residual paths: distance from rank one at the end", final_of(t, 1, col), 0.01, 2))
        .scope(Test::below("random baseline, without residual paths: the same", final_of(r, 1, col), 0.01, 2))
        .setting(format!(
            "{setting}; and each block of SmolLM2-135M-Instruct iterated {} times on its input stream for {} sentences, against the same architecture at Llama's initialisation",
            decoder_iterate::BOOK.steps, decoder_iterate::BOOK.sentences
        )),
        absorbs,
    ]
}
