//! Render the book in-process: both editions, English (`chapters/`) and
//! Chinese (`chapters/zh/` into `zh/`), with offline KaTeX and the measured
//! numbers put into the prose. Needs the default `render` feature.
//!
//! Two preprocessors run before the HTML renderer, in this order (see
//! `book.toml`): `quotes` replaces every `{{measure KEY}}`, `{{claim ID}}`,
//! `{{verdict ID}}` and `{{claims}}` with what the experiments computed
//! (numbers, claims and their verdicts) in the edition's words, then
//! `katex` typesets `$…$` and `$$…$$` and links the vendored stylesheet
//! with a path relative to each page. The Chinese edition's search index is
//! then rebuilt by [`search`].

use std::path::{Path, PathBuf};

use mdbook_driver::MDBook;
use mdbook_preprocessor::config::Config;
use mdbook_preprocessor::errors::{Error, Result};

use crate::claim::Claim;
use crate::edition::Lang;
use crate::edition::words::Words;
use crate::measure::Measure;

pub mod http;
mod katex;
pub mod live;
pub mod quotes;
pub mod search;
pub mod serve;

use katex::Katex;
use quotes::Quotes;

/// mdBook's log on standard error at `INFO` (or as `RUST_LOG` says), in
/// colour only on a terminal (so CI logs carry no escape codes). Once per
/// process; later calls keep the first.
fn log_to_stderr() {
    use std::io::IsTerminal;
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::filter::LevelFilter;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            EnvFilter::builder()
                .with_default_directive(LevelFilter::INFO.into())
                .from_env_lossy(),
        )
        .try_init();
}

/// Render both editions of the book at `root` into `dest` (default:
/// `book.toml`'s build dir; the Chinese edition in its `zh/`) and return
/// the path of the English `index.html`. A LaTeX error or an unknown
/// measure or claim fails the build with a message naming the page.
pub fn render(root: &Path, dest: Option<&Path>) -> std::result::Result<PathBuf, String> {
    log_to_stderr();
    let build = || -> Result<PathBuf> {
        let config = Config::from_disk(root.join("book.toml"))?;
        let base = dest.map_or_else(|| root.join(&config.build.build_dir), Path::to_path_buf);
        // the explorer's data is computed while mdBook builds, then written beside its page
        let explorer = root.join(&config.book.src).join(EXPLORER_PAGE).is_file();
        std::thread::scope(|s| {
            let data = s.spawn(|| explorer.then(explorer_data));
            // what the experiments computed, once for both editions
            let computed = (crate::experiment::measures(), crate::experiment::claims());
            let mut htmls = Vec::new();
            for lang in Lang::ALL {
                htmls.extend(edition(root, &config, &base, lang, &computed)?);
            }
            if let Some(script) = data.join().expect("the explorer's data panicked") {
                let script = script.map_err(Error::msg)?;
                for html in &htmls {
                    let path = html.join(crate::figures::explorer::DATA_FILE);
                    crate::file::write_atomic(&path, script.as_bytes())
                        .map_err(|e| Error::msg(format!("cannot write {}: {e}", path.display())))?;
                }
            }
            Ok(htmls[0].join("index.html"))
        })
    };
    build().map_err(|e| format!("{e:#}"))
}

/// The Chinese edition's title and description.
const ZH_TITLE: &str = "注意力几何";
const ZH_DESCRIPTION: &str = "一本可执行的书，检验《单标几何 07：注意力》一文";

/// Build one edition into `base` (the English) or `base/zh` (the Chinese),
/// filling its pages from the `computed` measures and claims, and return its
/// HTML folder; `None` for an edition without sources.
fn edition(
    root: &Path,
    english: &Config,
    base: &Path,
    lang: Lang,
    (measures, claims): &(Vec<Measure>, Vec<Claim>),
) -> Result<Option<PathBuf>> {
    let mut config = english.clone();
    config.build.build_dir = match lang {
        Lang::En => base.to_path_buf(),
        Lang::Zh => base.join("zh"),
    };
    if lang == Lang::Zh {
        config.book.src = PathBuf::from(lang.sources());
        config.book.language = Some(lang.code().into());
        config.book.title = Some(ZH_TITLE.into());
        config.book.description = Some(ZH_DESCRIPTION.into());
    }
    // a test's tiny book has no Chinese edition
    if !root.join(&config.book.src).join("SUMMARY.md").is_file() {
        return Ok(None);
    }
    let mut book = MDBook::load_with_config(root, config)?;
    book.with_preprocessor(Quotes {
        measures: measures.clone(),
        claims: claims.clone(),
        words: Words::of(lang),
    });
    book.with_preprocessor(Katex);
    book.build()?;
    let html = book.build_dir_for("html");
    if lang == Lang::Zh {
        search::rebuild(&html).map_err(Error::msg)?;
    }
    Ok(Some(html))
}

/// The explorer's page; a book without it (a test's tiny book) gets no data.
const EXPLORER_PAGE: &str = "explorer.md";

/// How many sentences the explorer offers of each model's corpus.
pub const EXPLORER_SENTENCES: usize = 8;

/// The sentences the explorer offers for `arch`: the running example's two
/// `bank` sentences (the pair chapters 1–5 follow), for the decoder a
/// sequence of random tokens repeated once (where its induction heads show),
/// then the first of those chapter 2 reads (the paraphrase corpus for the
/// encoder, the context sentences for the decoder).
pub fn explorer_texts(arch: crate::pretrained::transformer::Architecture) -> Vec<String> {
    use crate::experiment::coverage::trained::{BOOK, texts};
    use crate::pretrained::transformer::Architecture;
    let example = crate::experiment::relations::trained::pairs()
        .into_iter()
        .find(|p| p.word == crate::experiment::example::BOOK.word)
        .expect("the running example's word is in models/contexts.txt");
    let repeated = (arch == Architecture::Smollm2).then(repeated_text);
    [example.a, example.b]
        .into_iter()
        .chain(repeated)
        .chain(texts(arch, BOOK).into_iter().take(EXPLORER_SENTENCES))
        .collect()
}

/// Chapter 3's first random sequence (its seed 0, its length, no lead
/// token), repeated once, as text: SmolLM2's tokens decoded. Read again,
/// the text is one run of tokens repeated exactly (the tokenizer splits a
/// few rare tokens; a test checks), so an induction head's stripe sits one
/// token after each token's first copy.
pub fn repeated_text() -> String {
    use crate::experiment::multi_head::induction_heads::{BOOK, Lead, Repeat};
    let r = Repeat::draw(Lead::Nothing, BOOK.length, 0);
    crate::pretrained::smollm2::SmolLm2::shared()
        .tokenizer
        .decode(&r.ids)
}

/// The explorer's data as the script its page loads (computed from the
/// models, not cached: a second or two of two cores).
fn explorer_data() -> std::result::Result<String, String> {
    use crate::pretrained::transformer::Architecture;
    let runs: Vec<_> = Architecture::ALL
        .into_iter()
        .map(|a| (a, explorer_texts(a)))
        .collect();
    let json = crate::pretrained::explorer::json(&runs)?;
    Ok(crate::figures::explorer::data_script(&json, None))
}
