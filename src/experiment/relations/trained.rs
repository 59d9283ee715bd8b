//! Chapter 4 on the trained encoder (all-MiniLM-L6-v2) and its random-weight
//! twin: rollout against raw attention against a leave-one-out effect, the
//! composition of measured one-layer relations along depth, and the prompt as
//! boundary condition — one word in two contexts (`models/contexts.txt`).

use std::sync::OnceLock;

use nalgebra::DMatrix;

use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, pm};
use crate::pretrained::intervention::{layer_parts, run_parts};
use crate::pretrained::minilm::forward::{embed, layer_forward, run_from};
use crate::pretrained::minilm::{HEADS, LAYERS, Minilm, Weights};
use crate::relation::{compose, rollout, total_variation};
use crate::stats::{Summary, mean, spearman};

/// Which weights a measurement runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// The vendored checkpoint.
    Trained,
    /// The same architecture at BERT's initialisation (see `pretrained::random_init`).
    Random,
}

impl Model {
    /// Both, trained first.
    pub const BOTH: [Model; 2] = [Model::Trained, Model::Random];

    /// The model's weights, loaded or drawn once per process.
    pub fn weights(self) -> &'static Weights {
        match self {
            Model::Trained => &Minilm::shared().weights,
            Model::Random => &crate::pretrained::random_init::baseline().weights,
        }
    }

    /// Name used in figures and measure keys.
    pub fn name(self) -> &'static str {
        match self {
            Model::Trained => "trained",
            Model::Random => "random",
        }
    }
}

/// How many sentences each experiment uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Context pairs of `models/contexts.txt` used for the boundary condition.
    pub pairs: usize,
    /// Sentences (the first of the pairs' sentences, A then B) behind the
    /// leave-one-out effects and the composition test.
    pub effect_sentences: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    pairs: 20,
    effect_sentences: 4,
};

/// One word in two contexts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub word: String,
    pub a: String,
    pub b: String,
}

/// The shipped pairs, `word<TAB>sentence A<TAB>sentence B`, `#` starts a comment.
pub const CONTEXTS: &str = include_str!("../../../models/contexts.txt");

/// The pairs of [`CONTEXTS`].
///
/// # Panics
/// If a line does not have three tab-separated fields.
pub fn pairs() -> Vec<Pair> {
    CONTEXTS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "contexts.txt: '{l}' needs word, A, B");
            Pair {
                word: f[0].into(),
                a: f[1].into(),
                b: f[2].into(),
            }
        })
        .collect()
}

/// A tokenised sentence and the position of its pair's word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sentence {
    pub ids: Vec<u32>,
    pub tokens: Vec<String>,
    pub word: usize,
}

/// Tokenise `text` and find `word`, which must be one token occurring once.
///
/// # Panics
/// If `word` is not exactly one token of `text`.
pub fn sentence(text: &str, word: &str) -> Sentence {
    let e = Minilm::shared().tokenizer.encode(text);
    let at: Vec<usize> = (0..e.len()).filter(|&i| e.tokens[i] == word).collect();
    assert_eq!(at.len(), 1, "'{word}' must be one token once in '{text}'");
    Sentence {
        ids: e.ids,
        tokens: e.tokens,
        word: at[0],
    }
}

/// Every pair's two sentences, `(A, B)`.
pub fn sentences() -> Vec<(Sentence, Sentence)> {
    pairs()
        .iter()
        .map(|p| (sentence(&p.a, &p.word), sentence(&p.b, &p.word)))
        .collect()
}

/// A clean run: states `h_0 … h_6` and each layer's head-mean attention.
#[derive(Clone, Debug)]
pub struct Clean {
    /// `h_l (n, 384)`, `l = 0 … 6`; `h_0` is the embeddings' output.
    pub states: Vec<DMatrix<f64>>,
    /// Layer `l`'s attention, every head: `heads[l][h] (n, n)`.
    pub heads: Vec<Vec<DMatrix<f64>>>,
}

