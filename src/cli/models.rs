//! The commands that run a pretrained model on the reader's text: `attend`,
//! `next`, `complete`, `heads`.

use std::path::PathBuf;

use attention_geometry::figures;
use attention_geometry::figures::explorer::Start;
use attention_geometry::pretrained::explorer;
use attention_geometry::pretrained::heads::Model;
use attention_geometry::pretrained::minilm::{HEADS, LAYERS};
use attention_geometry::pretrained::next_token;
use attention_geometry::pretrained::smollm2::{self, SmolLm2};
use clap::ArgMatches;
use clap::parser::ValueSource;

use crate::{Stop, status};

/// `value` of `--layer` or `--head` as a number, or an error naming each model's range.
pub fn number(value: &str, flag: &str) -> Result<usize, String> {
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

/// What `attend` writes: an SVG figure of one layer, or the explorer as one HTML file.
enum Output {
    Svg(PathBuf),
    Html(PathBuf),
}

/// `--out`'s file by its extension (default `attend.svg`), or a usage error naming the valid ones.
fn output(args: &ArgMatches) -> Result<Output, Stop> {
    let path = args
        .get_one::<PathBuf>("out")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("attend.svg"));
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext.to_ascii_lowercase().as_str() {
        "svg" => Ok(Output::Svg(path)),
        "html" | "htm" => Ok(Output::Html(path)),
        _ => Err(Stop::Usage(format!(
            "--out {}: unknown extension; valid: FILE.svg (one layer as a figure) or FILE.html (the explorer)",
            path.display()
        ))),
    }
}

/// Draw or print a model's attention weights for the reader's sentence.
pub fn attend(args: &ArgMatches) -> Result<(), Stop> {
    use attention_geometry::pretrained::attention_map::AttentionMap;
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
    let text = args.get_one::<String>("text").expect("required");
    if text.trim().is_empty() {
        return Err(Stop::Usage(
            "the text is empty; give a sentence, e.g. attend \"The cat sat on the mat.\"".into(),
        ));
    }
    if tsv {
        let loaded = model.load()?;
        let map = AttentionMap::compute(loaded.as_ref(), text, layer, head).map_err(Stop::Usage)?;
        print!("{}", map.tsv());
        return Ok(());
    }
    match output(args)? {
        Output::Html(path) => {
            // without --model, both models; --layer and --head choose where it opens
            let chosen = args.value_source("model") != Some(ValueSource::DefaultValue);
            let archs: Vec<Model> = Model::ALL
                .into_iter()
                .filter(|&a| !chosen || a == model)
                .collect();
            let start = Start {
                model: model.name().to_string(),
                layer,
                head: head.unwrap_or(0),
            };
            write(&path, explorer_page(text, &archs, &start)?.as_bytes())
        }
        Output::Svg(path) => {
            let loaded = model.load()?;
            let map =
                AttentionMap::compute(loaded.as_ref(), text, layer, head).map_err(Stop::Usage)?;
            let svg = figures::attend::draw(&map)
                .map_err(|e| format!("attend figure failed to draw: {e}"))?;
            write(&path, svg.as_bytes())
        }
    }
}

/// The explorer on `text` for each of `archs`, as one self-contained HTML page.
fn explorer_page(text: &str, archs: &[Model], start: &Start) -> Result<String, Stop> {
    let runs: Vec<(Model, Vec<String>)> =
        archs.iter().map(|&a| (a, vec![text.to_string()])).collect();
    // a text too long for a model is the reader's to shorten
    let json = explorer::json(&runs).map_err(Stop::Usage)?;
    Ok(figures::explorer::page(text, &json, Some(start)))
}

/// Write `bytes` to `path` atomically and say so.
fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), Stop> {
    attention_geometry::file::write_atomic(path, bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    status(&format!("wrote {}", path.display()));
    Ok(())
}

/// SmolLM2's top-K next tokens after the text: a table, or `--tsv`.
pub fn next(args: &ArgMatches) -> Result<(), Stop> {
    let (model, text) = decoder(args)?;
    let top = *args.get_one::<u32>("top").expect("has a default") as usize;
    let candidates = next_token::next(&model, text, top)?;
    match args.get_flag("tsv") {
        true => print!("{}", next_token::tsv(&candidates)),
        false => print!("{}", next_token::table(&candidates)),
    }
    Ok(())
}

/// SmolLM2's greedy continuation of the text.
pub fn complete(args: &ArgMatches) -> Result<(), Stop> {
    let (model, text) = decoder(args)?;
    let tokens = *args.get_one::<u32>("tokens").expect("has a default") as usize;
    println!("{}", next_token::complete(&model, text, tokens)?);
    Ok(())
}

/// Every head's W_QK geometry in one model.
pub fn heads(args: &ArgMatches) -> Result<(), Stop> {
    let model = args.get_one::<String>("model").expect("required");
    let report = attention_geometry::pretrained::heads::report(model, args.get_flag("tsv"))?;
    print!("{report}");
    Ok(())
}
