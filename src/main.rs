//! `attention-geometry`: regenerate the book's figures and render the book.
//!
//! ```text
//! attention-geometry [build]                 figures, then the book (default)
//! attention-geometry figures [NAME…] [--check]
//! attention-geometry render
//! attention-geometry list
//! attention-geometry verdicts [--tsv|--json] every claim of the book with its computed verdict
//! attention-geometry measures [--tsv]        every registered number: key, value, the text shown
//! attention-geometry bench                   time the chapter 7 kernels; writes figures/bench-delta.*
//! attention-geometry attend "TEXT" [--layer L] [--head H] [--out FILE.svg | --tsv]
//!                                            MiniLM's attention weights for a sentence
//! attention-geometry heads minilm|smollm2 [--tsv]   each head's W_QK symmetry and eigenvalue mass
//! attention-geometry mqar-large              chapter 7's long MQAR experiment (about an hour of one
//!                                            core); writes findings/mqar-large.json
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use attention_geometry::figures::{self, Figure};

const USAGE: &str = "usage: attention-geometry [build | figures [NAME…] [--check] | render | list | verdicts [--tsv | --json] | measures [--tsv] | bench | attend \"TEXT\" … | heads MODEL [--tsv] | mqar-large | help]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The book's root: the folder with `book.toml`.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[String]) -> Result<(), String> {
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => ("build", &[][..]),
    };
    let no_args = |name: &str| match rest.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "'{name}' takes no arguments (got '{}'); {USAGE}",
            rest.join(" ")
        )),
    };
    match command {
        "build" => {
            no_args("build")?;
            write_figures(&figures::registry())?;
            render()
        }
        "figures" => figures_command(rest),
        "render" => {
            no_args("render")?;
            render()
        }
        "list" => {
            no_args("list")?;
            for f in figures::registry() {
                println!("{:<32} chapter {}  {}", f.name, f.chapter, f.about);
            }
            Ok(())
        }
        "verdicts" => verdicts(rest),
        "measures" => measures(rest),
        "bench" => {
            no_args("bench")?;
            bench()
        }
        "attend" => attend(rest),
        "heads" => heads(rest),
        "mqar-large" => {
            no_args("mqar-large")?;
            use attention_geometry::experiment::delta_attention::large;
            let found = large::run_and_write(&root())?;
            eprintln!(
                "wrote {} in {:.0} s (code {})",
                large::FINDINGS,
                found.seconds,
                &found.code_hash[..12]
            );
            Ok(())
        }
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command '{other}'; {USAGE}")),
    }
}

/// Print every claim with its verdict: a table, or with `--tsv` tab-separated.
fn verdicts(args: &[String]) -> Result<(), String> {
    use attention_geometry::claim::{json, text};
    let format = match args {
        [] => "",
        [flag] if flag == "--tsv" || flag == "--json" => flag.as_str(),
        _ => {
            return Err(format!(
                "verdicts takes --tsv or --json (got '{}')",
                args.join(" ")
            ));
        }
    };
    let claims = attention_geometry::experiment::claims();
    match format {
        "--tsv" => print!("{}", text::tsv(&claims)),
        "--json" => println!("{}", json::json(&claims)),
        _ => print!("{}", text::table(&claims)),
    }
    Ok(())
}

fn measures(args: &[String]) -> Result<(), String> {
    use attention_geometry::measure;
    let tsv = match args {
        [] => false,
        [flag] if flag == "--tsv" => true,
        _ => {
            return Err(format!(
                "measures takes only --tsv (got '{}')",
                args.join(" ")
            ));
        }
    };
    let all = attention_geometry::experiment::measures();
    print!("{}", measure::listing(&all, tsv));
    Ok(())
}