impl Clean {
    /// Run `w` on `ids`.
    pub fn run(w: &Weights, ids: &[u32]) -> Clean {
        let t = run_from(w, 0, embed(w, ids), &[]);
        let mut states: Vec<DMatrix<f64>> = t.layers.iter().map(|l| l.input.clone()).collect();
        states.push(t.output);
        let heads = t
            .layers
            .into_iter()
            .map(|l| l.heads.into_iter().map(|h| h.weights).collect())
            .collect();
        Clean { states, heads }
    }

    /// Layer `l`'s attention averaged over heads, `(n, n)`.
    pub fn mean_attention(&self, l: usize) -> DMatrix<f64> {
        let sum = self.heads[l]
            .iter()
            .skip(1)
            .fold(self.heads[l][0].clone(), |s, a| s + a);
        sum / HEADS as f64
    }
}

/// `x` with row `j` replaced by the mean row (mean ablation of token `j`).
pub fn mean_ablate(x: &DMatrix<f64>, j: usize) -> DMatrix<f64> {
    let mut y = x.clone();
    y.set_row(j, &x.row_mean());
    y
}

/// `e` with each row divided by its sum: an arrow of FinStoch for `e ≥ 0`.
pub fn row_normalise(e: &DMatrix<f64>) -> DMatrix<f64> {
    let mut p = e.clone();
    for mut r in p.row_iter_mut() {
        let s = r.sum();
        r /= s;
    }
    p
}

/// `n` copies of `x` stacked, copy `j` with token `j` mean-ablated: `(n·n, 384)`.
pub fn ablations(x: &DMatrix<f64>) -> DMatrix<f64> {
    let n = x.nrows();
    let mut stack = DMatrix::zeros(n * n, x.ncols());
    for j in 0..n {
        stack.rows_mut(j * n, n).copy_from(&mean_ablate(x, j));
    }
    stack
}

/// Column `j` of the effect: `‖clean_i − copy j of stacked_i‖` for every row `i`.
fn effect(clean: &DMatrix<f64>, stacked: &DMatrix<f64>) -> DMatrix<f64> {
    let n = clean.nrows();
    DMatrix::from_fn(n, n, |i, j| (clean.row(i) - stacked.row(j * n + i)).norm())
}

/// Leave-one-out effects of the input tokens: `effect[m − 1][(i, j)] =
/// ‖h_m(i) − h_m(i | h_0(j) ← mean)‖`, `m = 1 … 6`, diagonal included; the `n`
/// ablations run as one stack.
pub fn input_effects(w: &Weights, clean: &Clean) -> Vec<DMatrix<f64>> {
    let n = clean.states[0].nrows();
    let parts = run_parts(w, 0, ablations(&clean.states[0]), n, &vec![vec![]; n]);
    parts
        .iter()
        .enumerate()
        .map(|(m, p)| effect(&clean.states[m + 1], &p.output))
        .collect()
}

/// One-layer effects: `step[l][(i, j)] = ‖h_{l+1}(i) − layer_l(h_l, j ← mean)(i)‖`.
pub fn layer_effects(w: &Weights, clean: &Clean) -> Vec<DMatrix<f64>> {
    (0..LAYERS)
        .map(|l| {
            let n = clean.states[l].nrows();
            let p = layer_parts(
                &w.layers[l],
                &ablations(&clean.states[l]),
                n,
                &vec![vec![]; n],
            );
            effect(&clean.states[l + 1], &p.output)
        })
        .collect()
}

/// Mean over query rows `i` (words, not `[CLS]`/`[SEP]`) of Spearman ρ
/// between row `i` of `a` and of `b` over keys `j ≠ i` (`sinks`: with the
/// specials among the keys).
pub fn row_agreement(a: &DMatrix<f64>, b: &DMatrix<f64>, sinks: bool) -> f64 {
    let n = a.nrows();
    let word = |j: usize| j != 0 && j != n - 1;
    let rhos: Vec<f64> = (0..n)
        .filter(|&i| word(i))
        .map(|i| {
            let keys: Vec<usize> = (0..n).filter(|&j| j != i && (sinks || word(j))).collect();
            let pick = |m: &DMatrix<f64>| keys.iter().map(|&j| m[(i, j)]).collect::<Vec<_>>();
            spearman(&pick(a), &pick(b))
        })
        .collect();
    mean(&rhos)
}

