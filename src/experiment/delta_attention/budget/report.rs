//! What the decisive MQAR runs say, cell by cell: how each run ended, the
//! capacity (held-out accuracy where the run ended) with its spread over
//! seeds, and the learning speed (steps to 0.5 and to 0.9), reported apart.

use super::{Cell, Findings, Record};
use crate::measure::{Measure, fixed, grid, of_total, pm, sci, table_of};
use crate::stats::{Summary, median};
use crate::train::{Outcome, Plateau};

/// The arms in the order of [`super::Setup::arms`], with their labels.
pub const ARMS: [(&str, &str); 9] = [
    ("softmax", "softmax"),
    ("linear", "linear (fla)"),
    ("deltanet", "DeltaNet"),
    ("gdn_fla", "Gated DeltaNet, fla gates"),
    ("gdn_horizon", "Gated DeltaNet, horizon gates"),
    ("kda_fla", "KDA, fla gates"),
    ("kda_horizon", "KDA, horizon gates"),
    ("linear_norm", "linear (Zoology, normaliser)"),
    ("linear_sum", "linear (Zoology, no normaliser)"),
];

/// The label of `arm`.
///
/// # Panics
/// If the arm is unknown.
pub fn label(arm: &str) -> &'static str {
    ARMS.iter()
        .find(|(a, _)| *a == arm)
        .map(|(_, l)| *l)
        .unwrap_or_else(|| panic!("budget: unknown arm {arm}"))
}

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

/// The held-out accuracies where `runs` ended.
fn accs(runs: &[Record]) -> Vec<f64> {
    runs.iter().map(|r| r.accuracy).collect()
}

/// How many of `runs` ended as `outcome`.
fn count(runs: &[Record], outcome: Outcome) -> usize {
    runs.iter().filter(|r| r.outcome == outcome).count()
}

/// The tolerance of [`Rule::Within`]: three queries in a hundred per doubling.
pub const TOLERANCE: f64 = 0.03;

impl Cell {
    /// The seeds' held-out accuracies where their runs ended: the capacity.
    pub fn accs(&self) -> Vec<f64> {
        accs(&self.runs)
    }

    /// How many seeds ended as `outcome`.
    pub fn count(&self, outcome: Outcome) -> usize {
        count(&self.runs, outcome)
    }

    /// Whether the cap cut half or more of the runs while they still rose:
    /// the cap binds, and the runs go again at twice the cap.
    pub fn cap_binds(&self) -> bool {
        2 * self.count(Outcome::Cut) >= self.runs.len().max(1)
    }

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

    /// How many seeds ran to the cap (flat there under the cosine's last
    /// stretch, cut, or never learned).
    pub fn at_cap(&self) -> usize {
        self.runs.iter().filter(|r| r.steps() >= r.cap).count()
    }

    /// The median over seeds of the steps to held-out accuracy `level`, and
    /// how many seeds reached it; `None` if fewer than half did.
    pub fn steps_to(&self, level: f64) -> (Option<f64>, usize) {
        let reached: Vec<f64> = self
            .runs
            .iter()
            .filter_map(|r| r.steps_to(level))
            .map(|s| s as f64)
            .collect();
        let n = reached.len();
        ((2 * n >= self.runs.len()).then(|| median(&reached)), n)
    }
}

impl Findings {
    /// The cell of `arm` at `(state, pairs)`.
    ///
    /// # Panics
    /// If there is none.
    pub fn cell(&self, arm: &str, (state, pairs): (usize, usize)) -> &Cell {
        self.cells
            .iter()
            .find(|c| c.arm == arm && c.state == state && c.pairs == pairs)
            .unwrap_or_else(|| panic!("mqar-budget: no cell {arm} at K = {state}, {pairs} pairs"))
    }

    /// The cells `(K, pairs)` with pairs at most `K` (the state's width): where
    /// Zoology and the DeltaNet paper measured recall.
    pub fn within_state(&self) -> Vec<(usize, usize)> {
        self.setup
            .cells
            .iter()
            .copied()
            .filter(|&(k, p)| p <= k)
            .collect()
    }

