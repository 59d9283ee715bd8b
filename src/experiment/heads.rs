//! Chapter 3: multi-head attention as stacked local coverings.

use crate::measure::Measure;

/// The numbers chapter 3's prose quotes.
pub fn measures() -> Vec<Measure> {
    vec![]
}