/// What one sentence measures; vectors run over depth `m = 1 … 6`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribution {
    /// ρ(layer m's raw head-mean attention, effect on h_m), keys with sinks.
    pub rho_raw: Vec<f64>,
    /// ρ(rollout through layer m, effect on h_m), keys with sinks.
    pub rho_rollout: Vec<f64>,
    /// The same two without `[CLS]`/`[SEP]` among the keys.
    pub rho_raw_words: Vec<f64>,
    pub rho_rollout_words: Vec<f64>,
    /// TV between the measured arrow `P^{0→m}` and the composite of measured one-layer arrows.
    pub tv_composite: Vec<f64>,
    /// TV between `P^{0→m}` and the rollout through layer m.
    pub tv_rollout: Vec<f64>,
    /// TV between `P^{0→m}` and the uniform arrow.
    pub tv_uniform: Vec<f64>,
    /// Per layer: mean over heads of TV(A_l on its own input, A_l on `h_0`).
    pub path_tv: Vec<f64>,
    /// Largest `|row sum − 1|` or negative entry over every head and rollout.
    pub stochastic_gap: f64,
}

/// Measure one sentence.
pub fn attribution(w: &Weights, ids: &[u32]) -> Attribution {
    let clean = Clean::run(w, ids);
    let n = ids.len();
    let effects = input_effects(w, &clean);
    let steps: Vec<DMatrix<f64>> = layer_effects(w, &clean).iter().map(row_normalise).collect();
    let raw: Vec<DMatrix<f64>> = (0..LAYERS).map(|l| clean.mean_attention(l)).collect();
    let uniform = DMatrix::from_element(n, n, 1.0 / n as f64);
    let mut a = Attribution {
        rho_raw: vec![],
        rho_rollout: vec![],
        rho_raw_words: vec![],
        rho_rollout_words: vec![],
        tv_composite: vec![],
        tv_rollout: vec![],
        tv_uniform: vec![],
        path_tv: vec![],
        stochastic_gap: 0.0,
    };
    let mut composite = DMatrix::identity(n, n);
    for m in 1..=LAYERS {
        let (e, r) = (&effects[m - 1], rollout(&raw[..m]));
        a.rho_raw.push(row_agreement(&raw[m - 1], e, true));
        a.rho_rollout.push(row_agreement(&r, e, true));
        a.rho_raw_words.push(row_agreement(&raw[m - 1], e, false));
        a.rho_rollout_words.push(row_agreement(&r, e, false));
        // C_m = Q_m ∘ C_{m−1}: rows at depth m, columns input tokens
        composite = compose(&steps[m - 1], &composite);
        let p = row_normalise(e);
        a.tv_composite.push(total_variation(&p, &composite));
        a.tv_rollout.push(total_variation(&p, &r));
        a.tv_uniform.push(total_variation(&p, &uniform));
        a.stochastic_gap = a.stochastic_gap.max(gap(&r));
    }
    for l in 0..LAYERS {
        let (_, on_prompt) = layer_forward(&w.layers[l], l, &clean.states[0], &[]);
        let tvs: Vec<f64> = (0..HEADS)
            .map(|h| total_variation(&clean.heads[l][h], &on_prompt.heads[h].weights))
            .collect();
        a.path_tv.push(mean(&tvs));
        for h in &clean.heads[l] {
            a.stochastic_gap = a.stochastic_gap.max(gap(h));
        }
    }
    a
}

/// Largest deviation of `m` from a stochastic matrix.
fn gap(m: &DMatrix<f64>) -> f64 {
    let rows = m
        .row_iter()
        .map(|r| (r.sum() - 1.0).abs())
        .fold(0.0, f64::max);
    rows.max(-m.min())
}

