//! When a trained arm has trained long enough: a plateau rule written in
//! code, applied to the held-out accuracy curve, with a step cap. A run that
//! reaches the cap before the rule holds is *capped*, and says so.
//!
//! ```text
//! t_end = last evaluated step,  t_0 = (1 − window) · t_end
//! rise  = mean acc over the last ⅕ of the window − mean acc over the ⅕ before t_0
//! plateau ⇔ t_end ≥ min_steps and rise < tolerance
//! ```
//! Introduced in chapter 3; every trained arm of chapters 3–7 uses it.

use serde::{Deserialize, Serialize};

/// The plateau rule: over the last `window` share of training, held-out
/// accuracy rose by less than `tolerance`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plateau {
    /// Share of training, at its end, over which the rise is measured.
    pub window: f64,
    /// The largest rise that still counts as a plateau.
    pub tolerance: f64,
    /// No plateau is declared before this step.
    pub min_steps: usize,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stop {
    /// It ran a fixed number of steps; no plateau rule was applied.
    Fixed,
    /// The plateau rule held at this step.
    Plateau(usize),
    /// It reached the step cap before the plateau rule held.
    Capped,
}

impl Stop {
    /// Whether the run hit its cap before a plateau.
    pub fn capped(&self) -> bool {
        *self == Stop::Capped
    }
}

impl Plateau {
    /// The book's rule: accuracy rose by less than 0.01 over the last fifth of training.
    pub const BOOK: Plateau = Plateau {
        window: 0.2,
        tolerance: 0.01,
        min_steps: 0,
    };

    /// The rule with no plateau declared before `steps`.
    pub fn after(self, steps: usize) -> Plateau {
        Plateau {
            min_steps: steps,
            ..self
        }
    }

    /// The rise of `accuracy` over the last `window` of training (see the module docs).
    ///
    /// # Panics
    /// If `steps` and `accuracy` differ in length or are empty.
    ///
    /// ```
    /// use attention_geometry::train::Plateau;
    /// let steps: Vec<usize> = (0..=10).map(|i| i * 100).collect();
    /// let rising: Vec<f64> = (0..=10).map(|i| i as f64 / 10.0).collect();
    /// let flat = vec![0.9; 11];
    /// assert!(Plateau::BOOK.rise(&steps, &rising) > 0.1);
    /// assert!(Plateau::BOOK.holds(&steps, &flat));
    /// assert!(!Plateau::BOOK.holds(&steps, &rising));
    /// ```
    pub fn rise(&self, steps: &[usize], accuracy: &[f64]) -> f64 {
        assert!(
            !steps.is_empty() && steps.len() == accuracy.len(),
            "Plateau::rise: {} steps but {} accuracies",
            steps.len(),
            accuracy.len()
        );
        let end = *steps.last().expect("non-empty") as f64;
        let start = (1.0 - self.window) * end;
        let part = self.window * end / 5.0;
        let mean_near = |to: f64| {
            // evaluations in (to − part, to], or the last one at or before `to`
            let inside: Vec<f64> = steps
                .iter()
                .zip(accuracy)
                .filter(|&(&s, _)| (s as f64) <= to && (s as f64) > to - part)
                .map(|(_, &a)| a)
                .collect();
            match inside.is_empty() {
                false => inside.iter().sum::<f64>() / inside.len() as f64,
                true => steps
                    .iter()
                    .zip(accuracy)
                    .filter(|&(&s, _)| s as f64 <= to)
                    .map(|(_, &a)| a)
                    .next_back()
                    .unwrap_or(accuracy[0]),
            }
        };
        mean_near(end) - mean_near(start)
    }

    /// Whether the plateau rule holds for the curve so far.
    pub fn holds(&self, steps: &[usize], accuracy: &[f64]) -> bool {
        steps.last().is_some_and(|&s| s >= self.min_steps)
            && self.rise(steps, accuracy) < self.tolerance
    }
}
