//! The numbers chapter 7's "Associative recall where capacity binds" quotes,
//! and the summaries of the committed findings its claims share.

use super::{Findings, findings};
use crate::measure::{Measure, fixed, of_total, pm, table_of};
use crate::stats::{Summary, median};

/// The arms in the order of [`super::Setup::arms`], with their labels.
pub const ARMS: [(&str, &str); 7] = [
    ("softmax", "softmax"),
    ("linear", "linear"),
    ("deltanet", "DeltaNet"),
    ("gdn_fla", "Gated DeltaNet, fla gates"),
    ("gdn_horizon", "Gated DeltaNet, horizon gates"),
    ("kda_fla", "KDA, fla gates"),
    ("kda_horizon", "KDA, horizon gates"),
];

/// The recurrent arms under one gate initialisation (`"fla"` or `"horizon"`).
pub fn recurrent(gates: &str) -> Vec<String> {
    let mut arms = vec!["linear".to_string(), "deltanet".to_string()];
    arms.extend(["gdn", "kda"].map(|m| format!("{m}_{gates}")));
    arms
}

/// The cells `(K, pairs)` ordered by how hard capacity binds (pairs / K), least first.
pub fn cells(f: &Findings) -> Vec<(usize, usize)> {
    let mut c = f.setup.cells.clone();
    c.sort_by(|a, b| (a.1 * b.0).cmp(&(b.1 * a.0)));
    c
}

/// The cell where capacity binds most (largest pairs / K) and where it binds least.
pub fn bind_and_free(f: &Findings) -> ((usize, usize), (usize, usize)) {
    let c = cells(f);
    (c[c.len() - 1], c[0])
}

/// Mean accuracy of `arm` at `(state, pairs)`.
pub fn mean_acc(f: &Findings, arm: &str, (state, pairs): (usize, usize)) -> f64 {
    Summary::of(&f.cell(arm, state, pairs).accs()).mean
}

/// `a − b` in mean accuracy at `cell`.
pub fn gap(f: &Findings, a: &str, b: &str, cell: (usize, usize)) -> f64 {
    mean_acc(f, a, cell) - mean_acc(f, b, cell)
}

/// Over every cell, the largest mean accuracy of one of `arms` minus softmax's.
pub fn over_softmax(f: &Findings, arms: &[String]) -> f64 {
    cells(f)
        .into_iter()
        .flat_map(|c| arms.iter().map(move |a| gap(f, a, "softmax", c)))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// `(capped, runs)` of `arm` over every cell.
pub fn capped(f: &Findings, arm: &str) -> (usize, usize) {
    f.cells
        .iter()
        .filter(|c| c.arm == arm)
        .fold((0, 0), |(c, n), cell| {
            (c + cell.capped(), n + cell.runs.len())
        })
}

pub fn label(arm: &str) -> &'static str {
    ARMS.iter().find(|(a, _)| *a == arm).map_or("?", |(_, l)| l)
}

/// `"K = V = 8, 16 pairs (2K)"`.
pub fn cell_name((k, p): (usize, usize)) -> String {
    let ratio = p as f64 / k as f64;
    let rel = if ratio == 1.0 {
        "= K".to_string()
    } else if ratio > 1.0 {
        format!("{}K", fixed(ratio, 0))
    } else {
        format!("K/{}", fixed(1.0 / ratio, 0))
    };
    format!("K = V = {k}, {p} pairs ({rel})")
}

fn key((k, p): (usize, usize)) -> String {
    format!("k{k}_p{p}")
}

/// Per block, the mean over `arm`'s cells of what survives of a write until its query.
fn survival(f: &Findings, arm: &str, init: bool) -> Vec<f64> {
    let cells: Vec<&super::Cell> = f.cells.iter().filter(|c| c.arm == arm).collect();
    let blocks = cells[0].survival_init.len();
    (0..blocks)
        .map(|l| {
            let s: f64 = cells
                .iter()
                .map(|c| match init {
                    true => c.survival_init[l],
                    false => c.survival[l],
                })
                .sum();
            s / cells.len() as f64
        })
        .collect()
}

