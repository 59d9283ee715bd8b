//! The numbers chapter 7's "Associative recall where capacity binds" quotes
//! and its claims, read from the committed findings; predictions written from
//! the literature before the run (Arora et al. 2023: attention-free mixers
//! fall behind attention as the pairs outgrow the state; Yang et al. 2024:
//! DeltaNet recalls more than linear attention at equal state).

use super::{Findings, findings};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, pm, table_of};
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

fn label(arm: &str) -> &'static str {
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
        Measure::new("large_batch", s.batch.to_string()),
        Measure::new("large_test", s.test.to_string()),
        Measure::new("large_cap", s.cap.to_string()),
        Measure::new("large_min_steps", s.plateau.min_steps.to_string()),
        Measure::new("large_every", s.every.to_string()),
        Measure::new("large_rates", rates.join(", ")),
        Measure::new("large_tune_steps", s.tune_steps.to_string()),
        Measure::new("large_tune_seed", s.tune_seed.to_string()),
        Measure::new("large_seeds", s.seeds.to_string()),
        Measure::new("large_keys", (s.vocab / 2 - 1).to_string()),
        Measure::new("large_chance", fixed(2.0 / s.vocab as f64, 3)),
        Measure::new("large_bind", cell_name(bind)),
        Measure::new("large_free", cell_name(free)),
        Measure::new("large_minutes", fixed(f.seconds / 60.0, 0)),
        Measure::new(
            "large_hash",
            f.code_hash.chars().take(12).collect::<String>(),
        ),
        Measure::new(
            "large_delta_gap_bind",
            fixed(gap(f, "deltanet", "linear", bind), 2),
        ),
        Measure::new(
            "large_delta_gap_free",
            fixed(gap(f, "deltanet", "linear", free), 2),
        ),
        Measure::new("large_softmax_min", fixed(softmax_min(f), 2)),
        Measure::new("large_recurrent_max", fixed(recurrent_max(f), 3)),
        Measure::new("large_recurrent_stop", recurrent_stop(f).to_string()),
        Measure::new(
            "large_softmax_lead_bind",
            fixed(-over_softmax_at(f, bind), 2),
        ),
        Measure::new(
            "large_softmax_lead_free",
            fixed(-over_softmax_at(f, free), 2),
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
                    "{} of {} ({} steps)",
                    cell.capped(),
                    cell.runs.len(),
                    fixed(crate::stats::mean(&steps), 0)
                ),
            ));
        }
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

