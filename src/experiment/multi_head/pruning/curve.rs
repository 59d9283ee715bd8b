//! The pruning loop both models share (chapter 3): heads removed least
//! important first, `step` at a time, and its one reading, how many heads go
//! before the task drops. What counts as the task, and what orders the heads,
//! is each model's own (the encoder: paraphrase retrieval and word sense,
//! ordered by single-head ablation; the decoder: next-token agreement and loss,
//! ordered by a first-order direct score).
//!
//! ```text
//! levels    K_0 = ∅, K_1 = order[..step], K_2 = order[..2·step], …, the last every head
//! prunable  the largest |K_j| with task(K_i) ≥ floor at every level i ≤ j   (0 if none)
//! ```
//!
//! Introduced in chapter 3.

/// A head, `(layer, head)`.
pub type Head = (usize, usize);

/// The removal sets of one order, `K_0 … K_m` (see the module docs).
pub fn levels(order: &[Head], step: usize) -> Vec<Vec<Head>> {
    assert!(step > 0, "levels: a step of 0 heads never ends");
    let mut counts: Vec<usize> = (0..=order.len()).step_by(step).collect();
    if counts.last() != Some(&order.len()) {
        counts.push(order.len());
    }
    counts.into_iter().map(|k| order[..k].to_vec()).collect()
}

/// The most heads removed with the task at or above `floor` at that level and
/// every level before it: `(heads removed, task)` per level, in order.
pub fn prunable(curve: impl IntoIterator<Item = (usize, f64)>, floor: f64) -> usize {
    curve
        .into_iter()
        .take_while(|(_, task)| *task >= floor)
        .last()
        .map_or(0, |(k, _)| k)
}
