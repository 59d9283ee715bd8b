//! Figures of chapter 3: multi-head attention as stacked local coverings.

use super::Figure;

pub const FIGURES: &[Figure] = &[];
