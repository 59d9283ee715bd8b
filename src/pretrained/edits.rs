//! One input row edited, many times over: the fast paths behind
//! [`Transformer::run_edits`].
//!
//! ```text
//! edit (j, r):   x' = x with row j ← r          (x: the stream entering block 0)
//! encoder        every x' stacked, (b·n, d), one pass; each copy attends only to itself
//! decoder        positions < j cannot see row j (causal mask): run the clean x once
//!                into a K/V cache, then per edit only rows j..n after the cache cut at j
//! ```
//!
//! Introduced in chapter 4.

use nalgebra::{DMatrix, DVector};

use super::intervention::run_parts;
use super::minilm::Minilm;
use super::smollm2::SmolLm2;
use super::smollm2::forward::{self, Cache, Options};
use super::transformer::Transformer;

/// Each edit run whole through every block: the definition the fast paths
/// below must equal, and the trait's default.
///
/// # Shapes
/// `x: (n, d)` → one `(n, d)` per edit.
pub fn whole(
    m: &(impl Transformer + ?Sized),
    x: &DMatrix<f64>,
    edits: &[(usize, DVector<f64>)],
) -> Vec<DMatrix<f64>> {
    edits
        .iter()
        .map(|(j, r)| {
            let mut y = x.clone();
            y.set_row(*j, &r.transpose());
            m.run_from(0, y, &[]).output
        })
        .collect()
}

/// The encoder's edits as one stack through every layer.
///
/// # Shapes
/// `x: (n, 384)` → one `(n, 384)` per edit.
pub fn minilm(m: &Minilm, x: &DMatrix<f64>, edits: &[(usize, DVector<f64>)]) -> Vec<DMatrix<f64>> {
    let (n, b) = (x.nrows(), edits.len());
    if b == 0 {
        return Vec::new();
    }
    let mut stack = DMatrix::zeros(n * b, x.ncols());
    for (c, (j, row)) in edits.iter().enumerate() {
        stack.rows_mut(c * n, n).copy_from(x);
        stack.row_mut(c * n + j).copy_from(&row.transpose());
    }
    let parts = run_parts(&m.weights, 0, stack, n, &vec![vec![]; b]);
    let out = &parts.last().expect("at least one layer").output;
    (0..b).map(|c| out.rows(c * n, n).into_owned()).collect()
}

/// The decoder's edits, each rerunning positions `j..n` after the clean prefix.
///
/// # Shapes
/// `x: (n, 576)` → one `(n, 576)` per edit (rows `< j` are the clean pass's).
pub fn smollm2(
    m: &SmolLm2,
    x: &DMatrix<f64>,
    edits: &[(usize, DVector<f64>)],
) -> Vec<DMatrix<f64>> {
    let (w, n) = (&m.weights, x.nrows());
    let x = x.map(|v| v as f32);
    let mut clean = Cache::new(&w.config);
    let out = forward::run_from(w, 0, x.clone(), &mut clean, Options::default()).0;
    edits
        .iter()
        .map(|(j, row)| {
            let mut tail = x.rows(*j, n - j).into_owned();
            tail.row_mut(0)
                .copy_from(&row.transpose().map(|v| v as f32));
            let tail =
                forward::run_from(w, 0, tail, &mut clean.truncated(*j), Options::default()).0;
            let mut y = out.clone();
            y.rows_mut(*j, n - j).copy_from(&tail);
            y.map(f64::from)
        })
        .collect()
}

/// The decoder's next-token distribution from one final state.
///
/// # Shapes
/// `state: (576)` → `(vocabulary)`, summing to 1.
pub fn next_token(m: &SmolLm2, state: &DVector<f64>) -> Vec<f64> {
    let last = DMatrix::from_fn(1, state.len(), |_, c| state[c] as f32);
    forward::log_softmax(forward::logits(&m.weights, &last).as_slice())
        .into_iter()
        .map(f64::exp)
        .collect()
}
