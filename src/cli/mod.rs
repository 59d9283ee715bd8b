//! The command line's parts: its grammar ([`command`]), the commands that
//! build and check the book ([`book`]), those that run a pretrained model
//! on the reader's text ([`models`]), and the progress lines of long work
//! ([`progress`]).

pub mod book;
pub mod models;
pub mod progress;

use std::path::PathBuf;

use attention_geometry::pretrained::heads::Model;
use clap::{Arg, ArgAction, Command, value_parser};

/// The command line.
pub fn command() -> Command {
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
            .value_parser(move |v: &str| models::number(v, name))
    };
    let open = || {
        Arg::new("open")
            .long("open")
            .action(ArgAction::SetTrue)
            .help("Open the rendered book in the default web browser")
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
        .arg(open())
        .subcommand(Command::new("build").about("Regenerate every figure, then render the book (the default)").arg(open()))
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
        .subcommand(Command::new("render").about("Render the book into target/book (figures as committed)").arg(open()))
        .subcommand(
            Command::new("serve")
                .about("Serve the book (both editions) on 127.0.0.1, with a live explorer that takes your own sentence")
                .arg(
                    Arg::new("port")
                        .long("port")
                        .value_name("PORT")
                        .default_value("3000")
                        .value_parser(value_parser!(u16))
                        .help("The port (0 picks a free one)"),
                )
                .arg(
                    Arg::new("book")
                        .long("book")
                        .value_name("DIR")
                        .value_parser(value_parser!(PathBuf))
                        .help("Serve this rendered book as it is, instead of rendering into target/book first"),
                )
                .arg(open()),
        )
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
                .about("A pretrained model's attention weights for a sentence: an SVG of one layer, the explorer as one HTML file, or one head as TSV")
                .arg(Arg::new("text").value_name("TEXT").required(true).help("The sentence (quote it)"))
                .arg(model().help("The model: minilm (the encoder, default) or smollm2 (the decoder)"))
                .arg(index("layer").help("Layer, 0-based (default: the last)"))
                .arg(index("head").help("One head, 0-based (default: all)"))
                .arg(
                    Arg::new("out")
                        .long("out")
                        .value_name("FILE.svg|FILE.html")
                        .value_parser(value_parser!(PathBuf))
                        .conflicts_with("tsv")
                        .help("Where to write: FILE.svg draws one layer (default: attend.svg); FILE.html writes the explorer, every layer and head, both models unless --model is given, opening at --layer and --head"),
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
            Command::new("mqar-budget")
                .about("Chapter 7's decisive MQAR runs (hours; stop and resume at will: one file per run in findings/mqar-budget/)")
                .arg(
                    Arg::new("status")
                        .long("status")
                        .action(ArgAction::SetTrue)
                        .help("Say where the runs stand and run nothing"),
                ),
        )
}
