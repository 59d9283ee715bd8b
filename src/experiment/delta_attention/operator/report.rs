//! The operator experiment's numbers: per arm over seeds, and the measures
//! chapter 7's operator page quotes (keys `op_…`).

use super::{Arm, Findings, MIXERS, book};
use crate::experiment::delta_attention::recall::inside::Inside;
use crate::measure::{Measure, fixed, of_total, pm, table_of};
use crate::mixer::Mixer;
use crate::stats::Summary;

/// Which account is scored against which effect: the block (0-based), the
/// span (0: the convolution's window, 1: the write alone) and the effect (an
/// index of [`super::EFFECTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    pub block: usize,
    pub span: usize,
    pub effect: usize,
}

/// The default: the last block (it reads at the query), the window, the drop.
pub const DEFAULT: Read = Read {
    block: 1,
    span: 0,
    effect: 0,
};

/// Runs below this accuracy never learned the task: four times chance over the values.
pub fn chance_floor(f: &Findings) -> f64 {
    4.0 / (f.setup.task.vocab - f.setup.task.vocab / 2) as f64
}

/// `field` over the seeds of `mixer` on the task with `updates` rewritten keys.
pub fn over(f: &Findings, mixer: Mixer, updates: usize, field: impl Fn(&Arm) -> f64) -> Summary {
    Summary::over(f.runs(mixer, updates).into_iter().map(field))
}

/// Per seed: the trained model's `ρ(operator) − ρ(similarity)` as `r` reads it.
pub fn margin(f: &Findings, mixer: Mixer, updates: usize, r: Read) -> Summary {
    over(f, mixer, updates, |a| {
        a.trained.margin(r.block, r.span, r.effect)
    })
}

/// Per seed: the trained margin minus the same model's untrained margin (paired).
pub fn over_null(f: &Findings, mixer: Mixer, updates: usize, r: Read) -> Summary {
    over(f, mixer, updates, |a| {
        a.trained.margin(r.block, r.span, r.effect) - a.untrained.margin(r.block, r.span, r.effect)
    })
}

/// `(capped, stalled, runs)` of `mixer` on the task with `updates` rewritten keys.
pub fn status(f: &Findings, mixer: Mixer, updates: usize) -> (usize, usize, usize) {
    let runs = f.runs(mixer, updates);
    let floor = chance_floor(f);
    (
        runs.iter().filter(|a| a.stop.capped()).count(),
        runs.iter().filter(|a| a.accuracy < floor).count(),
        runs.len(),
    )
}

/// Per block: β at first writes and at rewrites (DeltaNet, KDA), and KDA's
/// slowest and fastest channel's mean decay rate and the interquartile spread
/// of its channels' log rates, trained and at initialisation, over seeds.
fn inside(f: &Findings) -> Vec<Measure> {
    let u = f.setup.task.updates;
    let min = |c: &[f64]| c.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |c: &[f64]| c.iter().copied().fold(0.0, f64::max);
    let rows = (0..f.setup.layers)
        .map(|l| {
            let b = l + 1;
            let beta =
                |mixer: Mixer, at: fn(&Arm) -> &Vec<f64>| pm(over(f, mixer, u, |a| at(a)[l]), 2);
            let rate = |of: fn(&Arm) -> &Vec<Vec<f64>>, pick: &dyn Fn(&[f64]) -> f64, digits| {
                pm(over(f, Mixer::Kda, u, |a| pick(&of(a)[l])), digits)
            };
            let cell = |key: &str, value: String| Measure::new(format!("op_{key}_b{b}"), value);
            (
                format!("block {b}"),
                vec![
                    cell(
                        "beta_first_deltanet",
                        beta(Mixer::DeltaNet, |a| &a.beta_first),
                    ),
                    cell(
                        "beta_rewrite_deltanet",
                        beta(Mixer::DeltaNet, |a| &a.beta_rewrite),
                    ),
                    cell("beta_first_kda", beta(Mixer::Kda, |a| &a.beta_first)),
                    cell("beta_rewrite_kda", beta(Mixer::Kda, |a| &a.beta_rewrite)),
                    cell("decay_min", rate(|a| &a.decay, &min, 3)),
                    cell("decay_max", rate(|a| &a.decay, &max, 3)),
                    cell(
                        "decay_spread_init",
                        rate(|a| &a.decay_init, &Inside::log_spread, 2),
                    ),
                    cell("decay_spread", rate(|a| &a.decay, &Inside::log_spread, 2)),
                ],
            )
        })
        .collect();
    table_of(
        "op_inside",
        &[
            "block",
            "β at first writes, DeltaNet",
            "β at rewrites, DeltaNet",
            "β at first writes, KDA",
            "β at rewrites, KDA",
            "KDA's slowest channel rate",
            "KDA's fastest channel rate",
            "spread of KDA's log channel rates, before training",
            "spread of KDA's log channel rates, trained",
        ],
        rows,
    )
}