    /// The cells with more pairs than `K`.
    pub fn above_state(&self) -> Vec<(usize, usize)> {
        self.setup
            .cells
            .iter()
            .copied()
            .filter(|&(k, p)| p > k)
            .collect()
    }
}

/// `a − b` in mean capacity at `cell`, with its 95% interval over seeds
/// ([`difference`]: the null a gap must clear).
pub fn gap(f: &Findings, a: &str, b: &str, cell: (usize, usize)) -> (f64, f64, f64) {
    difference(&f.cell(a, cell).accs(), &f.cell(b, cell).accs())
}

/// `mean(a) − mean(b)` with its 95% interval (normal, from both samples' spreads).
///
/// ```text
/// d = m_a − m_b,   half = 1.96 √(s_a²/n_a + s_b²/n_b)
/// ```
pub fn difference(a: &[f64], b: &[f64]) -> (f64, f64, f64) {
    let (sa, sb) = (Summary::of(a), Summary::of(b));
    let d = sa.mean - sb.mean;
    let half = 1.96 * (sa.sd.powi(2) / sa.n as f64 + sb.sd.powi(2) / sb.n as f64).sqrt();
    (d, d - half, d + half)
}

/// `K = 8, 16 pairs`
pub fn cell_name((state, pairs): (usize, usize)) -> String {
    format!("K = {state}, {pairs} pairs")
}

/// `k8p16` for `(8, 16)`: the cell's part of a measure's key.
fn key((state, pairs): (usize, usize)) -> String {
    format!("k{state}p{pairs}")
}

/// The median steps to `level` in words: "1 200", or "not reached by most seeds (3 of 8)".
fn steps_to(cell: &Cell, level: f64) -> String {
    match cell.steps_to(level) {
        (Some(s), _) => fixed(s, 0),
        (None, n) => format!("{}, fewer than half", of_total(n, cell.runs.len(), "seeds")),
    }
}

/// A difference with its 95% interval: `0.06 [-0.02, 0.13]`.
fn interval((d, lo, hi): (f64, f64, f64), digits: usize) -> String {
    let [d, lo, hi] = [d, lo, hi].map(|x| fixed(x, digits));
    format!("{d} [{lo}, {hi}]")
}

