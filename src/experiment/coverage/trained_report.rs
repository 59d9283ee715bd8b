//! What chapter 2's trained-model section quotes from [`super::trained`]'s
//! findings: its numbers, its two tables, and the means the claims read.

use super::readings::HeadStats;
use super::sensitivity::{Effect, Keys, Sink};
use super::trained::{Direction, EPSILONS, Findings, book};
use crate::measure::{Measure, fixed, pm, table};
use crate::pretrained::corpus::Model;
use crate::pretrained::counterfactual::{Counterfactual, Target};
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::pretrained::paraphrase::{corpus, sentences};
use crate::stats::Summary;

const RHO: [(&str, usize); 3] = [("weight_norm", 0), ("weight_loo", 1), ("norm_loo", 2)];

/// The numbers the section quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("lm_local", f.setup.local.to_string()),
        Measure::new("lm_heads", (LAYERS * HEADS).to_string()),
        Measure::new("lm_layers", LAYERS.to_string()),
        Measure::new("lm_sentences", sentences(&corpus()).len().to_string()),
    ];
    m.push(Measure::new("lm_err_table", error_table(f)));
    m.push(Measure::new("lm_sensitivity_table", sensitivity_table(f)));
    for (key, g) in [
        (
            "weight",
            (|s: &HeadStats| s.sensitivity.sink_weight) as fn(&HeadStats) -> f64,
        ),
        ("norm", |s: &HeadStats| s.sensitivity.sink_norm),
    ] {
        m.push(Measure::new(
            format!("lm_trained_sink_{key}"),
            pm(f.summary(Model::Trained, None, g), 2),
        ));
    }
    m.push(Measure::new(
        "lm_err_token_small",
        pm(
            f.error_along(Model::Trained, Direction::OneToken, None, 1),
            3,
        ),
    ));
    m.push(Measure::new(
        "lm_err_token_large",
        pm(
            f.error_along(
                Model::Trained,
                Direction::OneToken,
                None,
                EPSILONS.len() - 1,
            ),
            2,
        ),
    ));
    for kind in Sink::ALL {
        let key = kind
            .name()
            .trim_matches(['[', ']'])
            .replace("a word", "word")
            .to_lowercase();
        m.push(Measure::new(
            format!("lm_trained_sink_{key}"),
            fixed(sink_share(f, Model::Trained, kind), 2),
        ));
    }
    for model in Model::BOTH {
        let name = model.name();
        for (key, r) in RHO {
            let all: fn(&HeadStats) -> f64 = [
                |s: &HeadStats| s.rho[0],
                |s: &HeadStats| s.rho[1],
                |s: &HeadStats| s.rho[2],
            ][r];
            m.push(Measure::new(
                format!("lm_{name}_rho_{key}"),
                pm(f.summary(model, None, all), 2),
            ));
        }
        m.push(Measure::new(
            format!("lm_{name}_special_weight"),
            pm(f.summary(model, None, |s| s.special_weight), 2),
        ));
        m.push(Measure::new(
            format!("lm_{name}_special_norm"),
            pm(f.summary(model, None, |s| s.special_norm), 2),
        ));
        m.push(Measure::new(
            format!("lm_{name}_rho_fnorm"),
            pm(
                f.summary(model, None, |s| s.sensitivity.rho_weight_fnorm),
                2,
            ),
        ));
        m.push(Measure::new(
            format!("lm_{name}_special_tokens"),
            fixed(f.summary(model, None, |s| s.special_tokens).mean, 2),
        ));
    }
    m
}

/// The weight-versus-norm comparison under every choice, trained and random, as a table.
fn sensitivity_table(f: &Findings) -> String {
    let per = LAYERS * HEADS;
    let mut rows = Vec::new();
    for effect in effects() {
        for keys in Keys::ALL {
            let heads = |model| &f.side(model).heads[..];
            let [w, n] =
                [0, 1].map(|k| mean_of(f, Model::Trained, |s| s.sensitivity.cell(effect, keys)[k]));
            let null = over_null(heads(Model::Trained), per, effect, keys);
            let (lo, hi) = null.ci95();
            let (cf, target) = short(effect);
            rows.push(vec![
                cf.to_string(),
                target.to_string(),
                match keys {
                    Keys::All => "all",
                    Keys::WithoutSink => "no sink",
                    Keys::WithoutSpecial => "no special",
                }
                .to_string(),
                fixed(w, 2),
                fixed(n, 2),
                fixed(n - w, 2),
                format!(
                    "{} [{}, {}]",
                    fixed(null.mean, 2),
                    fixed(lo, 2),
                    fixed(hi, 2)
                ),
                fixed(gap(heads(Model::Random), effect, keys), 2),
            ]);
        }
    }
    table(
        &[
            "counterfactual",
            "target",
            "keys",
            "ρ(α, E)",
            "ρ(‖αf‖, E)",
            "gap",
            "over permuted ‖f‖ [95%]",
            "gap, random",
        ],
        &rows,
    )
}

