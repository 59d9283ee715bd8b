//! Diagrams of the ideas: one per chapter, drawn before its data plots.
//! They draw what a chapter's mathematics defines on small fixed inputs,
//! with every number computed by the library ([`crate::attention`],
//! [`crate::fixed_point`], [`crate::delta`], …); `shapes` holds the blocks
//! and arrows they share.

mod composition;
pub mod coordinates;
pub mod covering;
pub mod delta_rule;
mod fixed_point;
mod heads;
pub mod shapes;

pub use composition::FIGURES as COMPOSITION;
pub use coordinates::FIGURES as COORDINATES;
pub use covering::FIGURES as COVERING;
pub use delta_rule::FIGURES as DELTA_RULE;
pub use fixed_point::FIGURES as FIXED_POINT;
pub use heads::FIGURES as HEADS;
