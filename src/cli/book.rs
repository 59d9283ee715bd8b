//! The commands that build and check the book: `figures`, `render`,
//! `verdicts`, `measures`, `bench`.

use std::path::PathBuf;

use attention_geometry::edition::Lang;
use attention_geometry::figures::{self, Figure};
use clap::ArgMatches;

use crate::{Stop, root, status};

/// Print every claim with its verdict: a table, `--tsv` or `--json`.
pub fn verdicts(args: &ArgMatches) {
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
pub fn measures(args: &ArgMatches) {
    let all = attention_geometry::experiment::measures();
    print!(
        "{}",
        attention_geometry::measure::listing(&all, args.get_flag("tsv"))
    );
}

pub fn figures(args: &ArgMatches) -> Result<(), Stop> {
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
    crate::cli::progress::show(true);
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
/// figure in both editions (not registered: they differ run to run).
pub fn bench() -> Result<(), Stop> {
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
        let gemm = bench::gemm_gflops::<f32>(128, 576, 1536, 7);
        let decode = decoder::decode(&model, decoder::DECODE_TOKENS, 5);
        let read = bench::read_gbs(decoder::READ_BUFFER, 7);
        decoder::report(&rows, gemm, &decode, read)
    };
    print!("\n{decoder}");
    let training = {
        use attention_geometry::bench::training;
        let rows = training::run(7);
        training::report(&rows, bench::gemm_gflops::<f32>(128, 576, 1536, 7))
    };
    print!("\n{training}");
    // drawn from the report as written, as `cargo run` redraws it, so the two agree to the byte
    let (rows, machine) = figures::bench::read_report(&report.full)
        .ok_or_else(|| "the bench report does not read back".to_string())?;
    let draw = |lang| {
        figures::edition::in_edition(lang, || figures::bench::draw(&rows, &machine))
            .map_err(|e| format!("bench figure failed to draw: {e}"))
    };
    let (svg, svg_zh) = (draw(Lang::En)?, draw(Lang::Zh)?);
    for (name, bytes) in [
        ("bench-delta.txt", report.full.as_bytes()),
        ("bench-delta-summary.txt", report.summary.as_bytes()),
        ("bench-delta.svg", svg.as_bytes()),
        ("zh/bench-delta.svg", svg_zh.as_bytes()),
        ("bench-decoder.txt", decoder.as_bytes()),
        ("bench-training.txt", training.as_bytes()),
    ] {
        let path = figures_dir().join(name);
        attention_geometry::file::write_atomic(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        status(&format!("wrote {}", path.display()));
    }
    Ok(())
}

fn figures_dir() -> PathBuf {
    root().join("figures")
}

pub fn write_figures(selected: &[Figure]) -> Result<(), Stop> {
    let written = figures::write_all(selected, &figures_dir())?;
    status(&match written {
        0 => format!(
            "{} figures up to date in {}",
            selected.len(),
            figures_dir().display()
        ),
        n => format!(
            "wrote {n} files of {} figures (English and Chinese) to {}",
            selected.len(),
            figures_dir().display()
        ),
    });
    Ok(())
}

/// Render the book; its index page's path goes to standard output. With
/// `open`, the page opens in the default browser.
#[cfg(feature = "render")]
pub fn render(open: bool) -> Result<(), Stop> {
    let index = attention_geometry::render::render(&root(), None)?;
    println!("{}", index.display());
    if open {
        browse(&index)?;
    }
    Ok(())
}

/// Serve the book and the live explorer on 127.0.0.1 until interrupted:
/// the book rendered into target/book first, or `--book DIR` as it is. The
/// address goes to standard output.
#[cfg(feature = "render")]
pub fn serve(args: &ArgMatches) -> Result<(), Stop> {
    use attention_geometry::render::serve::Serving;
    let book = match args.get_one::<PathBuf>("book") {
        Some(dir) => dir.clone(),
        None => attention_geometry::render::render(&root(), None)?
            .parent()
            .expect("index.html sits in the book's folder")
            .to_path_buf(),
    };
    let port = *args.get_one::<u16>("port").expect("has a default");
    let serving = Serving::start(&book, port).map_err(Stop::Failed)?;
    let url = serving.url();
    println!("{url}");
    status(&format!(
        "serving {} at {url} (the Chinese edition at {url}zh/, your own sentence at {url}explorer.html); Ctrl-C stops",
        book.display()
    ));
    if args.get_flag("open") {
        browse(std::path::Path::new(&url))?;
    }
    serving.wait();
    Ok(())
}

#[cfg(not(feature = "render"))]
pub fn serve(_args: &ArgMatches) -> Result<(), Stop> {
    render(false)
}

/// Open `page` (a file or an address) in the default browser, as `mdbook build --open` does.
#[cfg(feature = "render")]
fn browse(page: &std::path::Path) -> Result<(), Stop> {
    use std::process::Command;
    let mut opener = match std::env::consts::OS {
        "macos" => Command::new("open"),
        "windows" => {
            let mut c = Command::new("cmd");
            c.args(["/C", "start", ""]);
            c
        }
        _ => Command::new("xdg-open"),
    };
    let program = opener.get_program().to_string_lossy().into_owned();
    match opener.arg(page).status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(Stop::Failed(format!(
            "{program} could not open {}: {s}",
            page.display()
        ))),
        Err(e) => Err(Stop::Failed(format!(
            "cannot run {program} to open {}: {e}",
            page.display()
        ))),
    }
}

#[cfg(not(feature = "render"))]
pub fn render(_open: bool) -> Result<(), Stop> {
    Err(Stop::Failed(
        "this binary was built without the `render` feature; rebuild with default features".into(),
    ))
}
