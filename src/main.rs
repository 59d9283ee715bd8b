//! `attention-geometry`: regenerate the book's figures and render the book.
//!
//! ```text
//! attention-geometry [build]                 figures, then the book (default)
//! attention-geometry figures [NAME…] [--check]
//! attention-geometry render
//! attention-geometry list
//! attention-geometry verdicts [--tsv|--json] every claim of the book with its computed verdict
//! attention-geometry measures [--tsv]        every registered number: key, value, the text shown
//! attention-geometry bench                   time the chapter 7 kernels and the decoder; writes figures/bench-*
//! attention-geometry attend TEXT [--model minilm|smollm2] [--layer L] [--head H] [--out FILE.svg | --tsv]
//!                                            a model's attention weights for a sentence
//! attention-geometry next TEXT [--top K] [--tsv]   SmolLM2's most probable next tokens
//! attention-geometry complete TEXT [--tokens N]    SmolLM2's greedy continuation
//! attention-geometry heads minilm|smollm2 [--tsv]   each head's W_QK symmetry and eigenvalue mass
//! attention-geometry mqar-large              chapter 7's long MQAR experiment (about an hour of one
//!                                            core); writes findings/mqar-large.json
//! ```
//! Every command takes `-h`/`--help`, the binary `-V`/`--version`, and `-q`/`--quiet` (no status
//! lines). Data goes to standard output, status lines and errors to standard error. A usage
//! error exits with 2, a failure with 1, each with one line on standard error.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use attention_geometry::figures::{self, Figure};
use attention_geometry::pretrained::heads::Model;
use attention_geometry::pretrained::minilm::{HEADS, LAYERS};
use attention_geometry::pretrained::smollm2::{self, SmolLm2};
use clap::{Arg, ArgAction, ArgMatches, Command, value_parser};

