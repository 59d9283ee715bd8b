//! The built artifacts: the figures, the rendered book and the registries
//! behind its prose. One test binary, so the book-size experiments behind
//! all of them run once per `cargo test`.

mod browser;
mod figures;
mod quotes;
mod referee;
mod rendered;
mod snippets;
mod verdicts;