fn figures_command(args: &[String]) -> Result<(), String> {
    let check = args.iter().any(|a| a == "--check");
    if let Some(flag) = args.iter().find(|a| a.starts_with('-') && *a != "--check") {
        return Err(format!(
            "unknown option '{flag}'; figures takes NAME… and --check"
        ));
    }
    let names: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .cloned()
        .collect();
    let selected = if names.is_empty() {
        figures::registry()
    } else {
        figures::select(&names)?
    };
    if check {
        // a check recomputes every experiment, cached or not
        attention_geometry::experiment::cache::recompute();
        let stale = figures::stale(&selected, &figures_dir())?;
        if !stale.is_empty() {
            return Err(format!(
                "stale figures (regenerate with `cargo run --release -- figures`): {}",
                stale.join(", ")
            ));
        }
        if names.is_empty() {
            // every experiment, including those no figure draws
            let _ = (
                attention_geometry::experiment::claims(),
                attention_geometry::experiment::measures(),
            );
            let stale = attention_geometry::experiment::cache::stale();
            if !stale.is_empty() {
                return Err(format!(
                    "stale findings in findings/ (delete their .key files and run `cargo run --release`): {}",
                    stale.join(", ")
                ));
            }
        }
        println!(
            "{} figures and their findings are up to date",
            selected.len()
        );
        Ok(())
    } else {
        write_figures(&selected)
    }
}

/// `heads MODEL [--tsv]`: print the weight geometry of every head of a pretrained model.
fn heads(args: &[String]) -> Result<(), String> {
    if let Some(flag) = args.iter().find(|a| a.starts_with('-') && *a != "--tsv") {
        return Err(format!(
            "unknown option '{flag}'; heads takes MODEL and --tsv"
        ));
    }
    let models: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let [model] = models[..] else {
        return Err("heads takes one model: minilm or smollm2".into());
    };
    let tsv = args.iter().any(|a| a == "--tsv");
    print!(
        "{}",
        attention_geometry::pretrained::heads::report(model, tsv)?
    );
    Ok(())
}

/// Time softmax attention, `kda`, `kda_fused` and `kda_chunked` (and its chunk sizes)
/// against the machine's measured bounds, print the report, write it and the appendix
/// figure (not registered: they differ run to run).
fn bench() -> Result<(), String> {
    use attention_geometry::bench::{self, Machine};
    let before = bench::matmul_gflops(512, 7);
    let rows = bench::run(&bench::LENGTHS, &bench::WIDTHS, |r| {
        eprintln!(
            "  {:<12} T = {:>5}, K = V = {:>3}: {:>10.3} ms",
            r.mixer.name(),
            r.t,
            r.d,
            r.seconds * 1e3
        )
    });
    let sweep = bench::chunk_sweep();
    // the larger of two measurements, before and after: other jobs only slow it down
    let peak = before.max(bench::matmul_gflops(512, 7));
    let machine = Machine::measure(peak, &bench::WIDTHS);
    let report = bench::report(&rows, &sweep, &machine);
    print!("{}", report.full);
    let svg = figures::bench::draw(&rows, &machine)
        .map_err(|e| format!("bench figure failed to draw: {e}"))?;
    for (name, bytes) in [
        ("bench-delta.txt", report.full.as_bytes()),
        ("bench-delta-summary.txt", report.summary.as_bytes()),
        ("bench-delta.svg", svg.as_bytes()),
    ] {
        let path = figures_dir().join(name);
        attention_geometry::file::write_atomic(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Draw or print MiniLM's attention weights for the reader's sentence.
fn attend(args: &[String]) -> Result<(), String> {
    use attention_geometry::pretrained::attention_map::{AttendArgs, AttentionMap, Format};
    use attention_geometry::pretrained::{minilm::Minilm, models_dir};
    let a = AttendArgs::parse(args)?;
    let model = Minilm::load(&models_dir()).map_err(|e| e.to_string())?;
    let map = AttentionMap::compute(&model, &a.text, a.layer, a.head)?;
    match a.format {
        Format::Tsv => print!("{}", map.tsv()),
        Format::Svg(path) => {
            let svg = figures::attend::draw(&map)
                .map_err(|e| format!("attend figure failed to draw: {e}"))?;
            attention_geometry::file::write_atomic(&path, svg.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}

fn figures_dir() -> PathBuf {
    root().join("figures")
}

fn write_figures(selected: &[Figure]) -> Result<(), String> {
    figures::write_all(selected, &figures_dir())?;
    println!(
        "wrote {} figures to {}",
        selected.len(),
        figures_dir().display()
    );
    Ok(())
}

#[cfg(feature = "render")]
fn render() -> Result<(), String> {
    let index = attention_geometry::render::render(&root(), None)?;
    println!("{}", index.display());
    Ok(())
}

#[cfg(not(feature = "render"))]
fn render() -> Result<(), String> {
    Err("this binary was built without the `render` feature; rebuild with default features".into())
}
