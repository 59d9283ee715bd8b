//! The commands that run a pretrained model on the reader's text: `attend`,
//! `next`, `complete`, `heads`.

use std::path::PathBuf;

use attention_geometry::figures;
use attention_geometry::pretrained::heads::Model;
use attention_geometry::pretrained::minilm::{HEADS, LAYERS};
use attention_geometry::pretrained::next_token;
use attention_geometry::pretrained::smollm2::{self, SmolLm2};
use clap::ArgMatches;

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
    let loaded = model.load()?;
    let map = AttentionMap::compute(loaded.as_ref(), text, layer, head).map_err(Stop::Usage)?;
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
