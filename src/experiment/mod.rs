//! The book's experiments: one module per chapter, named for its subject.
//!
//! Each module runs its chapter's claims over many seeds at a fixed book
//! size, returns plain data (no plotting), and lists the numbers its prose
//! quotes as [`crate::measure::Measure`]s. Figures and prose read the same
//! run, computed once per process.

pub mod fixed_points;
pub mod mismatch;
pub mod relations;