/// Why a command stopped: the reader asked for something it cannot do (exit 2), or it failed (exit 1).
enum Stop {
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
fn status(line: &str) {
    if !QUIET.load(Ordering::Relaxed) {
        eprintln!("{line}");
    }
}

fn main() -> ExitCode {
    let matches = match cli().try_get_matches() {
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

/// The command line.
fn cli() -> Command {
    let tsv = || {
        Arg::new("tsv")
            .long("tsv")
            .action(ArgAction::SetTrue)
            .help("Tab-separated values, one row per line")
    };
    let index = |name: &'static str| {
        Arg::new(name)
            .long(name)
            .value_name(if name == "layer" { "L" } else { "H" })
            .value_parser(move |v: &str| number(v, name))
    };
    let model = || {
        Arg::new("model")
            .long("model")
            .value_name("MODEL")
            .default_value(Model::Minilm.name())
            .value_parser(Model::ALL.map(Model::name))
    };
    Command::new("attention-geometry")
        .version(env!("CARGO_PKG_VERSION"))
        .about("The executable book Attention Geometry: its figures, its rendered pages, its claims and their verdicts")
        .arg(
            Arg::new("quiet")
                .short('q')
                .long("quiet")
                .global(true)
                .action(ArgAction::SetTrue)
                .help("Print no status lines (errors still go to standard error)"),
        )
        .subcommand(Command::new("build").about("Regenerate every figure, then render the book (the default)"))
        .subcommand(
            Command::new("figures")
                .about("Regenerate the figures (all, or those named); with --check, compare instead")
                .arg(Arg::new("names").value_name("NAME").num_args(0..).help("Figures to draw (see `list`)"))
                .arg(
                    Arg::new("check")
                        .long("check")
                        .action(ArgAction::SetTrue)
                        .help("Recompute every experiment and fail if a committed figure or finding differs"),
                ),
        )
        .subcommand(Command::new("render").about("Render the book into target/book (figures as committed)"))
        .subcommand(Command::new("list").about("List every figure: name, chapter, what it shows"))
        .subcommand(
            Command::new("verdicts")
                .about("Every claim of the book with its computed verdict")
                .arg(tsv().conflicts_with("json"))
                .arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help("Every claim with its tests, choices and replications"),
                ),
        )
        .subcommand(
            Command::new("measures")
                .about("Every registered number: key, value, the text the book shows")
                .arg(tsv()),
        )
        .subcommand(Command::new("bench").about("Time chapter 7's kernels and the SmolLM2 forward pass; writes figures/bench-*"))
        .subcommand(
            Command::new("attend")
                .about("A pretrained model's attention weights for a sentence: an SVG of one layer, or one head as TSV")
                .arg(Arg::new("text").value_name("TEXT").required(true).help("The sentence (quote it)"))
                .arg(model().help("The model: minilm (the encoder, default) or smollm2 (the decoder)"))
                .arg(index("layer").help("Layer, 0-based (default: the last)"))
                .arg(index("head").help("One head, 0-based (default: all)"))
                .arg(
                    Arg::new("out")
                        .long("out")
                        .value_name("FILE.svg")
                        .value_parser(value_parser!(PathBuf))
                        .conflicts_with("tsv")
                        .help("Where to write the figure (default: attend.svg)"),
                )
                .arg(tsv().help("Print one head's weights as TSV instead (needs --head)")),
        )
        .subcommand(
            Command::new("next")
                .about("SmolLM2's most probable next tokens after TEXT, with natural-log probabilities")
                .arg(Arg::new("text").value_name("TEXT").required(true).help("The text (quote it); no BOS is added, and <|…|> in it is plain text"))
                .arg(
                    Arg::new("top")
                        .long("top")
                        .value_name("K")
                        .default_value("10")
                        .value_parser(value_parser!(u32).range(1..=49152))
                        .help("How many tokens to list"),
                )
                .arg(tsv().help("rank, token_id, token, logprob as TSV with a header")),
        )
        .subcommand(
            Command::new("complete")
                .about("SmolLM2's greedy continuation of TEXT, printed as text")
                .arg(Arg::new("text").value_name("TEXT").required(true).help("The text (quote it); no BOS is added, and <|…|> in it is plain text"))
                .arg(
                    Arg::new("tokens")
                        .long("tokens")
                        .value_name("N")
                        .default_value("32")
                        .value_parser(value_parser!(u32).range(1..=1000))
                        .help("How many tokens to add at most (stops at the end-of-sequence token)"),
                ),
        )
        .subcommand(
            Command::new("heads")
                .about("Each head's W_QK symmetry and eigenvalue mass in a pretrained model")
                .arg(Arg::new("model").value_name("MODEL").required(true).value_parser(Model::ALL.map(Model::name)))
                .arg(tsv()),
        )
        .subcommand(
            Command::new("mqar-large")
                .about("Chapter 7's long MQAR experiment (about an hour of one core); writes findings/mqar-large.json"),
        )
}

/// `value` of `--layer` or `--head` as a number, or an error naming each model's range.
fn number(value: &str, flag: &str) -> Result<usize, String> {
    value.parse().map_err(|_| {
        let (what, minilm, smollm2) = match flag {
            "layer" => ("layers", LAYERS, smollm2::LAYERS),
            _ => ("heads", HEADS, smollm2::HEADS),
        };
        format!(
            "--{flag} {value} is not a number; {what} are 0..={} for minilm, 0..={} for smollm2 (0-based)",
            minilm - 1,
            smollm2 - 1
        )
    })
}

/// `value` of `--{flag}` checked to be below `count`, or a usage error naming the valid range.
fn in_range(
    value: Option<usize>,
    flag: &str,
    what: &str,
    count: usize,
) -> Result<Option<usize>, Stop> {
    match value {
        Some(v) if v >= count => Err(Stop::Usage(format!(
            "--{flag} {v} is out of range; {what} are 0..={} (0-based, as in the checkpoint)",
            count - 1
        ))),
        v => Ok(v),
    }
}

/// The decoder, loaded, and the text argument, refused if empty.
fn decoder(args: &ArgMatches) -> Result<(SmolLm2, &str), Stop> {
    let text = args.get_one::<String>("text").expect("required");
    if text.trim().is_empty() {
        return Err(Stop::Usage(
            "the text is empty; give a sentence, e.g. \"The capital of France is\"".into(),
        ));
    }
    Ok((SmolLm2::load().map_err(|e| e.to_string())?, text))
}

/// The book's root: the folder with `book.toml`.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(m: &ArgMatches) -> Result<(), Stop> {
    let (command, args) = m.subcommand().unwrap_or(("build", m));
    match command {
        "build" => {
            write_figures(&figures::registry())?;
            render()
        }
        "figures" => figures_command(args),
        "render" => render(),
        "list" => {
            for f in figures::registry() {
                println!("{:<32} chapter {}  {}", f.name, f.chapter, f.about);
            }
            Ok(())
        }
        "verdicts" => {
            verdicts(args);
            Ok(())
        }
        "measures" => {
            measures(args);
            Ok(())
        }
        "bench" => bench(),
        "attend" => attend(args),
        "next" => {
            use attention_geometry::pretrained::next_token;
            let (model, text) = decoder(args)?;
            let top = *args.get_one::<u32>("top").expect("has a default") as usize;
            let candidates = next_token::next(&model, text, top)?;
            match args.get_flag("tsv") {
                true => print!("{}", next_token::tsv(&candidates)),
                false => print!("{}", next_token::table(&candidates)),
            }
            Ok(())
        }
        "complete" => {
            let (model, text) = decoder(args)?;
            let tokens = *args.get_one::<u32>("tokens").expect("has a default") as usize;
            let out = attention_geometry::pretrained::next_token::complete(&model, text, tokens)?;
            println!("{out}");
            Ok(())
        }
        "heads" => {
            let model = args.get_one::<String>("model").expect("required");
            let report =
                attention_geometry::pretrained::heads::report(model, args.get_flag("tsv"))?;
            print!("{report}");
            Ok(())
        }
        "mqar-large" => {
            use attention_geometry::experiment::delta_attention::large;
            let found = large::run_and_write(&root())?;
            status(&format!(
                "wrote {} in {:.0} s (code {})",
                large::FINDINGS,
                found.seconds,
                &found.code_hash[..12]
            ));
            Ok(())
        }
        other => unreachable!("clap knows no command '{other}'"),
    }
}

