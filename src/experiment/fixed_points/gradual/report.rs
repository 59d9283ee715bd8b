//! The numbers the along-training section quotes.

use super::verdict::Quantity;
use super::{BOOK, Swap, book};
use crate::measure::Measure;

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let _ = (book(), BOOK, Swap::ALL, Quantity::Rho);
    Vec::new()
}
