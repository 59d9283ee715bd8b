//! Chapter 5: fixed-point iteration of a weight-tied attention layer in
//! three variants ([`collapse`]), data-level against hidden-state fixed
//! points ([`equilibrium`]), the Hopfield energy with tied and untied forms
//! ([`energy`]), and absorption of a directional task by construction
//! ([`absorption`]) and by training ([`trained_absorption`]), and the
//! data-level residual watched while it trains ([`trained_residual`]), the
//! mismatch and the accuracy owed to it along training ([`gradual`]), and
//! a looped block trained here to be iterated ([`looped`]), and whether a
//! pretrained block's output is a fixed point of it ([`idempotence`]).

pub mod absorption;
pub mod affine_lens;
pub mod claims;
pub mod collapse;
pub mod energy;
pub mod equilibrium;
pub mod gradual;
pub mod idempotence;
pub mod lens_fitted;
pub mod lens_null;
pub mod lens_report;
pub mod lens_shuffled;
pub mod lens_verdict;
pub mod logit_lens;
pub mod looped;
pub mod trained;
pub mod trained_absorption;
pub mod trained_residual;

use crate::claim::Claim;
use crate::measure::Measure;

/// Seeds behind every summary of the random-weight experiments.
pub const SEEDS: u64 = 100;

/// The claims of chapter 5, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let mut c = claims::claims();
    c.extend(gradual::claims());
    c
}

/// The numbers chapter 5's prose quotes.
pub fn measures() -> Vec<Measure> {
    let mut m = vec![Measure::new("seeds", SEEDS.to_string())];
    m.extend(collapse::measures());
    m.extend(equilibrium::measures());
    m.extend(energy::measures());
    m.extend(absorption::measures());
    m.extend(trained_absorption::measures());
    m.extend(trained_residual::measures());
    m.extend(trained::measures());
    m.extend(idempotence::measures());
    m.extend(lens_report::measures());
    m.extend(gradual::measures());
    m.extend(looped::measures());
    m
}
