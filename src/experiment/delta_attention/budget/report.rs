//! What the decisive MQAR runs say, cell by cell: how each run ended, the
//! capacity (held-out accuracy where the run ended) with its spread over
//! seeds, and the learning speed (steps to 0.5 and to 0.9), reported apart.

use super::{Cell, Findings, Record};
use crate::measure::{Measure, fixed, grid, of_total, pm, sci, table_of};
use crate::stats::{Summary, median};
use crate::train::Outcome;

pub use super::caps::{Rule, TOLERANCE};

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

/// The held-out accuracies where `runs` ended.
pub(super) fn accs(runs: &[Record]) -> Vec<f64> {
    runs.iter().map(|r| r.accuracy).collect()
}

/// How many of `runs` ended as `outcome`.
pub(super) fn count(runs: &[Record], outcome: Outcome) -> usize {
    runs.iter().filter(|r| r.outcome == outcome).count()
}

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
pub(super) fn key((state, pairs): (usize, usize)) -> String {
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
pub(super) fn interval((d, lo, hi): (f64, f64, f64), digits: usize) -> String {
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
    m.extend(super::caps::measures(f));
    m
}
