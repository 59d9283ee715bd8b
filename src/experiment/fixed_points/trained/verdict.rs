//! Chapter 5's trained-model section as the prose quotes it: its measures
//! (keys `tr_…`) and its claims (evidence: pretrained).

use super::decoder_verdict::{decoder_measures, with_decoder_iterate, with_decoder_stream};
use super::{BOOK, Iteration, ModelFindings, Series, book};
use crate::claim::{Claim, Evidence, Test};
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
        self.all.summary(Series::Update, l)
    }

    /// Summary over every token of layer `l → l + 1`'s cosine.
    pub fn cosine(&self, l: usize) -> Summary {
        self.all.summary(Series::Cosine, l)
    }

    /// Least-squares slope over layers `0..upto` of the mean relative update
    /// (`Update`) or cosine (`Cosine`), every token.
    pub fn slope(&self, series: Series, upto: usize) -> f64 {
        self.all.slope(series, 0..upto)
    }
}

/// The numbers the trained-model section of chapter 5 quotes (keys `tr_…`).
pub fn measures() -> Vec<Measure> {
    let f = &book().minilm;
    let tokens = f.trained.all.update[0].len();
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
        let (l, k) = iteration_rows("tr", &format!("MiniLM {name}"), name, r);
        layer.extend(l);
        stack.extend(k);
        let start = Summary::over(r.layer_runs(0).iter().map(|i| i.collapse[0]));
        m.push(Measure::new(
            format!("tr_collapse_start_{name}"),
            pm(start, 2),
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
    m.extend(decoder_measures(&mut layer, &mut stack));
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

/// One model's rows of the iteration tables, one per skip setting it has:
/// `(one layer iterated, whole stack looped)`, keys `{tag}_layer_…_{name}`
/// and `{tag}_stack_…_{name}`.
pub(super) fn iteration_rows(tag: &str, who: &str, name: &str, r: &ModelFindings) -> (Rows, Rows) {
    let (mut layer, mut stack) = (Vec::new(), Vec::new());
    fn over(xs: impl Iterator<Item = f64>) -> String {
        pm(Summary::over(xs), 2)
    }
    for (p, key) in ["residual", "none"].iter().enumerate().take(r.layer.len()) {
        let runs = r.layer_runs(p);
        let last = |g: fn(&Iteration) -> f64| over(runs.iter().map(|i| g(i)));
        let path = format!("{who}, {} residual paths", ["with", "without"][p]);
        layer.push((
            path.clone(),
            vec![
                Measure::new(
                    format!("{tag}_layer_residual_{key}_{name}"),
                    last(|i| *i.residual.last().expect("steps > 0")),
                ),
                Measure::new(
                    format!("{tag}_layer_collapse_{key}_{name}"),
                    last(|i| *i.collapse.last().expect("steps > 0")),
                ),
                Measure::new(format!("{tag}_layer_drift_{key}_{name}"), last(|i| i.drift)),
            ],
        ));
        let looped = |g: fn(&Iteration) -> f64| over(r.stack[p].iter().map(g));
        stack.push((
            path,
            vec![
                Measure::new(
                    format!("{tag}_stack_residual_{key}_{name}"),
                    looped(|i| *i.residual.last().expect("loops > 0")),
                ),
                Measure::new(
                    format!("{tag}_stack_collapse_{key}_{name}"),
                    looped(|i| *i.collapse.last().expect("loops > 0")),
                ),
            ],
        ));
    }
    (layer, stack)
}

/// Table rows: a label and its measures.
pub(super) type Rows = Vec<(String, Vec<Measure>)>;

/// The claims of chapter 5's trained-model section (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    let f = &book().minilm;
    let (t, r) = (&f.trained, &f.random);
    let last = LAYERS - 1;
    let final_of = |x: &ModelFindings, p: usize, g: fn(&Iteration) -> f64| {
        Summary::over(x.layer_runs(p).iter().map(|i| g(i))).mean
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
    let stack_res = Summary::over(t.stack[0].iter().map(res)).mean;
    let rep = repair::book(crate::pretrained::transformer::Architecture::Minilm);
    let absorbs = with_repair(
        Claim::empirical(
            "trained-absorbs",
            "later layers undo part of a damage to one head, more than an untrained stack does",
        )
        .zh("后续层能抵消对某一个头的部分损伤，且多于未训练的堆叠。")
        .evidence(Evidence::Pretrained),
        repair::HEAD_SYMMETRISED,
    );
    let absorbs = with_hydra(absorbs).setting(format!(
        "chapter 3's measurement (ch03.trained-later-layers-correct): MiniLM and its random-weight twin, {} corpus sentences each, one head per layer 0–4 per sentence; κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖², r = 1 − κ, the null the random model's",
        rep.setup.sentences
    ));
    let stream = Claim::empirical(
        "trained-stream-settles",
        "the residual stream's updates shrink with depth, as toward a static fixed point",
    )
    .zh("残差流的更新随深度减小，如同趋向一个静态不动点。")
    .evidence(Evidence::Pretrained)
    .default_choice("the whole curve, layers 1–6")
    .core(u)
    .core(c)
    .under("layers 1–5 (the last layer left out)", settles(LAYERS - 1));
    let stream = with_decoder_stream(stream);
    vec![
        stream
        .scope(Test::near("random baseline: relative update of layer 6 / of layer 1", r.update(last).mean / r.update(0).mean, 1.0, 0.1, 2))
        .setting(format!(
            "{setting}; and SmolLM2-135M-Instruct (pre-RMSNorm decoder, 30 blocks) against the same architecture at Llama's initialisation (N(0, (1/24)²), smollm2::random_init) on the same {} sentences",
            BOOK.stream_sentences
        )),
        with_decoder_iterate(Claim::empirical(
            "trained-layer-converges",
            "a trained layer iterated on a real hidden state converges, because its residual path keeps the tokens apart",
        )
        .zh("在真实隐藏状态上迭代训练后的一层会收敛，因为它的残差路径使各单标保持分离。")
        .evidence(Evidence::Pretrained)
        .default_choice("one layer iterated on its own input")
        .core(Test::below("trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last step", final_of(t, 0, res), 0.01, 2))
        .under("the whole stack looped", vec![Test::below("trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last loop", stack_res, 0.01, 2)]))
        .scope(Test::above("trained, with residual paths: distance from rank one at the end", final_of(t, 0, col), 0.1, 2))
        .scope(Test::below("trained, without residual paths: distance from rank one at the end", final_of(t, 1, col), 0.01, 2))
        .scope(Test::below("random baseline, without residual paths: the same", final_of(r, 1, col), 0.01, 2))
        .setting(format!(
            "{setting}; and each block of SmolLM2-135M-Instruct iterated {} times on its input stream, and its whole stack looped {} times, for {} sentences, against the same architecture at Llama's initialisation",
            BOOK.steps, BOOK.loops, BOOK.iterate_sentences
        )),
        absorbs,
    ]
}