/// The role of token `j` as the strongest partner of token `i`.
pub fn partner(tokens: &[String], i: usize, j: usize) -> String {
    let t = tokens[j].as_str();
    match () {
        _ if t == "[CLS]" || t == "[SEP]" => t.into(),
        _ if j == i => "self".into(),
        _ if j + 1 == i => "previous".into(),
        _ if j == i + 1 => "next".into(),
        _ if t.chars().all(|c| c.is_ascii_punctuation()) => "punctuation".into(),
        _ => t.into(),
    }
}

/// The pair's word as one sentence shows it: its state at every depth and its
/// strongest partner in every head.
#[derive(Clone, Debug, PartialEq)]
pub struct WordView {
    /// `h_l(word)`, `l = 0 … 6`.
    pub states: Vec<Vec<f64>>,
    /// `partners[l][h]`: the role of `argmax_j A^{l,h}[word, j]`.
    pub partners: Vec<Vec<String>>,
}

/// Run `w` on one sentence and read off its word.
pub fn word_view(w: &Weights, s: &Sentence) -> WordView {
    let clean = Clean::run(w, &s.ids);
    let states = clean
        .states
        .iter()
        .map(|h| h.row(s.word).iter().cloned().collect())
        .collect();
    let partners = clean
        .heads
        .iter()
        .map(|layer| {
            layer
                .iter()
                .map(|a| {
                    let r = a.row(s.word);
                    let j = (0..r.len())
                        .max_by(|&x, &y| r[x].total_cmp(&r[y]))
                        .expect("n > 0");
                    partner(&s.tokens, s.word, j)
                })
                .collect()
        })
        .collect();
    WordView { states, partners }
}

/// `1 − cos(a, b)`.
pub fn cosine_distance(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    1.0 - dot / (norm(a) * norm(b))
}

/// How two views of a word differ: per depth `1 − cos`, per layer the share of heads whose partner changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// `l = 0 … 6`.
    pub state: Vec<f64>,
    /// Layers `0 … 5`.
    pub partner: Vec<f64>,
}

/// Compare two word views.
pub fn change(x: &WordView, y: &WordView) -> Change {
    Change {
        state: x
            .states
            .iter()
            .zip(&y.states)
            .map(|(a, b)| cosine_distance(a, b))
            .collect(),
        partner: x
            .partners
            .iter()
            .zip(&y.partners)
            .map(|(p, q)| p.iter().zip(q).filter(|(a, b)| a != b).count() as f64 / HEADS as f64)
            .collect(),
    }
}

/// One model's findings.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelFindings {
    pub attribution: Vec<Attribution>,
    /// Pair `p`: the word in A against the word in B (only the context changed).
    pub context: Vec<Change>,
    /// Pair `p`: the word in A against pair `p + 1`'s word in its A (unrelated sentences).
    pub unrelated: Vec<Change>,
}

impl ModelFindings {
    /// Run one model.
    pub fn run(model: Model, setup: Setup) -> ModelFindings {
        let w = model.weights();
        let s = &sentences()[..setup.pairs];
        let views: Vec<(WordView, WordView)> = s
            .iter()
            .map(|(a, b)| (word_view(w, a), word_view(w, b)))
            .collect();
        let texts = s.iter().map(|p| &p.0).chain(s.iter().map(|p| &p.1));
        let attribution = crate::experiment::par_map(setup.effect_sentences as u64, |i| {
            attribution(
                w,
                &texts.clone().nth(i as usize).expect("enough sentences").ids,
            )
        });
        let p = views.len();
        ModelFindings {
            attribution,
            context: views.iter().map(|(a, b)| change(a, b)).collect(),
            unrelated: (0..p)
                .map(|i| change(&views[i].0, &views[(i + 1) % p].0))
                .collect(),
        }
    }

    /// Summary over sentences of one per-sentence number.
    pub fn over_sentences(&self, f: impl Fn(&Attribution) -> f64) -> Summary {
        Summary::of(&self.attribution.iter().map(f).collect::<Vec<_>>())
    }

    /// Summary over pairs of one number of a change.
    pub fn over_pairs(changes: &[Change], f: impl Fn(&Change) -> f64) -> Summary {
        Summary::of(&changes.iter().map(f).collect::<Vec<_>>())
    }
}

