//! When a recall run has decided: Zoology's stop (held-out accuracy above
//! 0.99) and a long flat window after leaving chance, with a cap. A run
//! still at chance at the cap *never learned*; one still rising at the cap
//! was *cut*, and says so.
//!
//! ```text
//! solved   acc_end > solved
//! flat     t_end ≥ window,  acc ≥ learned at every evaluation in (t_end − window, t_end],
//!          and the rise over that window (Plateau::rise) < tolerance
//! ```
//! Introduced in chapter 7.

use serde::{Deserialize, Serialize};

use super::Plateau;

/// A rule that ends a run, read off its held-out accuracy curve so far.
pub trait Rule {
    /// Whether the run ends after the evaluations `(steps, accuracy)`.
    fn ends(&self, steps: &[usize], accuracy: &[f64]) -> bool;
}

impl Rule for Plateau {
    fn ends(&self, steps: &[usize], accuracy: &[f64]) -> bool {
        self.holds(steps, accuracy)
    }
}

/// The decisive stop: solved, or flat for `window` steps after leaving chance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settled {
    /// Held-out accuracy above which the run is solved (Zoology's 0.99, strict).
    pub solved: f64,
    /// Held-out accuracy at or above which the run has left chance.
    pub learned: f64,
    /// Steps of the flat window.
    pub window: usize,
    /// The largest rise over the window that still counts as flat.
    pub tolerance: f64,
}

/// How a run under [`Settled`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Held-out accuracy passed [`Settled::solved`].
    Solved,
    /// Flat for the window after leaving chance: a plateau below `solved`.
    Flat,
    /// At the cap, left chance and still rising: the cap cut it.
    Cut,
    /// At the cap and still below [`Settled::learned`].
    NeverLearned,
}

impl Settled {
    /// Whether the curve is flat over the last `window` steps, all of them after leaving chance.
    fn flat(&self, steps: &[usize], accuracy: &[f64]) -> bool {
        let Some(&end) = steps.last() else {
            return false;
        };
        if end < self.window {
            return false;
        }
        let from = end - self.window;
        let left = steps
            .iter()
            .zip(accuracy)
            .filter(|&(&s, _)| s > from)
            .all(|(_, &a)| a >= self.learned);
        let window = Plateau {
            window: self.window as f64 / end as f64,
            tolerance: self.tolerance,
            min_steps: 0,
        };
        left && window.rise(steps, accuracy) < self.tolerance
    }

    /// How the run of curve `(steps, accuracy)` ended: `Solved` or `Flat` if
    /// the rule ended it, otherwise as it stands at its last evaluation (the cap).
    ///
    /// ```
    /// use attention_geometry::train::{Outcome, Settled};
    /// let rule = Settled { solved: 0.99, learned: 0.2, window: 400, tolerance: 0.01 };
    /// let steps: Vec<usize> = (1..=10).map(|i| i * 100).collect();
    /// let outcome = |acc: &[f64]| rule.outcome(&steps, acc);
    /// assert_eq!(outcome(&[0.05; 10]), Outcome::NeverLearned);
    /// assert_eq!(outcome(&[0.6; 10]), Outcome::Flat);
    /// let rising: Vec<f64> = (1..=10).map(|i| 0.09 * i as f64).collect();
    /// assert_eq!(outcome(&rising), Outcome::Cut);
    /// assert_eq!(rule.outcome(&steps[..3], &[0.5, 0.9, 0.995]), Outcome::Solved);
    /// ```
    pub fn outcome(&self, steps: &[usize], accuracy: &[f64]) -> Outcome {
        let last = accuracy.last().copied().unwrap_or(0.0);
        if last > self.solved {
            Outcome::Solved
        } else if self.flat(steps, accuracy) {
            Outcome::Flat
        } else if last < self.learned {
            Outcome::NeverLearned
        } else {
            Outcome::Cut
        }
    }
}

impl Rule for Settled {
    fn ends(&self, steps: &[usize], accuracy: &[f64]) -> bool {
        matches!(
            self.outcome(steps, accuracy),
            Outcome::Solved | Outcome::Flat
        )
    }
}
