//! `attention-geometry`: regenerate the book's figures and render the book.
//!
//! ```text
//! attention-geometry [build] [--open]        figures, then the book (default); --open opens it
//! attention-geometry figures [NAME…] [--check]
//! attention-geometry render [--open]
//! attention-geometry list
//! attention-geometry verdicts [--tsv|--json] every claim of the book with its computed verdict
//! attention-geometry measures [--tsv]        every registered number: key, value, the text shown
//! attention-geometry bench                   time the chapter 7 kernels and the decoder; writes figures/bench-*
//! attention-geometry attend TEXT [--model minilm|smollm2] [--layer L] [--head H]
//!                            [--out FILE.svg|FILE.html | --tsv]
//!                                            a model's attention weights for a sentence: a figure,
//!                                            the explorer as one HTML file, or TSV
//! attention-geometry next TEXT [--top K] [--tsv]   SmolLM2's most probable next tokens
//! attention-geometry complete TEXT [--tokens N]    SmolLM2's greedy continuation
//! attention-geometry heads minilm|smollm2 [--tsv]   each head's W_QK symmetry and eigenvalue mass
//! attention-geometry mqar-budget [--status]  chapter 7's decisive MQAR runs (hours; resumable: one
//!                                            file per run in findings/mqar-budget/; --status: where
//!                                            they stand, running nothing)
//! ```
//! Every command takes `-h`/`--help`, the binary `-V`/`--version`, and `-q`/`--quiet` (no status
//! lines). Commands that read or compute experiments' findings print a line per experiment. Data goes to standard output, status lines and errors to standard error. A usage
//! error exits with 2, a failure with 1, each with one line on standard error.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use attention_geometry::figures;
use clap::ArgMatches;

use cli::{book, models};

/// Why a command stopped: the reader asked for something it cannot do (exit 2), or it failed (exit 1).
pub enum Stop {
    Usage(String),
    Failed(String),
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Failed(e)
    }
}

/// `--quiet`: no status lines.
static QUIET: AtomicBool = AtomicBool::new(false);

/// A status line on standard error, unless `--quiet`.
pub fn status(line: &str) {
    if !QUIET.load(Ordering::Relaxed) {
        eprintln!("{line}");
    }
}

fn main() -> ExitCode {
    let matches = match cli::command().try_get_matches() {
        Ok(m) => m,
        Err(e) => return refused(e),
    };
    QUIET.store(matches.get_flag("quiet"), Ordering::Relaxed);
    match run(&matches) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Stop::Usage(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(Stop::Failed(e)) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Help and version on standard output (exit 0); a usage error as one line on
/// standard error — clap's message and its tip, without the usage block — (exit 2).
fn refused(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let text = e.render().to_string();
    let mut line = String::new();
    for l in text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
    {
        if !line.is_empty() {
            line.push_str(if line.ends_with(':') { " " } else { "; " });
        }
        line.push_str(l);
    }
    eprintln!("{line}; see --help");
    ExitCode::from(2)
}

/// The book's root: the folder with `book.toml`.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(m: &ArgMatches) -> Result<(), Stop> {
    let (command, args) = m.subcommand().unwrap_or(("build", m));
    cli::progress::show(false);
    match command {
        "build" => {
            book::write_figures(&figures::registry())?;
            book::render(args.get_flag("open"))
        }
        "figures" => book::figures(args),
        "render" => book::render(args.get_flag("open")),
        "serve" => book::serve(args),
        "list" => {
            for f in figures::registry() {
                println!("{:<32} chapter {}  {}", f.name, f.chapter, f.about);
            }
            Ok(())
        }
        "verdicts" => {
            book::verdicts(args);
            Ok(())
        }
        "measures" => {
            book::measures(args);
            Ok(())
        }
        "bench" => book::bench(),
        "attend" => models::attend(args),
        "next" => models::next(args),
        "complete" => models::complete(args),
        "heads" => models::heads(args),
        "mqar-budget" => {
            use attention_geometry::experiment::delta_attention::budget;
            if args.get_flag("status") {
                let (root, setup) = (root(), budget::setup());
                let dir = root.join(budget::DIR);
                print!(
                    "{}",
                    budget::status(&setup, &budget::code_hash(&root), &dir)?
                );
                return Ok(());
            }
            let found =
                budget::run_and_write(&root(), &budget::setup(), |line| eprintln!("{line}"))?;
            status(&format!(
                "wrote {} ({:.1} core-hours, code {})",
                budget::FINDINGS,
                found.core_seconds / 3600.0,
                &found.code_hash[..12]
            ));
            Ok(())
        }
        other => unreachable!("clap knows no command '{other}'"),
    }
}