/// The highest mean accuracy of any recurrent arm in any cell.
pub fn recurrent_max(f: &Findings) -> f64 {
    cells(f)
        .into_iter()
        .flat_map(|c| ARMS[1..].iter().map(move |(a, _)| mean_acc(f, a, c)))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The latest step at which a recurrent run stopped.
pub fn recurrent_stop(f: &Findings) -> usize {
    f.cells
        .iter()
        .filter(|c| c.arm != "softmax")
        .flat_map(|c| c.runs.iter().map(|r| r.curve.last().map_or(0, |&(t, _)| t)))
        .max()
        .unwrap_or(0)
}

/// The largest mean accuracy of any recurrent arm minus softmax's at `cell`.
fn over_softmax_at(f: &Findings, cell: (usize, usize)) -> f64 {
    ARMS[1..]
        .iter()
        .map(|(a, _)| gap(f, a, "softmax", cell))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Runs of `arm` that ended below four times chance: they never learned the
/// task (the small setting's "near chance", 0.25 at 16 values, likewise).
pub fn stalled(f: &Findings, arm: &str) -> (usize, usize) {
    let floor = 4.0 * 2.0 / f.setup.vocab as f64;
    f.cells
        .iter()
        .filter(|c| c.arm == arm)
        .fold((0, 0), |(s, n), cell| {
            let low = cell.runs.iter().filter(|r| r.accuracy < floor).count();
            (s + low, n + cell.runs.len())
        })
}

/// Each arm's plateau status: capped runs, and runs that stalled at chance.
fn trained(mut c: Claim, f: &Findings, arms: &[&str]) -> Claim {
    for arm in arms {
        let (n, runs) = capped(f, arm);
        let (low, _) = stalled(f, arm);
        c = c
            .trained(label(arm), n, runs)
            .learned(label(arm), low, runs);
    }
    c
}

/// The section's claims.
pub fn claims() -> Vec<Claim> {
    let f = findings();
    let s = &f.setup;
    let (bind, free) = bind_and_free(f);
    let setting = format!(
        "MQAR at the larger setting (a long experiment, `{}`): vocab {}, T = {}, {} pre-norm blocks \
         as fla builds them (short convolution of width {}, output RMSNorm and gate), d = {}, no MLP; \
         cells {}; every arm's rate the best of {:?} by held-out loss after {} steps on seed {}; \
         {} seeds, batches of {}, trained until held-out accuracy rose < 0.01 over the last fifth \
         (not before step {}, cap {})",
        super::COMMAND,
        s.vocab,
        s.len,
        s.layers,
        s.conv,
        s.d,
        cells(f)
            .into_iter()
            .map(cell_name)
            .collect::<Vec<_>>()
            .join("; "),
        s.rates,
        s.tune_steps,
        s.tune_seed,
        s.seeds,
        s.batch,
        s.plateau.min_steps,
        s.cap
    );
    let over_linear = |arm: &str| {
        Test::above(
            format!(
                "{} − linear mean accuracy at {}",
                label(arm),
                cell_name(bind)
            ),
            gap(f, arm, "linear", bind),
            0.05,
            2,
        )
    };
    let mut delta = Claim::empirical(
        "large-delta-recalls-more",
        "the delta correction lets a fixed-size state hold more associations than additive writes",
    )
    .evidence(Evidence::Toy)
    .core(over_linear("deltanet"))
    .scope(Test::above(
        format!("DeltaNet − linear mean accuracy at {}", cell_name(free)),
        gap(f, "deltanet", "linear", free),
        -0.05,
        2,
    ))
    .default_choice("the delta rule without decay (DeltaNet)");
    for arm in ["gdn_fla", "gdn_horizon", "kda_fla", "kda_horizon"] {
        delta = delta.under(
            format!("the delta rule with decay: {}", label(arm)),
            vec![over_linear(arm)],
        );
    }
    let delta = trained(
        delta
            .replication(
                "Yang et al. 2024",
                "DeltaNet against linear attention on Zoology's MQAR in fla's layers, at equal \
                 state, scaled to this machine",
                Test::above(
                    "smallest DeltaNet − linear mean accuracy over the cells",
                    cells(f)
                        .into_iter()
                        .map(|c| gap(f, "deltanet", "linear", c))
                        .fold(f64::INFINITY, f64::min),
                    0.0,
                    2,
                ),
            )
            .setting(setting.clone()),
        f,
        &[
            "linear",
            "deltanet",
            "gdn_fla",
            "gdn_horizon",
            "kda_fla",
            "kda_horizon",
        ],
    );
    let ceiling = |gates: &str| {
        Test::below(
            format!("largest margin of a recurrent arm ({gates} gates) over softmax in any cell"),
            over_softmax(f, &recurrent(gates)),
            0.05,
            2,
        )
    };
    let softmax_low = softmax_min(f);
    let top = trained(
        Claim::empirical(
            "large-softmax-ceiling",
            "softmax attention, whose cache grows with T, is the ceiling of recall",
        )
        .evidence(Evidence::Toy)
        .core(ceiling("fla"))
        .scope(Test::above(
            "softmax's lowest mean accuracy",
            softmax_low,
            0.9,
            2,
        ))
        .default_choice("fla's gate initialisation")
        .under(
            format!("gates initialised for T = {}", s.len),
            vec![ceiling("horizon")],
        )
        .replication(
            "Arora et al. 2023",
            format!(
                "Zoology's MQAR: attention's lead over linear attention grows as the pairs \
                 outgrow the state, {} → {}",
                cell_name(free),
                cell_name(bind)
            ),
            Test::above(
                "(softmax − linear) where capacity binds minus where it does not",
                gap(f, "softmax", "linear", bind) - gap(f, "softmax", "linear", free),
                0.0,
                2,
            ),
        )
        .setting(setting),
        f,
        &ARMS.map(|(a, _)| a),
    );
    vec![delta, top]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::Stop;

    /// What the section's prose says in words, checked on the committed findings.
    #[test]
    fn the_prose_describes_the_findings() {
        let f = findings();
        let (bind, free) = bind_and_free(f);
        // every arm ran every seed in every cell
        for (arm, _) in ARMS {
            for c in cells(f) {
                assert_eq!(f.cell(arm, c.0, c.1).runs.len() as u64, f.setup.seeds);
            }
        }
        // softmax recalls in both cells (at least 0.9) and leads every recurrent arm in both
        assert!(softmax_min(f) > 0.9);
        assert!(over_softmax_at(f, bind) < -0.5 && over_softmax_at(f, free) < -0.5);
        // no recurrent arm learns in either cell: every mean below 0.1
        assert!(recurrent_max(f) < 0.1);
        // DeltaNet − linear is noise around zero in both cells
        for c in [bind, free] {
            assert!(gap(f, "deltanet", "linear", c).abs() < 0.05);
        }
        // every recurrent run stopped on the plateau rule (none hit the cap),
        // none later than the measure says, and none above 0.1 at its end
        for c in f.cells.iter().filter(|c| c.arm != "softmax") {
            for r in &c.runs {
                assert!(
                    matches!(r.stop, Stop::Plateau(_)),
                    "{} seed {}",
                    c.arm,
                    r.seed
                );
                assert!(r.accuracy < 0.1, "{} seed {}", c.arm, r.seed);
            }
        }
        assert!(recurrent_stop(f) < f.setup.cap);
        // softmax's runs stopped on the plateau rule too, none capped; each sat
        // near chance up to step 700, one still at step 1000, and ended near 1
        let at = |r: &super::super::Record, step: usize| {
            r.curve
                .iter()
                .find(|&&(t, _)| t == step)
                .expect("evaluated")
                .1
        };
        let mut late = 0;
        for c in f.cells.iter().filter(|c| c.arm == "softmax") {
            assert_eq!(c.capped(), 0);
            for r in &c.runs {
                assert!(at(r, 700) < 0.1 && r.accuracy > 0.9, "seed {}", r.seed);
                late += usize::from(at(r, 1000) < 0.1);
            }
        }
        assert!(late >= 1);
        // linear attention is at chance in both cells (below 5 × chance)
        let chance = 2.0 / f.setup.vocab as f64;
        for c in [bind, free] {
            assert!(mean_acc(f, "linear", c) < 5.0 * chance);
        }
    }
}