/// Chapter 4's trained-model findings, trained and random.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub trained: ModelFindings,
    pub random: ModelFindings,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            trained: ModelFindings::run(Model::Trained, setup),
            random: ModelFindings::run(Model::Random, setup),
        }
    }

    pub fn model(&self, m: Model) -> &ModelFindings {
        match m {
            Model::Trained => &self.trained,
            Model::Random => &self.random,
        }
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(BOOK))
}

/// Mean over sentences of layers 2 … 6's path TV (layer 1 runs on the prompt itself).
fn path_tv(a: &Attribution) -> f64 {
    mean(&a.path_tv[1..])
}

/// Mean over layers and heads of a change's partner shares.
fn partner_share(c: &Change) -> f64 {
    mean(&c.partner)
}

/// The numbers the trained-model section of chapter 4 quotes (keys `tr_…`).
pub fn measures() -> Vec<Measure> {
    let f = book();
    // the effect sentences are the first pairs' A sentences; rows: their words
    let rows: usize = sentences()[..BOOK.effect_sentences]
        .iter()
        .map(|p| p.0.ids.len() - 2)
        .sum();
    let mut m = vec![
        Measure::new("tr_pairs", BOOK.pairs.to_string()),
        Measure::new("tr_effect_sentences", BOOK.effect_sentences.to_string()),
        Measure::new("tr_effect_rows", rows.to_string()),
        Measure::new("tr_heads", (LAYERS * HEADS).to_string()),
    ];
    for model in Model::BOTH {
        let (r, name) = (f.model(model), model.name());
        let ctx = |g: &dyn Fn(&Change) -> f64| ModelFindings::over_pairs(&r.context, g);
        let unr = |g: &dyn Fn(&Change) -> f64| ModelFindings::over_pairs(&r.unrelated, g);
        for l in 0..LAYERS {
            let k = l + 1;
            let s = |g: fn(&Attribution) -> &Vec<f64>| pm(r.over_sentences(|a| g(a)[l]), 2);
            m.push(Measure::new(
                format!("tr_rho_raw_{name}_l{k}"),
                s(|a| &a.rho_raw),
            ));
            m.push(Measure::new(
                format!("tr_rho_rollout_{name}_l{k}"),
                s(|a| &a.rho_rollout),
            ));
            m.push(Measure::new(
                format!("tr_rho_raw_words_{name}_l{k}"),
                s(|a| &a.rho_raw_words),
            ));
            m.push(Measure::new(
                format!("tr_rho_rollout_words_{name}_l{k}"),
                s(|a| &a.rho_rollout_words),
            ));
            m.push(Measure::new(
                format!("tr_tv_composite_{name}_l{k}"),
                s(|a| &a.tv_composite),
            ));
            m.push(Measure::new(
                format!("tr_tv_rollout_{name}_l{k}"),
                s(|a| &a.tv_rollout),
            ));
            m.push(Measure::new(
                format!("tr_tv_uniform_{name}_l{k}"),
                s(|a| &a.tv_uniform),
            ));
            m.push(Measure::new(
                format!("tr_partner_context_{name}_l{k}"),
                pm(ctx(&|c| c.partner[l]), 2),
            ));
            m.push(Measure::new(
                format!("tr_partner_unrelated_{name}_l{k}"),
                pm(unr(&|c| c.partner[l]), 2),
            ));
        }
        for l in 0..=LAYERS {
            m.push(Measure::new(
                format!("tr_state_context_{name}_l{l}"),
                pm(ctx(&|c| c.state[l]), 2),
            ));
            m.push(Measure::new(
                format!("tr_state_unrelated_{name}_l{l}"),
                pm(unr(&|c| c.state[l]), 2),
            ));
        }
        m.push(Measure::new(
            format!("tr_partner_context_{name}"),
            pm(ctx(&partner_share), 2),
        ));
        m.push(Measure::new(
            format!("tr_partner_unrelated_{name}"),
            pm(unr(&partner_share), 2),
        ));
        m.push(Measure::new(
            format!("tr_path_tv_{name}"),
            pm(r.over_sentences(path_tv), 2),
        ));
        let gap = r
            .attribution
            .iter()
            .map(|a| a.stochastic_gap)
            .fold(0.0, f64::max);
        m.push(Measure::new(format!("tr_gap_{name}"), format!("{gap:.1e}")));
    }
    m
}