/// Print every claim with its verdict: a table, `--tsv` or `--json`.
fn verdicts(args: &ArgMatches) {
    use attention_geometry::claim::{json, text};
    let claims = attention_geometry::experiment::claims();
    if args.get_flag("tsv") {
        print!("{}", text::tsv(&claims));
    } else if args.get_flag("json") {
        println!("{}", json::json(&claims));
    } else {
        print!("{}", text::table(&claims));
    }
}

/// Print every registered measure: a table, or `--tsv`.
fn measures(args: &ArgMatches) {
    let all = attention_geometry::experiment::measures();
    print!(
        "{}",
        attention_geometry::measure::listing(&all, args.get_flag("tsv"))
    );
}

fn figures_command(args: &ArgMatches) -> Result<(), Stop> {
    let names: Vec<String> = args
        .get_many::<String>("names")
        .map(|n| n.cloned().collect())
        .unwrap_or_default();
    let selected = if names.is_empty() {
        figures::registry()
    } else {
        figures::select(&names).map_err(Stop::Usage)?
    };
    if !args.get_flag("check") {
        return write_figures(&selected);
    }
    // a check recomputes every experiment, cached or not
    attention_geometry::experiment::cache::recompute();
    let stale = figures::stale(&selected, &figures_dir())?;
    if !stale.is_empty() {
        return Err(Stop::Failed(format!(
            "stale figures (regenerate with `cargo run --release -- figures`): {}",
            stale.join(", ")
        )));
    }
    if names.is_empty() {
        // every experiment, including those no figure draws
        let _ = (
            attention_geometry::experiment::claims(),
            attention_geometry::experiment::measures(),
        );
        let stale = attention_geometry::experiment::cache::stale();
        if !stale.is_empty() {
            return Err(Stop::Failed(format!(
                "stale findings in findings/ (delete their .key files and run `cargo run --release`): {}",
                stale.join(", ")
            )));
        }
    }
    status(&format!(
        "{} figures and their findings are up to date",
        selected.len()
    ));
    Ok(())
}

