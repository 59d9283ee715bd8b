//! How a trained arm's runs ended. A claim records, per trained arm, how
//! many runs hit the step cap before a plateau ([`super::Claim::trained`])
//! and how many never left chance ([`super::Claim::learned`]); an arm with
//! half or more of its runs ended so cannot decide the claim.
//!
//! The card says it in one sentence ([`sentence`]): "every run reached a
//! plateau before the step cap", or, when some arms have such runs, "every
//! other run left chance" above a table of those arms ([`table`]).

use serde::Serialize;

use super::Test;
use crate::edition::words::{Words, fill};

/// How a run ended without deciding anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// It hit the step cap before the plateau rule held.
    Capped,
    /// It ended at chance, never having learned the task.
    Stalled,
    /// The cap cut it in an arm-cell whose cap kept binding, and whose mean
    /// accuracy still rose when the cap last doubled: judged across caps.
    Rising,
}

impl Ending {
    /// The English the plateau tests' quantities use.
    fn words(self) -> &'static str {
        match self {
            Ending::Capped => "hit the step cap",
            Ending::Stalled => "never left chance",
            Ending::Rising => "were cut while the mean still rose with the cap",
        }
    }
}

/// `n` of the `runs` of `arm` ended so (`ending`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Runs {
    pub arm: String,
    pub ending: Ending,
    pub n: usize,
    pub runs: usize,
}

impl Runs {
    /// Whether fewer than half of the runs ended so: the arm can decide.
    pub fn decides(&self) -> bool {
        2 * self.n < self.runs.max(1)
    }

    /// The same as a test: the share ended so, predicted below ½.
    ///
    /// ```
    /// use attention_geometry::claim::plateau::{Ending, Runs};
    /// let r = Runs { arm: "KDA".into(), ending: Ending::Stalled, n: 4, runs: 6 };
    /// let t = r.test();
    /// assert_eq!(t.quantity, "share of KDA runs that never left chance (4 of 6)");
    /// assert_eq!(t.passes(), r.decides());
    /// ```
    pub fn test(&self) -> Test {
        Test::below(
            format!(
                "share of {} runs that {} ({} of {})",
                self.arm,
                self.ending.words(),
                self.n,
                self.runs
            ),
            self.n as f64 / self.runs.max(1) as f64,
            0.5,
            2,
        )
    }
}

/// The card's plateau sentence: per ending, "every run …" when no run
/// ended so, or "every other run …" when some did (the arms are in
/// [`table`]); `None` without rows.
///
/// ```
/// use attention_geometry::claim::plateau::{Ending, Runs, sentence};
/// use attention_geometry::edition::words::EN;
/// let row = |arm: &str, ending, n| Runs { arm: arm.into(), ending, n, runs: 6 };
/// let rows = [
///     row("linear", Ending::Capped, 0),
///     row("linear", Ending::Stalled, 0),
///     row("KDA", Ending::Stalled, 4),
/// ];
/// assert_eq!(
///     sentence(&rows, &EN).unwrap(),
///     "every run reached a plateau before the step cap; every other run left chance"
/// );
/// ```
pub fn sentence(rows: &[Runs], w: &Words) -> Option<String> {
    let parts: Vec<&str> = [
        (Ending::Capped, w.plateau_capped_all, w.plateau_capped_rest),
        (
            Ending::Stalled,
            w.plateau_stalled_all,
            w.plateau_stalled_rest,
        ),
        (Ending::Rising, w.plateau_rising_all, w.plateau_rising_rest),
    ]
    .into_iter()
    .filter_map(|(ending, all, rest)| {
        let of: Vec<&Runs> = rows.iter().filter(|r| r.ending == ending).collect();
        match (of.len(), of.iter().any(|r| r.n > 0)) {
            (0, _) => None,
            (_, false) => Some(all),
            (_, true) => Some(rest),
        }
    })
    .collect();
    (!parts.is_empty()).then(|| parts.join(w.semicolon))
}

/// The arms with runs that hit the cap or never left chance, as a table:
/// the arm, then how many of its runs ended each way; `None` when no run
/// ended so.
///
/// ```
/// use attention_geometry::claim::plateau::{Ending, Runs, table};
/// use attention_geometry::edition::words::EN;
/// let row = |arm: &str, ending, n| Runs { arm: arm.into(), ending, n, runs: 6 };
/// assert!(table(&[row("linear", Ending::Capped, 0)], &EN).is_none());
/// let shown = table(&[row("KDA", Ending::Capped, 1), row("KDA", Ending::Stalled, 4)], &EN);
/// assert!(shown.unwrap().contains("| KDA | 1 of 6 | 4 of 6 |"));
/// ```
pub fn table(rows: &[Runs], w: &Words) -> Option<String> {
    let mut arms: Vec<&str> = Vec::new();
    for r in rows.iter().filter(|r| r.n > 0) {
        if !arms.contains(&r.arm.as_str()) {
            arms.push(&r.arm);
        }
    }
    // a column per ending the rows record: runs at the cap and at chance
    // always, runs still rising across caps where a claim judges so
    let endings: Vec<Ending> = [Ending::Capped, Ending::Stalled, Ending::Rising]
        .into_iter()
        .filter(|&e| e != Ending::Rising || rows.iter().any(|r| r.ending == e))
        .collect();
    let cell = |arm: &str, ending| {
        rows.iter()
            .find(|r| r.arm == arm && r.ending == ending && r.n > 0)
            .map_or("—".to_string(), |r| {
                fill(w.n_of, &[&r.n.to_string(), &r.runs.to_string()])
            })
    };
    let table_rows: Vec<Vec<String>> = arms
        .iter()
        .map(|a| {
            std::iter::once(a.to_string())
                .chain(endings.iter().map(|&e| cell(a, e)))
                .collect()
        })
        .collect();
    let columns: Vec<&str> = std::iter::once(w.plateau_columns[0])
        .chain(endings.iter().map(|&e| w.plateau_columns[e as usize + 1]))
        .collect();
    (!arms.is_empty()).then(|| crate::measure::table(&columns, &table_rows))
}
