//! Every test in one binary, the library's unit tests too (`unit/`): the
//! library is linked once, and the real models, the book-size experiments
//! and the rendered book are loaded, computed and built once per
//! `cargo test`, their tests sharing the cores.

mod book;
mod delta;
mod models;
mod skeptic;
mod train;
mod unit;