/// Time softmax attention, `kda`, `kda_fused` and `kda_chunked` (and its chunk sizes)
/// against the machine's measured bounds, print the report, write it and the appendix
/// figure (not registered: they differ run to run).
fn bench() -> Result<(), Stop> {
    use attention_geometry::bench::{self, Machine};
    let before = bench::matmul_gflops(512, 7);
    let rows = bench::run(&bench::LENGTHS, &bench::WIDTHS, |r| {
        status(&format!(
            "  {:<12} T = {:>5}, K = V = {:>3}: {:>10.3} ms",
            r.mixer.name(),
            r.t,
            r.d,
            r.seconds * 1e3
        ))
    });
    let sweep = bench::chunk_sweep();
    // the larger of two measurements, before and after: other jobs only slow it down
    let peak = before.max(bench::matmul_gflops(512, 7));
    let machine = Machine::measure(peak, &bench::WIDTHS);
    let report = bench::report(&rows, &sweep, &machine);
    print!("{}", report.full);
    let decoder = {
        use attention_geometry::bench::decoder;
        let model =
            attention_geometry::pretrained::smollm2::SmolLm2::load().map_err(|e| e.to_string())?;
        let rows = decoder::run(&model, &decoder::LENGTHS, 5);
        let gemm = decoder::matmul_gflops_f32(128, 576, 1536, 7);
        decoder::report(&rows, gemm)
    };
    print!("\n{decoder}");
    let svg = figures::bench::draw(&rows, &machine)
        .map_err(|e| format!("bench figure failed to draw: {e}"))?;
    for (name, bytes) in [
        ("bench-delta.txt", report.full.as_bytes()),
        ("bench-delta-summary.txt", report.summary.as_bytes()),
        ("bench-delta.svg", svg.as_bytes()),
        ("bench-decoder.txt", decoder.as_bytes()),
    ] {
        let path = figures_dir().join(name);
        attention_geometry::file::write_atomic(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        status(&format!("wrote {}", path.display()));
    }
    Ok(())
}

/// Draw or print a model's attention weights for the reader's sentence.
fn attend(args: &ArgMatches) -> Result<(), Stop> {
    use attention_geometry::pretrained::attention_map::AttentionMap;
    use attention_geometry::pretrained::{minilm::Minilm, models_dir};
    let model = Model::parse(args.get_one::<String>("model").expect("has a default"))?;
    let (layers, heads) = match model {
        Model::Minilm => (LAYERS, HEADS),
        Model::Smollm2 => (smollm2::LAYERS, smollm2::HEADS),
    };
    let layer = in_range(
        args.get_one::<usize>("layer").copied(),
        "layer",
        "layers",
        layers,
    )?
    .unwrap_or(layers - 1);
    let head = in_range(
        args.get_one::<usize>("head").copied(),
        "head",
        "heads",
        heads,
    )?;
    let tsv = args.get_flag("tsv");
    if tsv && head.is_none() {
        return Err(Stop::Usage(format!(
            "--tsv prints one head; add --head H (0..={})",
            heads - 1
        )));
    }
    let map = match model {
        Model::Minilm => {
            let text = args.get_one::<String>("text").expect("required");
            if text.trim().is_empty() {
                return Err(Stop::Usage(
                    "the text is empty; give a sentence, e.g. attend \"The cat sat on the mat.\""
                        .into(),
                ));
            }
            let model = Minilm::load(&models_dir()).map_err(|e| e.to_string())?;
            AttentionMap::compute(&model, text, layer, head)?
        }
        Model::Smollm2 => {
            let (model, text) = decoder(args)?;
            AttentionMap::compute_decoder(&model, text, layer, head)?
        }
    };
    if tsv {
        print!("{}", map.tsv());
        return Ok(());
    }
    let path = args
        .get_one::<PathBuf>("out")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("attend.svg"));
    let svg =
        figures::attend::draw(&map).map_err(|e| format!("attend figure failed to draw: {e}"))?;
    attention_geometry::file::write_atomic(&path, svg.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    status(&format!("wrote {}", path.display()));
    Ok(())
}

fn figures_dir() -> PathBuf {
    root().join("figures")
}

fn write_figures(selected: &[Figure]) -> Result<(), Stop> {
    figures::write_all(selected, &figures_dir())?;
    status(&format!(
        "wrote {} figures to {}",
        selected.len(),
        figures_dir().display()
    ));
    Ok(())
}

/// Render the book; its index page's path goes to standard output.
#[cfg(feature = "render")]
fn render() -> Result<(), Stop> {
    let index = attention_geometry::render::render(&root(), None)?;
    println!("{}", index.display());
    Ok(())
}

#[cfg(not(feature = "render"))]
fn render() -> Result<(), Stop> {
    Err(Stop::Failed(
        "this binary was built without the `render` feature; rebuild with default features".into(),
    ))
}
