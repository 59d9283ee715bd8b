//! Chapter 4's trained-model section as the prose quotes it: its measures
//! (keys `tr_…`) and its claims (evidence: pretrained).

use super::{Attribution, BOOK, Change, Model, ModelFindings, book, sentences};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, pm, table_of};
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::stats::mean;

/// Mean over sentences of layers 2 … 6's path TV (layer 1 runs on the prompt itself).
fn path_tv(a: &Attribution) -> f64 {
    mean(&a.path_tv[1..])
}

/// Mean over layers and heads of a change's partner shares.
fn partner_share(c: &Change) -> f64 {
    mean(&c.partner)
}

/// One per-layer statistic of an [`Attribution`].
type Field = fn(&Attribution) -> &Vec<f64>;

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
    let mut attribution = Vec::new();
    let (mut partners, mut states) = (vec![Vec::new(); LAYERS], vec![Vec::new(); LAYERS + 1]);
    for model in Model::BOTH {
        let (r, name) = (f.model(model), model.name());
        let ctx = |g: &dyn Fn(&Change) -> f64| ModelFindings::over_pairs(&r.context, g);
        let unr = |g: &dyn Fn(&Change) -> f64| ModelFindings::over_pairs(&r.unrelated, g);
        for (l, partner_row) in partners.iter_mut().enumerate() {
            let k = l + 1;
            let s = |g: Field| pm(r.over_sentences(|a| g(a)[l]), 2);
            let cells: [(&str, Field); 7] = [
                ("rho_raw", |a| &a.rho_raw),
                ("rho_rollout", |a| &a.rho_rollout),
                ("rho_raw_words", |a| &a.rho_raw_words),
                ("rho_rollout_words", |a| &a.rho_rollout_words),
                ("tv_composite", |a| &a.tv_composite),
                ("tv_rollout", |a| &a.tv_rollout),
                ("tv_uniform", |a| &a.tv_uniform),
            ];
            let row = cells
                .iter()
                .map(|&(key, g)| Measure::new(format!("tr_{key}_{name}_l{k}"), s(g)))
                .collect();
            attribution.push((format!("{name}, layer {k}"), row));
            partner_row.extend([
                Measure::new(
                    format!("tr_partner_context_{name}_l{k}"),
                    pm(ctx(&|c| c.partner[l]), 2),
                ),
                Measure::new(
                    format!("tr_partner_unrelated_{name}_l{k}"),
                    pm(unr(&|c| c.partner[l]), 2),
                ),
            ]);
        }
        for (l, row) in states.iter_mut().enumerate() {
            row.extend([
                Measure::new(
                    format!("tr_state_context_{name}_l{l}"),
                    pm(ctx(&|c| c.state[l]), 2),
                ),
                Measure::new(
                    format!("tr_state_unrelated_{name}_l{l}"),
                    pm(unr(&|c| c.state[l]), 2),
                ),
            ]);
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
    let header = [
        "weights, layer",
        "ρ(raw, effect)",
        "ρ(rollout, effect)",
        "ρ(raw, effect), words",
        "ρ(rollout, effect), words",
        "TV(composite, measured)",
        "TV(rollout, measured)",
        "TV(uniform, measured)",
    ];
    m.extend(table_of("tr_attribution", &header, attribution));
    let by = [
        "trained, other sense",
        "trained, unrelated",
        "random, other sense",
        "random, unrelated",
    ];
    let label = |first: &'static str| [first].into_iter().chain(by).collect::<Vec<_>>();
    let rows = |cells: Vec<Vec<Measure>>, name: fn(usize) -> String| {
        cells
            .into_iter()
            .enumerate()
            .map(|(l, c)| (name(l), c))
            .collect()
    };
    m.extend(table_of(
        "tr_partners",
        &label("layer"),
        rows(partners, |l| format!("{}", l + 1)),
    ));
    m.extend(table_of(
        "tr_states",
        &label("state"),
        rows(states, |l| format!("h{l}")),
    ));
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
