//! The operator experiment's numbers: per arm over seeds, and the measures
//! chapter 7's operator page quotes (keys `op_…`).

use super::{Arm, Findings, MIXERS, book};
use crate::experiment::delta_attention::recall::inside::Inside;
use crate::measure::{Measure, fixed, pm};
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
    over(f, mixer, updates, |a| a.trained.margin(r.block, r.span, r.effect))
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

/// Per block of KDA on the default task: the slowest and fastest channel's
/// mean decay rate, and the interquartile spread of the channels' log rates,
/// trained and at initialisation, each averaged over seeds.
fn decay_measures(f: &Findings) -> Vec<Measure> {
    let u = f.setup.task.updates;
    let mut m = Vec::new();
    for l in 0..f.setup.layers {
        let b = l + 1;
        let of = |rates: fn(&Arm) -> &Vec<Vec<f64>>, pick: fn(&[f64]) -> f64| {
            over(f, Mixer::Kda, u, |a| pick(&rates(a)[l]))
        };
        let min = |c: &[f64]| c.iter().copied().fold(f64::INFINITY, f64::min);
        let max = |c: &[f64]| c.iter().copied().fold(0.0, f64::max);
        m.push(Measure::new(format!("op_decay_min_b{b}"), pm(of(|a| &a.decay, min), 3)));
        m.push(Measure::new(format!("op_decay_max_b{b}"), pm(of(|a| &a.decay, max), 3)));
        m.push(Measure::new(
            format!("op_decay_spread_b{b}"),
            pm(of(|a| &a.decay, Inside::log_spread), 2),
        ));
        m.push(Measure::new(
            format!("op_decay_spread_init_b{b}"),
            pm(of(|a| &a.decay_init, Inside::log_spread), 2),
        ));
    }
    m
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
    for mixer in MIXERS {
        let n = mixer.name();
        m.push(Measure::new(format!("op_acc_{n}"), pm(over(f, mixer, u, |a| a.accuracy), 2)));
        m.push(Measure::new(
            format!("op_acc_rewritten_{n}"),
            pm(over(f, mixer, u, |a| a.accuracy_rewritten), 2),
        ));
        m.push(Measure::new(
            format!("op_rho_sim_{n}"),
            pm(over(f, mixer, u, |a| a.trained.similarity[b][0][0]), 2),
        ));
        m.push(Measure::new(
            format!("op_rho_op_{n}"),
            pm(over(f, mixer, u, |a| a.trained.operator[b][0][0]), 2),
        ));
        m.push(Measure::new(format!("op_margin_{n}"), pm(margin(f, mixer, u, d), 2)));
        m.push(Measure::new(
            format!("op_latest_sim_{n}"),
            pm(over(f, mixer, u, |a| a.trained.latest_similarity[b]), 2),
        ));
        m.push(Measure::new(
            format!("op_latest_op_{n}"),
            pm(over(f, mixer, u, |a| a.trained.latest_operator[b]), 2),
        ));
        m.push(Measure::new(
            format!("op_latest_effect_{n}"),
            pm(over(f, mixer, u, |a| a.trained.latest_effect), 2),
        ));
        let (capped, stalled, runs) = status(f, mixer, u);
        m.push(Measure::new(format!("op_capped_{n}"), format!("{capped} of {runs}")));
        m.push(Measure::new(format!("op_stalled_{n}"), format!("{stalled} of {runs}")));
    }
    let kda = Mixer::Kda;
    m.extend([
        Measure::new(
            "op_margin_kda_untrained",
            pm(over(f, kda, u, |a| a.untrained.margin(b, 0, 0)), 2),
        ),
        Measure::new("op_over_null_kda", pm(over_null(f, kda, u, d), 2)),
        Measure::new("op_over_null_kda_b1", pm(over_null(f, kda, u, first), 2)),
        Measure::new("op_over_null_kda_tv", pm(over_null(f, kda, u, tv), 2)),
        Measure::new("op_over_null_kda_own", pm(over_null(f, kda, u, own), 2)),
        Measure::new("op_over_null_kda_other", pm(over_null(f, kda, other, d), 2)),
        Measure::new("op_margin_kda_b1", pm(margin(f, kda, u, first), 2)),
        Measure::new("op_margin_kda_tv", pm(margin(f, kda, u, tv), 2)),
        Measure::new("op_margin_kda_own", pm(margin(f, kda, u, own), 2)),
        Measure::new("op_margin_kda_other", pm(margin(f, kda, other, d), 2)),
        Measure::new("op_acc_kda_other", pm(over(f, kda, other, |a| a.accuracy), 2)),
    ]);
    for mixer in [Mixer::DeltaNet, kda] {
        let n = mixer.name();
        for l in 0..s.layers {
            m.push(Measure::new(
                format!("op_beta_first_{n}_b{}", l + 1),
                pm(over(f, mixer, u, |a| a.beta_first[l]), 2),
            ));
            m.push(Measure::new(
                format!("op_beta_rewrite_{n}_b{}", l + 1),
                pm(over(f, mixer, u, |a| a.beta_rewrite[l]), 2),
            ));
        }
    }
    m.extend(decay_measures(f));
    m
}
