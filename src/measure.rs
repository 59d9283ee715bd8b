//! Measured numbers for the prose, and how they are written. A chapter writes
//! `{{measure ch01.rho_untied}}` and the renderer puts in the value its
//! experiment computed, so no number in the book is typed by hand; the
//! registry of every chapter's measures is [`crate::experiment::measures`].
//! Introduced in chapter 1.

use crate::stats::Summary;

/// One quoted number: its key and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measure {
    pub key: String,
    pub value: String,
}

impl Measure {
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> Measure {
        Measure {
            key: key.into(),
            value: value.into(),
        }
    }
}

/// `x` with `digits` decimals; `-0.00` is written `0.00`.
///
/// ```
/// use attention_geometry::measure::fixed;
/// assert_eq!(fixed(-0.001, 2), "0.00");
/// assert_eq!(fixed(1.0 / 3.0, 3), "0.333");
/// ```
pub fn fixed(x: f64, digits: usize) -> String {
    let s = format!("{x:.digits$}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// `x` in scientific notation with `digits` decimals in the mantissa.
///
/// ```
/// use attention_geometry::measure::sci;
/// assert_eq!(sci(3.24e-15, 1), "3.2e-15");
/// assert_eq!(sci(1e-12, 1), "1.0e-12");
/// assert_eq!(sci(4.6e-16, 0), "5e-16");
/// ```
pub fn sci(x: f64, digits: usize) -> String {
    format!("{x:.digits$e}")
}

/// `x` with `digits` decimals, or in scientific notation (one decimal) when
/// that would print a nonzero `x` as zero.
///
/// ```
/// use attention_geometry::measure::number;
/// assert_eq!(number(0.123, 2), "0.12");
/// assert_eq!(number(3e-15, 2), "3.0e-15");
/// assert_eq!(number(0.0, 2), "0.00");
/// ```
pub fn number(x: f64, digits: usize) -> String {
    match x != 0.0 && x.abs() < 0.5 * 10f64.powi(-(digits as i32)) {
        true => sci(x, 1),
        false => fixed(x, digits),
    }
}

/// `mean ± sd` with `digits` decimals.
///
/// ```
/// use attention_geometry::measure::pm;
/// use attention_geometry::stats::Summary;
/// assert_eq!(pm(Summary::of(&[1.0, 2.0, 3.0]), 1), "2.0 ± 1.0");
/// ```
pub fn pm(s: Summary, digits: usize) -> String {
    format!("{} ± {}", fixed(s.mean, digits), fixed(s.sd, digits))
}
