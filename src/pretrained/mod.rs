//! Pretrained transformers read from the vendored extract under `models/`.
//! Introduced in chapter 1.

pub mod geometry;
pub mod smollm2;
