//! Chapter 4's trained-model section as the prose quotes it: its measures
//! (keys `tr_…`) and its claims (evidence: pretrained).

use super::{Attribution, BOOK, Change, Model, ModelFindings, book, sentences};
use crate::claim::{Claim, Evidence, Test};
use crate::experiment::relations::decoder_verdict;
use crate::measure::{Measure, pm, sci, table_of};
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
    let (mut agreement, mut composition) = (Vec::new(), Vec::new());
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
            let mut row: Vec<Measure> = cells
                .iter()
                .map(|&(key, g)| Measure::new(format!("tr_{key}_{name}_l{k}"), s(g)))
                .collect();
            // two tables that fit the column: ρ with the effect, then TV
            let tv = row.split_off(4);
            agreement.push((format!("{name}, layer {k}"), row));
            composition.push((format!("{name}, layer {k}"), tv));
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
            format!("tr_partner_no_sinks_{name}"),
            pm(ctx(&|c| mean(&c.partner_no_sinks)), 2),
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
        m.push(Measure::new(format!("tr_gap_{name}"), sci(gap, 1)));
    }
    let header = [
        "weights, layer",
        "raw",
        "rollout",
        "raw, words",
        "rollout, words",
    ];
    m.extend(table_of("tr_agreement", &header, agreement));
    let header = ["weights, layer", "composite", "rollout", "uniform"];
    m.extend(table_of("tr_composition", &header, composition));
    m.extend(protocol_measures());
    m.extend(super::rollout_verdict::measures());
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

/// The linearised composition's numbers (keys `tr_lin_…`).
fn protocol_measures() -> Vec<Measure> {
    let f = book();
    let mut m = Vec::new();
    for model in Model::BOTH {
        let (x, name) = (f.model(model), model.name());
        for l in [2, LAYERS - 1] {
            let k = l + 1;
            let s = |g: Field| pm(x.over_sentences(|a| g(a)[l]), 2);
            m.push(Measure::new(
                format!("tr_lin_tv_{name}_l{k}"),
                s(|a| &a.tv_linearised),
            ));
            m.push(Measure::new(
                format!("tr_lin_error_{name}_l{k}"),
                s(|a| &a.linear_error),
            ));
        }
    }
    m
}

/// The claims of chapter 4's trained-model section (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    let mut claims = super::rollout_verdict::claims();
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
    let lin =
        |x: &ModelFindings, l: usize| at(x, |a| &a.tv_linearised, l) - at(x, |a| &a.tv_uniform, l);
    let growth = |x: &ModelFindings, l: usize| ctx(x, l) - ctx(x, 0);
    let boundary = |l: usize| {
        vec![
            Test::above(
                format!(
                    "trained growth of 1 − cos(word in A, word in B) from h₀ to h{l} minus the random model's"
                ),
                growth(t, l) - growth(r, l),
                0.0,
                2,
            ),
            Test::below(
                format!("trained, h{l}: context change / unrelated change"),
                ctx(t, l) / unr(t, l),
                1.0,
                2,
            ),
        ]
    };
    let partners =
        |x: &ModelFindings, g: fn(&Change) -> f64| ModelFindings::over_pairs(&x.context, g).mean;
    let smallest_path = |x: &ModelFindings| {
        (1..LAYERS)
            .map(|l| x.over_sentences(|a| a.path_tv[l]).mean)
            .fold(f64::INFINITY, f64::min)
    };
    claims.extend([
        Claim::empirical(
            "trained-composition",
            "relations compose along layers: the measured arrow from the input to layer m is the composite of the measured one-layer arrows",
        )
        .zh("关系沿层复合：从输入到第 m 层测得的箭头，是测得的各单层箭头的复合。")
        .evidence(Evidence::Pretrained)
        .default_choice("objects composed: each layer's linearisation at the clean input (Jacobian-vector products), which compose by the chain rule; depth: h₆")
        .core(Test::below("trained, layer 6: TV(measured, linearised composite) − TV(measured, uniform)", lin(t, last), 0.0, 2))
        .under("depth: h₃", vec![Test::below("trained, layer 3: TV(measured, linearised composite) − TV(measured, uniform)", lin(t, 2), 0.0, 2)])
        .under(
            "objects composed: row-normalised one-layer effect norms (built to fail: norms do not compose even for linear maps, ‖Σ_k J_ik J_kj‖ ≠ Σ_k ‖J_ik‖ ‖J_kj‖)",
            vec![Test::below("trained, layer 6: TV(measured, composite of norms) − TV(measured, uniform)", at(t, |a| &a.tv_composite, last) - at(t, |a| &a.tv_uniform, last), 0.0, 2)],
        )
        .scope(Test::below(
            "trained, layer 6: ‖δ_lin − δ_true‖ / ‖δ_true‖ of the composite linearisation (null: predicting no change, 1)",
            at(t, |a| &a.linear_error, last),
            1.0,
            2,
        ))
        .scope(Test::below("random baseline, layer 6: TV(measured, linearised composite) − TV(measured, uniform)", lin(r, last), 0.0, 2))
        .setting(format!("{setting}; the composite linearisation J₆ ⋯ J₁ applied to each mean ablation by forward differences (step 10⁻⁶ of the direction's norm)")),
        Claim::empirical(
            "trained-boundary",
            "the relation is built under the boundary condition the prompt sets: the same word's state changes with its context, more with depth",
        )
        .quotes("temporary-relations").zh("关系在提示词设定的边界条件下构建：同一个词的状态随上下文而变，且越深变得越多。")
        .evidence(Evidence::Pretrained)
        .default_choice("depth: h₆")
        .under("depth: h₃", boundary(3))
        .core(boundary(LAYERS)[0].clone())
        .core(boundary(LAYERS)[1].clone())
        .under_each(decoder_verdict::boundary_choices())
        .setting(setting.clone() + &decoder_verdict::setting()),
        Claim::empirical(
            "trained-partners",
            "in most heads, a word's strongest partner changes when its context changes",
        )
        .zh("在多数注意力头中，一个词最强的伙伴会随上下文改变。")
        .evidence(Evidence::Pretrained)
        .default_choice("token set: every key")
        .core(Test::above("trained: share of the 72 heads whose strongest partner changes with the context", partners(t, partner_share), 0.5, 2))
        .under(
            "token set: without the sinks found in the data",
            vec![Test::above("trained: share of the 72 heads whose strongest partner changes with the context", partners(t, |c| mean(&c.partner_no_sinks)), 0.5, 2)],
        )
        .scope(Test::above("random baseline: the same share", partners(r, partner_share), 0.5, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "trained-path",
            "a layer's arrow is a function of the states it reads: evaluated on the prompt instead of its own input, it changes",
        )
        .quotes("temporary-relations").zh("一层的箭头是它所读取状态的函数：改在提示词上求值，它就会改变。")
        .evidence(Evidence::Pretrained)
        .default_choice("summary: mean over layers 2–6")
        .core(Test::above("trained: mean TV(A_l on h_{l−1}, A_l on h₀), layers 2–6, minus the random model's", t.over_sentences(path_tv).mean - r.over_sentences(path_tv).mean, 0.0, 2))
        .under(
            "summary: the smallest layer of 2–6",
            vec![Test::above("trained: smallest per-layer mean TV, layers 2–6, minus the random model's", smallest_path(t) - smallest_path(r), 0.0, 2)],
        )
        .scope(Test::above("trained: mean TV, layers 2–6", t.over_sentences(path_tv).mean, 0.1, 2))
        .setting(setting),
    ]);
    claims
}
