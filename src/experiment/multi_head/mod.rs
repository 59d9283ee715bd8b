//! Chapter 3: multi-head attention as stacked local coverings — a two-layer
//! induction circuit built by hand ([`induction`]) and its heads removed one
//! at a time ([`ablation`]), the rank a narrow head can express
//! ([`bottleneck`]), and trained heads: a fixed width split into narrower
//! heads ([`split`]), two heads that divide two relations
//! ([`specialisation`]), and what a trained later layer does with an earlier
//! head's output ([`composition`]); every trained arm at a tuned rate ([`rates`]).

pub mod ablation;
pub mod bottleneck;
pub mod claims;
pub mod composition;
pub mod induction;
pub mod induction_heads;
pub mod pruning;
pub mod rates;
pub mod repair;
pub mod specialisation;
pub mod split;
pub mod trained;

pub use claims::claims;

use crate::measure::Measure;

/// Seeds behind every summary of the constructed circuit.
pub const SEEDS: u64 = 200;

/// The numbers chapter 3's prose quotes.
pub fn measures() -> Vec<Measure> {
    let mut m = vec![Measure::new("seeds", SEEDS.to_string())];
    m.extend(induction::measures());
    m.extend(ablation::measures());
    m.extend(bottleneck::measures());
    m.extend(split::measures());
    m.extend(specialisation::measures());
    m.extend(composition::measures());
    let tunings: Vec<_> = split::book()
        .tuning
        .iter()
        .chain(&specialisation::book().tuning)
        .chain(&composition::book().tuning)
        .collect();
    m.extend(rates::measures(rates::GRID, &tunings));
    m.extend(trained::measures());
    m.extend(induction_heads::verdict::measures());
    m.extend(pruning::verdict::measures());
    m
}