/// Short labels of an effect for tables and figures, `(counterfactual, target)`.
pub fn short(effect: Effect) -> (&'static str, &'static str) {
    match effect {
        Effect::Head(t, c) => (
            match c {
                Counterfactual::Knockout => "knockout",
                Counterfactual::ValueZeroing => "value zeroing",
                Counterfactual::MeanValue => "mean-value",
            },
            match t {
                Target::Head => "head",
                Target::Block => "block",
            },
        ),
        Effect::Layer => ("value zeroing, every head", "layer"),
    }
}

/// The first-order prediction's relative error per ε, trained and random, as a table.
fn error_table(f: &Findings) -> String {
    let rows: Vec<Vec<String>> = EPSILONS
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let mut row = vec![format!("{e}")];
            row.extend(Model::BOTH.map(|model| pm(f.error(model, None, k), 3)));
            row
        })
        .collect();
    table(&["ε", "trained", "random"], &rows)
}

/// Mean over heads × sentences of `model` of `g`.
pub fn mean_of(f: &Findings, model: Model, g: impl Fn(&HeadStats) -> f64) -> f64 {
    let xs: Vec<f64> = f.side(model).heads.iter().map(g).collect();
    crate::stats::mean(&xs)
}

/// `ρ(‖αf‖, E) − ρ(α, E)` of one choice, mean over `heads`.
pub fn gap(heads: &[HeadStats], effect: Effect, keys: Keys) -> f64 {
    let xs: Vec<f64> = (heads.iter())
        .map(|h| {
            let [w, n, _] = h.sensitivity.cell(effect, keys);
            n - w
        })
        .collect();
    crate::stats::mean(&xs)
}

/// `ρ(‖αf‖, E) − ρ(α‖f_π‖, E)` of one choice (the true norm against the
/// norms permuted across keys, [`super::permuted`]), one value per sentence:
/// the mean over its `per` heads (`heads` in sentence order).
pub fn over_null(heads: &[HeadStats], per: usize, effect: Effect, keys: Keys) -> Summary {
    by_sentence(heads, per, |[_, n, p]| n - p, effect, keys)
}

/// `g` of one choice's cell `[ρ(α, E), ρ(‖αf‖, E), ρ(α‖f_π‖, E)]`, one value
/// per sentence: the mean over its `per` heads.
pub fn by_sentence(
    heads: &[HeadStats],
    per: usize,
    g: fn([f64; 3]) -> f64,
    effect: Effect,
    keys: Keys,
) -> Summary {
    Summary::over(heads.chunks(per).map(|s| {
        let xs: Vec<f64> = s
            .iter()
            .map(|h| g(h.sensitivity.cell(effect, keys)))
            .collect();
        crate::stats::mean(&xs)
    }))
}

/// Every effect a choice can take: each head counterfactual at each target,
/// but value zeroing at the head's own output (there `E = ‖αf‖` by
/// definition, an identity), and the layer's value zeroing.
pub fn effects() -> Vec<Effect> {
    let mut out: Vec<Effect> = Target::ALL
        .into_iter()
        .flat_map(|t| Counterfactual::ALL.map(|c| Effect::Head(t, c)))
        .filter(|&e| e != Effect::Head(Target::Head, Counterfactual::ValueZeroing))
        .collect();
    out.push(Effect::Layer);
    out
}

/// Mean `[ρ(α, E), ρ(‖αf‖, E)]` of one choice.
pub fn cell(
    f: &Findings,
    model: Model,
    target: Target,
    cf: Counterfactual,
    keys: Keys,
) -> [f64; 2] {
    [0, 1].map(|k| mean_of(f, model, |s| s.sensitivity.rho(target, cf, keys)[k]))
}

/// Share of heads × sentences of `model` whose sink is of kind `kind`.
pub fn sink_share(f: &Findings, model: Model, kind: Sink) -> f64 {
    mean_of(f, model, |s| {
        f64::from(u8::from(s.sensitivity.sink == kind))
    })
}
