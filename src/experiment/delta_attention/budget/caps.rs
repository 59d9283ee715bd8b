//! Arm-cells the cap kept cutting, judged across caps: the rise of an
//! arm-cell's mean accuracy over the cap's last doubling, the rules that read
//! it, and the measures that show both (the caps table, each claim's verdict
//! under each rule, the runs' late rises).

use super::report::{accs, count, difference, interval, key, label};
use super::{Cell, Findings, Record};
use crate::measure::{Measure, fixed, of_total, table_of};
use crate::stats::Summary;
use crate::train::{Outcome, Plateau};

/// When an arm-cell whose runs the cap cut at every cap has reached its
/// plateau, judged across caps from the rise of its mean accuracy over the
/// cap's last doubling ([`Cell::rise`]). Under the cosine stretched over each
/// cap, a run's own rise over its last 30% barely changes as the cap doubles,
/// so a run ends flat only by solving; the arm-cell's mean is what a doubling
/// can still move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// No rise the seeds can detect: the lower 95% bound is at most 0 (the default).
    NoRise,
    /// Equivalence: the upper 95% bound is below the tolerance.
    Within(f64),
}

/// The tolerance of [`Rule::Within`]: three queries in a hundred per doubling.
pub const TOLERANCE: f64 = 0.03;

impl Cell {
    /// The change in mean held-out accuracy over the cap's last doubling,
    /// with its 95% interval ([`difference`]); `None` if the cap never doubled.
    pub fn rise(&self) -> Option<(f64, f64, f64)> {
        let (_, before) = self.shorter.last()?;
        Some(difference(&self.accs(), &accs(before)))
    }

    /// Whether the arm-cell, judged across caps, had stopped rising under
    /// `rule`; an arm-cell the cap does not bind is judged run by run, and
    /// one the cap never doubled for has not stopped.
    pub fn settled(&self, rule: Rule) -> bool {
        self.rise().is_some_and(|(_, lo, hi)| match rule {
            Rule::NoRise => lo <= 0.0,
            Rule::Within(tolerance) => hi < tolerance,
        })
    }
}

/// The measures of the judgement across caps: how many bound arm-cells
/// stopped under each rule, fla's linear attention's late rises at 16 pairs,
/// the caps table and the rules table.
pub fn measures(f: &Findings) -> Vec<Measure> {
    let bound: Vec<&Cell> = f.cells.iter().filter(|c| c.cap_binds()).collect();
    let mut m: Vec<Measure> = [
        ("budget_stopped_no_rise", Rule::NoRise),
        ("budget_stopped_within", Rule::Within(TOLERANCE)),
    ]
    .into_iter()
    .map(|(key, rule)| {
        let stopped = bound.iter().filter(|c| c.settled(rule)).count();
        Measure::new(key, of_total(stopped, bound.len(), "arm-cells"))
    })
    .collect();
    m.push(Measure::new(
        "budget_late_rise_linear_k8p16",
        late_rises(f, f.cell("linear", (8, 16))),
    ));
    m.extend(caps_table(f));
    m.extend(rules_table(f));
    m
}

/// A run's rise over the last [`super::Setup::window`] share of its cap, as
/// the flat rule reads it ([`Plateau::rise`]).
fn late_rise(s: &super::Setup, r: &Record) -> f64 {
    let (steps, accs): (Vec<usize>, Vec<f64>) = r.curve.iter().copied().unzip();
    let end = steps.last().map_or(1, |&e| e.max(1)) as f64;
    let window = Plateau {
        window: s.window * r.cap as f64 / end,
        tolerance: s.tolerance,
        min_steps: 0,
    };
    window.rise(&steps, &accs)
}

/// The range of the runs' late rises ([`late_rise`]) over every cap `cell`
/// ran: `0.009 to 0.074`.
fn late_rises(f: &Findings, cell: &Cell) -> String {
    let rises: Vec<f64> = cell
        .shorter
        .iter()
        .flat_map(|(_, runs)| runs)
        .chain(&cell.runs)
        .map(|r| late_rise(&f.setup, r))
        .collect();
    let (lo, hi) = rises
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    format!("{} to {}", fixed(lo, 3), fixed(hi, 3))
}

