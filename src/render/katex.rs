//! The `katex` preprocessor: mdbook-katex, strict and offline.

use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::errors::{Error, Result};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

/// mdbook-katex, made strict (a LaTeX error fails the build) and offline
/// (each page links the vendored `katex/katex.min.css`).
pub struct Katex;

impl Preprocessor for Katex {
    fn name(&self) -> &str {
        "katex"
    }

    fn run(&self, ctx: &PreprocessorContext, book: Book) -> Result<Book> {
        let mut book = mdbook_katex::preprocess::KatexProcessor.run(ctx, book)?;
        let mut errors = Vec::new();
        book.for_each_chapter_mut(|ch| {
            if let Some(at) = ch.content.find("katex-error") {
                let snippet: String = ch.content[at..].chars().take(200).collect();
                errors.push(format!("{}: LaTeX error: {snippet}", ch.name));
            }
            // a page at depth n (n folders below the book root) reaches the css through n × "../"
            let depth = ch
                .path
                .as_ref()
                .map_or(0, |p| p.components().count().saturating_sub(1));
            let href = format!("{}katex/katex.min.css", "../".repeat(depth));
            ch.content = format!(
                "<link rel=\"stylesheet\" href=\"{href}\">\n\n{}",
                ch.content
            );
        });
        match errors.is_empty() {
            true => Ok(book),
            false => Err(Error::msg(errors.join("\n"))),
        }
    }
}