/// The numbers a page quotes: the setup, the tuning, the gaps the claims
/// read, and per cell a table of every arm's rate, capacity, how its runs
/// ended and its learning speed.
pub fn measures(f: &Findings) -> Vec<Measure> {
    let s = &f.setup;
    let widened = f
        .cells
        .iter()
        .filter(|c| c.tuning.len() > s.rates.len())
        .count();
    let tuning_runs: usize = f
        .cells
        .iter()
        .map(|c| c.tuning.iter().map(|(_, rs)| rs.len()).sum::<usize>())
        .sum();
    let reported: usize = f.cells.iter().map(|c| c.runs.len()).sum();
    let softmax_low = s
        .cells
        .iter()
        .map(|&c| Summary::of(&f.cell("softmax", c).accs()).mean)
        .fold(f64::INFINITY, f64::min);
    let within: Vec<&Cell> = f
        .within_state()
        .into_iter()
        .map(|c| f.cell("deltanet", c))
        .collect();
    let solved: usize = within.iter().map(|c| c.count(Outcome::Solved)).sum();
    let in_cells: usize = within.iter().map(|c| c.runs.len()).sum();
    let mut m = vec![
        Measure::new("budget_vocab", s.vocab.to_string()),
        Measure::new("budget_len", s.len.to_string()),
        Measure::new("budget_d", s.d.to_string()),
        Measure::new("budget_layers", s.layers.to_string()),
        Measure::new("budget_conv", s.conv.to_string()),
        Measure::new(
            "budget_cells",
            s.cells
                .iter()
                .map(|&c| cell_name(c))
                .collect::<Vec<_>>()
                .join("; "),
        ),
        Measure::new("budget_rates", grid(&s.rates)),
        Measure::new("budget_tune_seeds", s.tune_seeds.len().to_string()),
        Measure::new("budget_tuning_runs", tuning_runs.to_string()),
        Measure::new("budget_reported_runs", reported.to_string()),
        Measure::new(
            "budget_widened",
            of_total(widened, f.cells.len(), "arm-cells"),
        ),
        Measure::new("budget_softmax_low", fixed(softmax_low, 3)),
        Measure::new(
            "budget_delta_solved_within",
            of_total(solved, in_cells, "runs"),
        ),
        Measure::new(
            "budget_binds",
            of_total(
                f.cells.iter().filter(|c| c.cap_binds()).count(),
                f.cells.len(),
                "arm-cells",
            ),
        ),
        Measure::new(
            "budget_longest",
            f.cells
                .iter()
                .flat_map(|c| c.runs.iter().map(|r| r.cap))
                .max()
                .unwrap_or(s.cap)
                .to_string(),
        ),
        Measure::new("budget_doublings", super::DOUBLINGS.to_string()),
        Measure::new(
            "budget_doublings_done",
            // the longest cap on file is the first doubled this many times
            (f.cells
                .iter()
                .flat_map(|c| c.runs.iter().map(|r| r.cap))
                .max()
                .unwrap_or(s.cap)
                / s.cap)
                .ilog2()
                .to_string(),
        ),
        Measure::new("budget_cap", s.cap.to_string()),
        Measure::new("budget_tolerance", TOLERANCE.to_string()),
        Measure::new("budget_tune_cap", s.tune_cap.to_string()),
        Measure::new("budget_batch", s.batch.to_string()),
        Measure::new("budget_test", s.test.to_string()),
        Measure::new("budget_seeds", s.seeds.to_string()),
        Measure::new("budget_decay", s.weight_decay.to_string()),
        Measure::new("budget_window", fixed(100.0 * s.window, 0)),
        Measure::new("budget_core_hours", fixed(f.core_seconds / 3600.0, 1)),
        Measure::new(
            "budget_hash",
            f.code_hash.chars().take(12).collect::<String>(),
        ),
    ];
    for &cell in &s.cells {
        // what the page quotes: where the pairs fill or outgrow a state of 8
        if cell.0 == 8 && cell.1 >= 8 {
            for other in ["linear", "linear_norm"] {
                m.push(Measure::new(
                    format!("budget_gap_{other}_{}", key(cell)),
                    interval(gap(f, "deltanet", other, cell), 2),
                ));
            }
        }
        let rows = f
            .setup
            .arms()
            .into_iter()
            .map(|arm| {
                let (a, c) = (arm.name(), f.cell(&arm.name(), cell));
                let k = |what: &str| format!("budget_{what}_{a}_{}", key(cell));
                let ends = [
                    Outcome::Solved,
                    Outcome::Flat,
                    Outcome::Cut,
                    Outcome::NeverLearned,
                ]
                .map(|o| c.count(o).to_string())
                .join(" / ");
                let cap = c.runs.iter().map(|r| r.cap).max().unwrap_or(s.cap);
                let row = vec![
                    Measure::new(k("rate"), sci(c.lr, 1)),
                    Measure::new(k("cap"), cap.to_string()),
                    Measure::new(k("capacity"), pm(Summary::of(&c.accs()), 2)),
                    Measure::new(k("ends"), ends),
                    Measure::new(k("half"), steps_to(c, 0.5)),
                    Measure::new(k("ninety"), steps_to(c, 0.9)),
                ];
                (label(&a).to_string(), row)
            })
            .collect();
        m.extend(table_of(
            &format!("budget_table_{}", key(cell)),
            &[
                "arm",
                "rate",
                "cap",
                "accuracy",
                "solved / flat / cut / never",
                "steps to 0.5",
                "steps to 0.9",
            ],
            rows,
        ));
    }
    let bound: Vec<&Cell> = f.cells.iter().filter(|c| c.cap_binds()).collect();
    for (key, rule) in [
        ("budget_stopped_no_rise", Rule::NoRise),
        ("budget_stopped_within", Rule::Within(TOLERANCE)),
    ] {
        let stopped = bound.iter().filter(|c| c.settled(rule)).count();
        m.push(Measure::new(
            key,
            of_total(stopped, bound.len(), "arm-cells"),
        ));
    }
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