/// Each claim's verdict with the arm-cells the cap kept cutting judged under
/// [`Rule::NoRise`] (the default) and under [`Rule::Within`] [`TOLERANCE`].
fn rules_table(f: &Findings) -> Vec<Measure> {
    let [weak, strict] =
        [Rule::NoRise, Rule::Within(TOLERANCE)].map(|r| super::claims::judged(f, r));
    let rows = weak
        .iter()
        .zip(&strict)
        .map(|(w, s)| {
            let k = |what: &str| format!("budget_rules_{}_{what}", w.id);
            let row = vec![
                Measure::new(k("no_rise"), w.verdict().to_string()),
                Measure::new(k("within"), s.verdict().to_string()),
            ];
            (format!("`ch07.{}`", w.id), row)
        })
        .collect();
    let within = format!("rise < {TOLERANCE}");
    table_of("budget_rules_table", &["claim", "no rise", &within], rows)
}

/// Every arm-cell the cap bound, a row each: at every cap it ran, the mean
/// held-out accuracy over its seeds and how many of its runs the cap cut,
/// `0.950 (4/8)`, `—` at a cap it did not run; then the rise over the last
/// doubling with its 95% interval, and whether it had stopped rising under
/// [`Rule::NoRise`] and under [`Rule::Within`] [`TOLERANCE`] (`run by run`
/// where the cap no longer bound at its last cap).
fn caps_table(f: &Findings) -> Vec<Measure> {
    let s = &f.setup;
    let caps: Vec<usize> = (0..=super::DOUBLINGS).map(|i| s.cap << i).collect();
    let rows = f
        .cells
        .iter()
        .filter(|c| !c.shorter.is_empty())
        .map(|c| {
            let last = c.runs.first().map_or(s.cap, |r| r.cap);
            let stages: Vec<(usize, &[Record])> = c
                .shorter
                .iter()
                .map(|(cap, runs)| (*cap, &runs[..]))
                .chain(std::iter::once((last, &c.runs[..])))
                .collect();
            let k =
                |what: &str| format!("budget_caps_{}_{}_{what}", c.arm, key((c.state, c.pairs)));
            let mut row = vec![
                Measure::new(k("state"), c.state.to_string()),
                Measure::new(k("pairs"), c.pairs.to_string()),
            ];
            row.extend(caps.iter().map(|&cap| {
                let value = stages.iter().find(|(at, _)| *at == cap).map_or(
                    "—".to_string(),
                    |(_, runs)| {
                        let mean = fixed(Summary::of(&accs(runs)).mean, 3);
                        format!("{mean} ({}/{})", count(runs, Outcome::Cut), runs.len())
                    },
                );
                Measure::new(k(&cap.to_string()), value)
            }));
            let (d, lo, hi) = c.rise().expect("a cell with shorter caps has a rise");
            // the rules judge only an arm-cell the cap still binds at its last cap
            let rule = |r| {
                match (c.cap_binds(), c.settled(r)) {
                    (false, _) => "run by run",
                    (true, true) => "stopped",
                    (true, false) => "rising",
                }
                .to_string()
            };
            row.extend([
                Measure::new(k("rise"), interval((d, lo, hi), 3)),
                Measure::new(k("no_rise"), rule(Rule::NoRise)),
                Measure::new(k("within"), rule(Rule::Within(TOLERANCE))),
            ]);
            (label(&c.arm).to_string(), row)
        })
        .collect();
    let within = format!("rise < {TOLERANCE}");
    let header: Vec<String> = ["arm", "K = V", "pairs"]
        .map(String::from)
        .into_iter()
        .chain(caps.iter().map(|c| format!("{c} steps")))
        .chain([
            "last doubling's rise [95%]".to_string(),
            "no rise".to_string(),
            within,
        ])
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    table_of("budget_caps_table", &header, rows)
}
