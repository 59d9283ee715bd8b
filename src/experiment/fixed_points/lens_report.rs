//! The lens numbers chapter 5 quotes (keys `lens_…`): the plain logit lens,
//! the fitted lens, the norm-matched null, the random twin and the shuffled
//! orders, and the gaps the claim is decided on.

use super::lens_fitted::{self, Findings};
use super::lens_shuffled;
use super::lens_verdict::{Arrival, interval, kl_falls, shuffled};
use super::logit_lens::{self, ModelFindings, Positions};
use crate::measure::{Measure, fixed, table_of};
use crate::stats::mean;

/// `(key, value)` with `digits` decimals.
fn m(key: &str, value: f64, digits: usize) -> Measure {
    Measure::new(format!("lens_{key}"), fixed(value, digits))
}

/// Arrival, settled boundary, stay, agreement at 0 and 29 and the share held
/// from 29, for one arm named `name` (a row of the table `lens_arms`).
fn arm(name: &str, r: &ModelFindings) -> Vec<Measure> {
    let a = r.agreement(Positions::All);
    let open = Positions::Open;
    vec![
        m(&format!("first_{name}"), r.first(Positions::All), 1),
        m(&format!("settled_{name}"), r.settled(open), 1),
        m(&format!("stay_{name}"), r.stay(open), 2),
        m(&format!("agree0_{name}"), a[0], 2),
        m(&format!("agree29_{name}"), a[a.len() - 2], 2),
        m(
            &format!("held29_{name}"),
            r.held_before_last(Positions::All),
            2,
        ),
    ]
}

/// The default test's two gaps, trained − `null`, keyed `{key}_settled_gap`, `{key}_stay_gap`.
fn gaps(key: &str, t: &ModelFindings, null: &ModelFindings) -> Vec<Measure> {
    let open = Positions::Open;
    vec![
        m(
            &format!("{key}_settled_gap"),
            Arrival::Settled.of(t, open) - Arrival::Settled.of(null, open),
            1,
        ),
        m(
            &format!("{key}_stay_gap"),
            t.stay(open) - null.stay(open),
            3,
        ),
    ]
}

/// The numbers the prose quotes (keys `lens_…`).
pub fn measures() -> Vec<Measure> {
    let plain = logit_lens::book();
    let f: &Findings = lens_fitted::book();
    let (t, twin) = (f.fitted.trained.pooled(), f.fitted.random.pooled());
    let (null, null_plain, orders) = (f.null_fitted(), f.null_plain(), shuffled());
    let last = f.write_share.trained.len() - 1;
    let (settled_ci, stay_ci) = (
        interval(f, ModelFindings::settled),
        interval(f, ModelFindings::stay),
    );
    let explained = &f.fitted.trained.explained;
    let (pa, fa) = (
        plain.trained.agreement(Positions::All),
        t.agreement(Positions::All),
    );
    let gain = mean(&(1..pa.len() - 1).map(|l| fa[l] - pa[l]).collect::<Vec<_>>());
    let mut out = vec![
        Measure::new("lens_sentences", logit_lens::BOOK.sentences.to_string()),
        Measure::new("lens_tokens", t.tokens.len().to_string()),
        Measure::new("lens_orders", lens_shuffled::BOOK.seeds.to_string()),
        Measure::new("lens_seeds", lens_fitted::BOOK.seeds.to_string()),
        Measure::new("lens_held_out_tokens", f.held_out_tokens.to_string()),
        Measure::new(
            "lens_open_trained",
            t.at(Positions::Open).count().to_string(),
        ),
        m("write_last_trained", f.write_share.trained[last], 2),
        m("write_last_random", f.write_share.random[last], 2),
        m("explained_1", explained[1], 2),
        m("explained_29", explained[last], 2),
        m(
            "settled_gap",
            t.settled(Positions::Open) - null.settled(Positions::Open),
            1,
        ),
        m("settled_ci_lo", settled_ci.0, 1),
        m("settled_ci_hi", settled_ci.1, 1),
        m(
            "stay_gap",
            t.stay(Positions::Open) - null.stay(Positions::Open),
            3,
        ),
        m("stay_ci_lo", stay_ci.0, 3),
        m("stay_ci_hi", stay_ci.1, 3),
        m("fit_gain", gain, 2),
        m("kl_rho_trained", kl_falls(&plain.trained), 2),
        m("kl_rho_random", kl_falls(&plain.random), 2),
        m("kl_rho_shuffled", kl_falls(&orders), 2),
    ];
    // plain: trained, random, shuffled, null; fitted: trained, random, null
    let rows = [
        ("plain lens, trained", "trained", &plain.trained),
        ("plain lens, random twin", "random", &plain.random),
        ("plain lens, shuffled orders", "shuffled", &orders),
        ("plain lens, norm-matched null", "null_plain", &null_plain),
        ("fitted lens, trained", "fit_trained", &t),
        ("fitted lens, random twin", "fit_random", &twin),
        ("fitted lens, norm-matched null", "fit_null", &null),
    ]
    .into_iter()
    .map(|(label, name, r)| (label.to_string(), arm(name, r)))
    .collect();
    out.extend(table_of(
        "lens_arms",
        &[
            "lens, weights",
            "first arrival",
            "settled",
            "stay",
            "agreement at 0",
            "agreement at 29",
            "held from 29",
        ],
        rows,
    ));
    out.extend(gaps("twin", &t, &twin));
    out.extend(gaps("plain_null", &plain.trained, &null_plain));
    out.extend(gaps("plain_twin", &plain.trained, &plain.random));
    out.extend(gaps("plain_shuffled", &plain.trained, &orders));
    out
}
