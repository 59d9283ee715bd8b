//! # Attention Geometry
//!
//! The library behind the executable book *Attention Geometry*, which puts
//! to the test the essay *Single Token Geometry 07: Attention* (单标几何 07：注意力)
//! from the *Deep Manifold* series.
//!
//! The mathematics lives in small modules named for what they compute; they
//! never plot. [`experiment`] runs each chapter's claims over many seeds,
//! [`figures`] draws them, [`measure`] hands their numbers to the prose, and
//! (with the default `render` feature) [`render`] builds the book.

pub mod absorption;
pub mod attention;
pub mod attribution;
pub mod bench;
pub mod claim;
pub mod coverage;
pub mod delta;
pub mod edition;
pub mod fixed_point;
pub mod fused;
pub mod glossary;
pub mod looped;
pub mod mixer;
pub mod multi_head;
pub mod parallel;
pub mod pretrained;
pub mod projection;
pub mod random;
pub mod recall;
pub mod relation;
pub mod stats;
pub mod train;

pub mod experiment;
pub mod figures;
pub mod file;
pub mod measure;
#[cfg(feature = "render")]
pub mod render;