/// The numbers the section quotes.
pub fn measures() -> Vec<Measure> {
    let f = findings();
    let s = &f.setup;
    let (bind, free) = bind_and_free(f);
    let rates: Vec<String> = s.rates.iter().map(|r| r.to_string()).collect();
    let mut m = vec![
        Measure::new("large_vocab", s.vocab.to_string()),
        Measure::new("large_len", s.len.to_string()),
        Measure::new("large_d", s.d.to_string()),
        Measure::new("large_layers", s.layers.to_string()),
        Measure::new("large_conv", s.conv.to_string()),
        Measure::new("large_batch", s.training.schedule.batch.to_string()),
        Measure::new("large_test", s.training.schedule.test.to_string()),
        Measure::new("large_cap", s.training.schedule.steps.to_string()),
        Measure::new("large_min_steps", s.training.plateau.min_steps.to_string()),
        Measure::new("large_every", s.training.every.to_string()),
        Measure::new("large_rates", rates.join(", ")),
        Measure::new("large_tune_steps", s.tune_steps.to_string()),
        Measure::new("large_tune_seed", s.tune_seed.to_string()),
        Measure::new("large_seeds", s.seeds.to_string()),
        Measure::new("large_chance", fixed(2.0 / s.vocab as f64, 3)),
        Measure::new("large_bind", cell_name(bind)),
        Measure::new("large_state", bind.0.to_string()),
        Measure::new("large_free", cell_name(free)),
        Measure::new("large_minutes", fixed(f.seconds / 60.0, 0)),
        Measure::new(
            "large_hash",
            f.code_hash.chars().take(12).collect::<String>(),
        ),
        Measure::new(
            "large_delta_gap_free",
            fixed(gap(f, "deltanet", "linear", free), 2),
        ),
        Measure::new("large_softmax_min", fixed(softmax_min(f), 2)),
        Measure::new(
            "large_softmax_lead_bind",
            fixed(-over_softmax_at(f, bind), 2),
        ),
        Measure::new(
            "large_softmax_lead_free",
            fixed(-over_softmax_at(f, free), 2),
        ),
        Measure::new(
            "large_left_free",
            of_total(
                left_chance(f, &ARMS[1..], free),
                6 * s.seeds as usize,
                "runs",
            ),
        ),
        Measure::new("large_best_free_arm", label(&best_recurrent(f, free).0)),
        Measure::new("large_best_free", fixed(best_recurrent(f, free).1, 2)),
        Measure::new("large_best_bind_arm", label(&best_recurrent(f, bind).0)),
        Measure::new("large_best_bind", fixed(best_recurrent(f, bind).1, 2)),
        Measure::new(
            "large_delta_low_bind",
            of_total(
                5 * s.seeds as usize - left_chance(f, &ARMS[2..], bind),
                5 * s.seeds as usize,
                "runs",
            ),
        ),
        Measure::new(
            "large_delta_floor_bind",
            of_total(
                floor_stops(f, &ARMS[2..], bind),
                5 * s.seeds as usize,
                "runs",
            ),
        ),
        Measure::new(
            "large_delta_behind_bind",
            fixed(-gap(f, "deltanet", "linear", bind), 2),
        ),
    ];
    for &(k, p) in &cells(f) {
        let ms: Vec<f64> = f
            .cells
            .iter()
            .filter(|c| c.state == k && c.pairs == p)
            .flat_map(|c| c.runs.iter().map(|r| r.ms_per_step))
            .collect();
        m.push(Measure::new(
            format!("large_ms_{}", key((k, p))),
            fixed(median(&ms), 0),
        ));
    }
    let mut accuracy = Vec::new();
    let mut plateau = Vec::new();
    for (arm, name) in ARMS {
        let mut row = Vec::new();
        let mut stops = vec![Measure::new(
            format!("large_rate_{arm}"),
            f.cell(arm, bind.0, bind.1).lr.to_string(),
        )];
        for c in cells(f) {
            let cell = f.cell(arm, c.0, c.1);
            row.push(Measure::new(
                format!("large_acc_{arm}_{}", key(c)),
                pm(Summary::of(&cell.accs()), 2),
            ));
            let steps: Vec<f64> = cell
                .runs
                .iter()
                .map(|r| r.curve.last().map_or(0.0, |&(t, _)| t as f64))
                .collect();
            stops.push(Measure::new(
                format!("large_capped_{arm}_{}", key(c)),
                format!(
                    "{} ({} steps)",
                    of_total(cell.capped(), cell.runs.len(), "runs"),
                    fixed(crate::stats::mean(&steps), 0)
                ),
            ));
        }
        let (low, runs) = super::claims::stalled(f, arm);
        stops.push(Measure::new(
            format!("large_stalled_{arm}"),
            of_total(low, runs, "runs"),
        ));
        accuracy.push((name.to_string(), row));
        plateau.push((name.to_string(), stops));
    }
    let columns: Vec<String> = cells(f).into_iter().map(cell_name).collect();
    let header: Vec<&str> = ["arm"]
        .into_iter()
        .chain(columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("large_accuracy", &header, accuracy));
    let stop_columns: Vec<String> = columns
        .iter()
        .map(|c| format!("capped, mean steps: {c}"))
        .chain(["runs ending below 4 × chance".to_string()])
        .collect();
    let header: Vec<&str> = ["arm", "tuned rate"]
        .into_iter()
        .chain(stop_columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("large_plateau", &header, plateau));
    let mut kept = Vec::new();
    for (arm, name) in ARMS.iter().filter(|(a, _)| a.contains('_')) {
        let (init, after) = (survival(f, arm, true), survival(f, arm, false));
        let mut row = Vec::new();
        for (l, (i, a)) in init.iter().zip(&after).enumerate() {
            row.push(Measure::new(
                format!("large_survival_init_{arm}_b{}", l + 1),
                fixed(*i, 2),
            ));
            row.push(Measure::new(
                format!("large_survival_{arm}_b{}", l + 1),
                fixed(*a, 2),
            ));
        }
        kept.push((name.to_string(), row));
    }
    let blocks = f.setup.layers;
    let columns: Vec<String> = (1..=blocks)
        .flat_map(|l| [format!("block {l}, at init"), format!("block {l}, trained")])
        .collect();
    let header: Vec<&str> = ["arm"]
        .into_iter()
        .chain(columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("large_survival", &header, kept));
    m
}

