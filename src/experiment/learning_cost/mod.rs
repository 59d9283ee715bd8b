//! Chapter 6: what it costs to learn a relation from scratch, for untied,
//! tied, mimetic and identity query–key forms, on a symmetric and a
//! directional recall task, over many seeds: the experiment and its sizes
//! ([`steps`]), one arm of it and the geometry watched while it trains
//! ([`arm`]), and how each arm's learning rate is chosen ([`tuning`]).

pub mod arm;
pub mod claims;
mod report;
pub mod steps;
pub mod tuning;

pub use claims::claims;

use crate::measure::Measure;

/// The numbers chapter 6's prose quotes.
pub fn measures() -> Vec<Measure> {
    report::measures()
}
