//! Chapter 5's trained-model section as the prose quotes it: its measures
//! (keys `tr_…`) and its claims (evidence: pretrained).

use super::decoder_verdict::{decoder_measures, with_decoder_stream};
use super::tail::{self, measures as tail_measures};
use super::{BOOK, Iteration, ModelFindings, Series, book};
use crate::claim::{Claim, Evidence, Test};
use crate::experiment::multi_head::repair::{
    self,
    verdict::{with_hydra, with_repair},
};
use crate::measure::{Measure, centre, pm, table_of};
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
    m.extend(tail_measures("tr", f, &tail::minilm(), LAYERS, "layer"));
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
pub fn iteration_rows(tag: &str, who: &str, name: &str, r: &ModelFindings) -> (Rows, Rows) {
    let (mut layer, mut stack) = (Vec::new(), Vec::new());
    fn over(xs: impl Iterator<Item = f64>) -> String {
        centre(&xs.collect::<Vec<_>>(), 2)
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
pub type Rows = Vec<(String, Vec<Measure>)>;

/// The claims of chapter 5's trained-model section (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
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
    vec![stream_claim(), super::super::idempotence::claim(), absorbs]
}

/// The claim that the stream settles, read by the tail-over-middle ratio.
pub fn stream_claim() -> Claim {
    let f = &book().minilm;
    let (t, r) = (&f.trained, &f.random);
    let last = LAYERS - 1;
    let setting = format!(
        "all-MiniLM-L6-v2 (post-LayerNorm) against the same architecture at BERT initialisation (random_init), on the first {} context sentences of models/contexts.txt; per sentence, the mean step of the last blocks over that of the middle blocks, trained − random paired on the sentence, with its 95% interval over sentences",
        BOOK.stream_sentences,
    );
    let windows = tail::minilm();
    let stream = Claim::empirical(
        "trained-stream-settles",
        "the residual stream's updates shrink with depth, as toward a static fixed point",
    )
    .zh("残差流的更新随深度减小，如同趋向一个静态不动点。")
    .evidence(Evidence::Pretrained)
    .default_choice(format!(
        "model: all-MiniLM-L6-v2, {}",
        windows[0].label(LAYERS, "layer")
    ))
    .under_each(windows[1..].iter().map(|w| {
        (
            format!("model: all-MiniLM-L6-v2, {}", w.label(LAYERS, "layer")),
            w.tests(t, r),
        )
    }));
    let stream = windows[0].tests(t, r).into_iter().fold(stream, Claim::core);
    let stream = with_decoder_stream(stream);
    stream
        .scope(Test::near("random baseline: relative update of layer 6 / of layer 1", r.update(last).mean / r.update(0).mean, 1.0, 0.1, 2))
        .setting(format!(
            "{setting}; and SmolLM2-135M-Instruct (pre-RMSNorm decoder, 30 blocks) against the same architecture at Llama's initialisation (N(0, (1/24)²), smollm2::random_init) on the same {} sentences",
            BOOK.stream_sentences
        ))
}