/// Softmax's lowest mean accuracy over the cells.
pub fn softmax_min(f: &Findings) -> f64 {
    cells(f)
        .into_iter()
        .map(|c| mean_acc(f, "softmax", c))
        .fold(f64::INFINITY, f64::min)
}

/// The largest mean accuracy of any recurrent arm minus softmax's at `cell`.
pub fn over_softmax_at(f: &Findings, cell: (usize, usize)) -> f64 {
    ARMS[1..]
        .iter()
        .map(|(a, _)| gap(f, a, "softmax", cell))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Four times chance: a run that ends below it never learned the task.
pub fn chance_floor(f: &Findings) -> f64 {
    4.0 * 2.0 / f.setup.vocab as f64
}

/// Runs of `arms` at `cell` that ended at or above [`chance_floor`].
pub fn left_chance(f: &Findings, arms: &[(&str, &str)], cell: (usize, usize)) -> usize {
    arms.iter()
        .flat_map(|(a, _)| &f.cell(a, cell.0, cell.1).runs)
        .filter(|r| r.accuracy >= chance_floor(f))
        .count()
}

/// Runs of `arms` at `cell` that stopped on the plateau rule at its floor.
pub fn floor_stops(f: &Findings, arms: &[(&str, &str)], cell: (usize, usize)) -> usize {
    arms.iter()
        .flat_map(|(a, _)| &f.cell(a, cell.0, cell.1).runs)
        .filter(|r| r.stop == crate::train::Stop::Plateau(f.setup.training.plateau.min_steps))
        .count()
}

/// The recurrent arm with the highest mean accuracy at `cell`, and that mean.
pub fn best_recurrent(f: &Findings, cell: (usize, usize)) -> (String, f64) {
    ARMS[1..]
        .iter()
        .map(|(a, _)| (a.to_string(), mean_acc(f, a, cell)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("recurrent arms")
}
