//! The library's unit tests, one module per module of `src/` that has them.

mod absorption;
mod bench;
mod claim;
mod coverage;
mod delta;
mod edition;
mod experiment;
mod figures;
mod file;
mod fixed_point;
mod fused;
mod glossary;
mod looped;
mod mixer;
mod multi_head;
mod parallel;
mod pretrained;
mod recall;
mod relation;
mod render;
mod train;
