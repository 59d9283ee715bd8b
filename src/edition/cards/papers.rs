//! The claim cards' strings of the cited papers in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[("Hanin and Rolnick 2019", "Hanin 和 Rolnick 2019")];