/// The numbers the operator page quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let s = &f.setup;
    let (u, other) = (s.task.updates, s.other.updates);
    let t = &s.training;
    let mut m = vec![
        Measure::new("op_vocab", s.task.vocab.to_string()),
        Measure::new("op_len", s.task.len.to_string()),
        Measure::new("op_pairs", s.task.pairs.to_string()),
        Measure::new("op_updates", u.to_string()),
        Measure::new("op_updates_other", other.to_string()),
        Measure::new("op_d", s.d.to_string()),
        Measure::new("op_k", s.k.to_string()),
        Measure::new("op_seeds", s.seeds.to_string()),
        Measure::new("op_looked_at", s.looked_at.to_string()),
        Measure::new("op_batch", t.schedule.batch.to_string()),
        Measure::new("op_lr", t.schedule.lr.to_string()),
        Measure::new("op_cap", t.schedule.steps.to_string()),
        Measure::new("op_min_steps", t.plateau.min_steps.to_string()),
        Measure::new("op_floor", fixed(chance_floor(f), 2)),
    ];
    let (b, d) = (DEFAULT.block, DEFAULT);
    let first = Read { block: 0, ..d };
    let tv = Read { effect: 1, ..d };
    let own = Read { span: 1, ..d };
    let mut rows = Vec::new();
    for mixer in MIXERS {
        let n = mixer.name();
        let cell = |key: &str, value: String| Measure::new(format!("op_{key}_{n}"), value);
        let (capped, stalled, runs) = status(f, mixer, u);
        rows.push((
            n.to_string(),
            vec![
                cell("acc", pm(over(f, mixer, u, |a| a.accuracy), 2)),
                cell(
                    "acc_rewritten",
                    pm(over(f, mixer, u, |a| a.accuracy_rewritten), 2),
                ),
                cell(
                    "rho_sim",
                    pm(over(f, mixer, u, |a| a.trained.similarity[b][0][0]), 2),
                ),
                cell(
                    "rho_op",
                    pm(over(f, mixer, u, |a| a.trained.operator[b][0][0]), 2),
                ),
                cell("margin", pm(margin(f, mixer, u, d), 2)),
                cell(
                    "latest_sim",
                    pm(over(f, mixer, u, |a| a.trained.latest_similarity[b]), 2),
                ),
                cell(
                    "latest_op",
                    pm(over(f, mixer, u, |a| a.trained.latest_operator[b]), 2),
                ),
                cell(
                    "latest_effect",
                    pm(over(f, mixer, u, |a| a.trained.latest_effect), 2),
                ),
                cell("capped", of_total(capped, runs, "runs")),
                cell("stalled", of_total(stalled, runs, "runs")),
            ],
        ));
    }
    m.extend(table_of(
        "op_mixers",
        &[
            "mixer",
            "held-out accuracy",
            "accuracy on rewritten keys",
            "ρ, similarity account",
            "ρ, operator account",
            "operator − similarity",
            "answer above stale write, similarity account",
            "answer above stale write, operator account",
            "answer above stale write, measured effect",
            "runs at the step cap",
            "runs at chance",
        ],
        rows,
    ));
    let kda = Mixer::Kda;
    m.push(Measure::new(
        "op_margin_kda_untrained",
        pm(over(f, kda, u, |a| a.untrained.margin(b, 0, 0)), 2),
    ));
    m.push(Measure::new(
        "op_over_null_kda",
        pm(over_null(f, kda, u, d), 2),
    ));
    let choices = [
        ("default", "the default", u, d),
        ("b1", "block 1", u, first),
        ("own", "at the write's own position", u, own),
        ("tv", "effect: total variation", u, tv),
        ("other", "every key rewritten", other, d),
    ];
    let rows = choices
        .iter()
        .map(|&(key, label, updates, r)| {
            (
                label.to_string(),
                vec![
                    Measure::new(
                        format!("op_choice_margin_{key}"),
                        pm(margin(f, kda, updates, r), 2),
                    ),
                    Measure::new(
                        format!("op_choice_null_{key}"),
                        pm(
                            over(f, kda, updates, |a| {
                                a.untrained.margin(r.block, r.span, r.effect)
                            }),
                            2,
                        ),
                    ),
                    Measure::new(
                        format!("op_choice_over_null_{key}"),
                        pm(over_null(f, kda, updates, r), 2),
                    ),
                ],
            )
        })
        .collect();
    m.extend(table_of(
        "op_choices",
        &[
            "choice",
            "operator − similarity, trained",
            "operator − similarity, untrained",
            "trained − untrained",
        ],
        rows,
    ));
    m.push(Measure::new(
        "op_acc_kda_other",
        pm(over(f, kda, other, |a| a.accuracy), 2),
    ));
    m.extend(inside(f));
    m
}