/// The claims of chapter 4's trained-model section (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    let f = book();
    let (t, r) = (&f.trained, &f.random);
    let last = LAYERS - 1;
    let at = |x: &ModelFindings, g: fn(&Attribution) -> &Vec<f64>, l: usize| {
        x.over_sentences(|a| g(a)[l]).mean
    };
    let ctx =
        |x: &ModelFindings, l: usize| ModelFindings::over_pairs(&x.context, |c| c.state[l]).mean;
    let unr =
        |x: &ModelFindings, l: usize| ModelFindings::over_pairs(&x.unrelated, |c| c.state[l]).mean;
    let setting = format!(
        "all-MiniLM-L6-v2 against the same architecture at BERT initialisation (random_init); effects: mean ablation of each input token, {} sentences; contexts: {} words in two sentences each (models/contexts.txt), unrelated baseline: the next pair's word in its own sentence",
        BOOK.effect_sentences, BOOK.pairs
    );
    vec![
        Claim::empirical(
            "trained-rollout",
            "the relation that matters is the composite of the layers' relations (rollout), not one layer's attention",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::above("trained, layer 6: ρ(rollout, effect) − ρ(raw, effect)", at(t, |a| &a.rho_rollout, last) - at(t, |a| &a.rho_raw, last), 0.0, 2))
        .scope(Test::above("random baseline, layer 6: ρ(rollout) − ρ(raw)", at(r, |a| &a.rho_rollout, last) - at(r, |a| &a.rho_raw, last), 0.0, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "trained-composition",
            "relations compose along layers: the measured arrow from the input to layer m is the composite of the measured one-layer arrows",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::below("trained, layer 6: TV(measured, composite) − TV(measured, uniform)", at(t, |a| &a.tv_composite, last) - at(t, |a| &a.tv_uniform, last), 0.0, 2))
        .scope(Test::below("trained, layer 2: TV(measured, composite) − TV(measured, uniform)", at(t, |a| &a.tv_composite, 1) - at(t, |a| &a.tv_uniform, 1), 0.0, 2))
        .scope(Test::below("random baseline, layer 6: the same difference", at(r, |a| &a.tv_composite, last) - at(r, |a| &a.tv_uniform, last), 0.0, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "trained-boundary",
            "the relation is built under the boundary condition the prompt sets: the same word's state changes with its context, more with depth",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::above("trained: growth of 1 − cos(word in A, word in B) from h₀ to h₆", ctx(t, LAYERS) - ctx(t, 0), 0.1, 2))
        .core(Test::below("trained, h₆: context change / unrelated change", ctx(t, LAYERS) / unr(t, LAYERS), 1.0, 2))
        .scope(Test::below("random baseline: the same growth", ctx(r, LAYERS) - ctx(r, 0), 0.05, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "trained-partners",
            "attention constructs the token relations from the prompt: a word's strongest partners change when its context changes",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::above("trained: share of the 72 heads whose strongest partner changes with the context", ModelFindings::over_pairs(&t.context, partner_share).mean, 0.5, 2))
        .scope(Test::above("random baseline: the same share", ModelFindings::over_pairs(&r.context, partner_share).mean, 0.5, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "trained-path",
            "a layer's arrow is a function of the states it reads: evaluated on the prompt instead of its own input, it changes",
        )
        .evidence(Evidence::Pretrained)
        .core(Test::above("trained: mean TV(A_l on h_{l−1}, A_l on h₀), layers 2–6", t.over_sentences(path_tv).mean, 0.1, 2))
        .scope(Test::below("random baseline: the same", r.over_sentences(path_tv).mean, 0.1, 2))
        .setting(setting),
    ]
}
