//! The built artifacts: the figures and the rendered book. One test binary,
//! so the book-size experiments behind both run once per `cargo test`.

mod figures;
mod quotes;
mod rendered;
mod verdicts;
