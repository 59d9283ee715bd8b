//! How a trained arm's runs ended. A claim records, per trained arm, how
//! many runs hit the step cap before a plateau ([`super::Claim::trained`])
//! and how many never left chance ([`super::Claim::learned`]); an arm with
//! half or more of its runs ended so cannot decide the claim.
//!
//! The card says it in one sentence that names only the arms with such
//! runs ([`sentence`]): "every run reached a plateau before the step cap",
//! or "KDA: 4 of 6 runs never left chance; every other run left chance".

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
}

impl Ending {
    /// The English the plateau tests' quantities use.
    fn words(self) -> &'static str {
        match self {
            Ending::Capped => "hit the step cap",
            Ending::Stalled => "never left chance",
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

    /// `arm: n of runs runs …`, in the edition's words.
    pub fn said(&self, w: &Words) -> String {
        let template = match self.ending {
            Ending::Capped => w.plateau_capped_some,
            Ending::Stalled => w.plateau_stalled_some,
        };
        fill(
            template,
            &[&self.n.to_string(), &self.runs.to_string(), &self.arm],
        )
    }
}

/// The card's plateau sentence: per ending, the arms with such runs and
/// "every other run …", or "every run …" when no run ended so; `None`
/// without rows.
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
///     "every run reached a plateau before the step cap; \
///      KDA: 4 of 6 runs never left chance, and every other run left chance"
/// );
/// ```
pub fn sentence(rows: &[Runs], w: &Words) -> Option<String> {
    let parts: Vec<String> = [
        (Ending::Capped, w.plateau_capped_all, w.plateau_capped_rest),
        (
            Ending::Stalled,
            w.plateau_stalled_all,
            w.plateau_stalled_rest,
        ),
    ]
    .into_iter()
    .filter_map(|(ending, all, rest)| {
        let of: Vec<&Runs> = rows.iter().filter(|r| r.ending == ending).collect();
        let some: Vec<String> = of.iter().filter(|r| r.n > 0).map(|r| r.said(w)).collect();
        match (of.len(), some.len()) {
            (0, _) => None,
            (_, 0) => Some(all.to_string()),
            (total, k) if k == total => Some(some.join(w.semicolon)),
            _ => Some(format!("{}{}{rest}", some.join(w.semicolon), w.comma_and)),
        }
    })
    .collect();
    (!parts.is_empty()).then(|| parts.join(w.semicolon))
}
