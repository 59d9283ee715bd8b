//! Chapter 2: the linear pieces of a ReLU network, mathematical coverage
//! ([`pieces`]), against what one forward pass of a head exposes, physical
//! coverage: a new local map for each prompt ([`prompts`]) and for any move
//! of the input ([`drift`]); and what an attention pattern does and does
//! not tell ([`attribution`]), asked again of a trained encoder and a trained
//! decoder by one measurement ([`readings`], [`trained`], [`trained_report`]). The head and its
//! prompt are [`head`]'s.

pub mod attribution;
pub mod claims;
mod decoder_claims;
pub mod drift;
pub mod head;
pub mod permuted;
pub mod pieces;
pub mod prompts;
pub mod readings;
pub mod sensitivity;
pub mod trained;
mod trained_claims;
pub mod trained_report;

pub use claims::claims;

use crate::measure::Measure;

/// Seeds behind every summary of a head.
pub const SEEDS: u64 = 100;

/// The numbers chapter 2's prose quotes.
pub fn measures() -> Vec<Measure> {
    let mut m = vec![Measure::new("seeds", SEEDS.to_string())];
    m.extend(pieces::measures());
    m.extend(prompts::measures());
    m.extend(drift::measures());
    m.extend(attribution::measures());
    m.extend(trained_report::measures());
    m.extend(decoder_claims::measures());
    m
}
