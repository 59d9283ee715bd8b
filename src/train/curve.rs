//! Curves of runs that stop at different steps: a run stopped at its
//! plateau keeps its last value until the longest run's end, so that runs
//! can be averaged per evaluation. Introduced in chapter 3.
//!
//! ```text
//! held(v, n)[i] = v[min(i, len(v) − 1)]
//! ```

use super::History;

/// `values` (one per evaluation) extended to `len` entries with its last value.
///
/// # Panics
/// If `values` is empty.
///
/// ```
/// use attention_geometry::train::held;
/// assert_eq!(held(&[0.1, 0.5], 4), vec![0.1, 0.5, 0.5, 0.5]);
/// assert_eq!(held(&[0.1, 0.5, 0.7], 2), vec![0.1, 0.5]);
/// ```
pub fn held(values: &[f64], len: usize) -> Vec<f64> {
    let last = *values.last().expect("held: an empty curve");
    (0..len)
        .map(|i| values.get(i).copied().unwrap_or(last))
        .collect()
}

impl History {
    /// The last evaluated step: the plateau's step, or the cap.
    pub fn end(&self) -> usize {
        *self.steps.last().expect("at least one evaluation")
    }

    /// Test accuracy at `step`: the last evaluation at or before it.
    pub fn accuracy_at(&self, step: usize) -> f64 {
        let k = self.steps.iter().rposition(|&s| s <= step).unwrap_or(0);
        self.accuracy[k]
    }
}

/// How many of `histories` hit their step cap before a plateau.
pub fn capped<'a>(histories: impl IntoIterator<Item = &'a History>) -> usize {
    histories.into_iter().filter(|h| h.stop.capped()).count()
}
