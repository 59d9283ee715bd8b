//! Chapter 7: delta attention. What the effective token weights of a delta
//! rule look like ([`token_weights`]), how many key–value pairs additive and
//! delta memories hold ([`capacity`]) and how they overwrite ([`overwrite`]),
//! what per-channel decay buys over a scalar one ([`decay`]), that the
//! chunkwise form is the recurrence ([`chunkwise`]) and stays finite under
//! strong decay ([`stability`]), and how the cost grows with sequence length
//! ([`cost`]).

pub mod arm;
pub mod budget;
pub mod capacity;
pub mod chunkwise;
pub mod claims;
pub mod cost;
pub mod decay;
pub mod operator;
pub mod overwrite;
pub mod recall;
pub mod stability;
pub mod token_weights;

pub use claims::claims;

/// The path `budget/run.rs` imports [`arm::Arm`] by, kept so that the long
/// experiment's code hash ([`budget::code_hash`]) still holds; the next change
/// to its hashed sources should import `arm::Arm` and drop this.
pub mod large {
    pub use super::arm::Arm;
}

use crate::measure::Measure;

/// Seeds behind every summary in the chapter.
pub const SEEDS: u64 = 20;

/// The numbers chapter 7's prose quotes.
pub fn measures() -> Vec<Measure> {
    let mut m = vec![Measure::new("seeds", SEEDS.to_string())];
    m.extend(token_weights::measures());
    m.extend(capacity::measures());
    m.extend(overwrite::measures());
    m.extend(decay::measures());
    m.extend(chunkwise::measures());
    m.extend(stability::measures());
    m.extend(cost::measures());
    m.extend(recall::measures());
    m.extend(budget::measures(budget::findings()));
    m.extend(operator::measures());
    m
}
