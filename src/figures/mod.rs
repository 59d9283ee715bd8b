//! The book's figures: one module per chapter (named as in [`crate::experiment`])
//! with the functions that draw
//! them, a registry (name → function), and atomic writing and checking.
//!
//! Figures read their data from [`crate::experiment`] (a chapter's findings,
//! or the sample an experiment provides for its figure); nothing here
//! computes a result, it only draws one (binning, sorting or scaling what it
//! draws at most). Every figure is an SVG string that is byte-identical on
//! every run, drawn once per edition from the same data: the English in
//! `figures/`, the Chinese in `figures/zh/` (its words through
//! [`style::say`], see [`edition`]).

pub mod attend;
pub mod bench;
pub mod edition;
pub mod explorer;
pub mod heatmap;
pub mod key;
pub mod palette;
pub mod style;

mod coordinate_mismatch;
mod coordinate_mismatch_rope;
mod coordinate_mismatch_trained;
mod coverage;
mod coverage_decoder;
mod coverage_trained;
mod delta_attention;
pub mod delta_attention_budget;
mod delta_attention_operator;
mod delta_attention_recall;
pub mod diagrams;
mod example;
mod fixed_points;
mod fixed_points_lens;
mod fixed_points_residual;
mod fixed_points_trained;
mod learning_cost;
mod multi_head;
mod multi_head_composition;
mod multi_head_induction;
mod multi_head_pruning;
mod multi_head_repair;
mod multi_head_trained;
mod relations;
mod relations_decoder;
mod relations_trained;

use std::fs;
use std::path::{Path, PathBuf};

use crate::edition::Lang;

/// What drawing can fail with.
pub type DrawError = Box<dyn std::error::Error + Send + Sync>;

/// A registered figure: its file stem, its chapter, what it shows, how to draw it.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    /// File stem: the figure is `figures/{name}.svg` (and `figures/zh/{name}.svg`).
    pub name: &'static str,
    /// The chapter that shows it.
    pub chapter: u8,
    /// One line: what to see in it.
    pub about: &'static str,
    /// Draws the SVG.
    pub draw: fn() -> Result<String, DrawError>,
}

impl Figure {
    /// The file name, `{name}.svg`.
    pub fn file_name(&self) -> String {
        format!("{}.svg", self.name)
    }

    /// Where the figure of edition `lang` sits in the figures' folder `dir`:
    /// `dir/{name}.svg` for the English, `dir/zh/{name}.svg` for the Chinese.
    pub fn path(&self, dir: &Path, lang: Lang) -> PathBuf {
        edition_dir(dir, lang).join(self.file_name())
    }

    /// Draw the figure in edition `lang`.
    pub fn draw_in(&self, lang: Lang) -> Result<String, DrawError> {
        edition::in_edition(lang, self.draw)
    }
}

/// The folder of edition `lang`'s figures in the figures' folder `dir`.
pub fn edition_dir(dir: &Path, lang: Lang) -> PathBuf {
    match lang {
        Lang::En => dir.to_path_buf(),
        Lang::Zh => dir.join("zh"),
    }
}

/// Every figure of the book, in chapter order.
pub fn registry() -> Vec<Figure> {
    [
        diagrams::COORDINATES,
        coordinate_mismatch::FIGURES,
        coordinate_mismatch_trained::FIGURES,
        coordinate_mismatch_rope::FIGURES,
        example::FIGURES,
        diagrams::COVERING,
        coverage::FIGURES,
        coverage_trained::FIGURES,
        coverage_decoder::FIGURES,
        diagrams::HEADS,
        multi_head::FIGURES,
        multi_head_composition::FIGURES,
        multi_head_trained::FIGURES,
        multi_head_induction::FIGURES,
        multi_head_repair::FIGURES,
        multi_head_pruning::FIGURES,
        diagrams::COMPOSITION,
        relations::FIGURES,
        relations_trained::FIGURES,
        relations_decoder::FIGURES,
        diagrams::FIXED_POINT,
        fixed_points::FIGURES,
        fixed_points_residual::FIGURES,
        fixed_points_trained::FIGURES,
        fixed_points_lens::FIGURES,
        learning_cost::FIGURES,
        diagrams::DELTA_RULE,
        delta_attention::FIGURES,
        delta_attention_recall::FIGURES,
        delta_attention_budget::FIGURES,
        delta_attention_operator::FIGURES,
    ]
    .concat()
}

/// Look up figures by name; an unknown name is an error that lists the valid ones.
pub fn select(names: &[String]) -> Result<Vec<Figure>, String> {
    let all = registry();
    names
        .iter()
        .map(|n| {
            all.iter()
                .find(|f| f.name == n.as_str())
                .copied()
                .ok_or_else(|| {
                    let valid: Vec<&str> = all.iter().map(|f| f.name).collect();
                    format!("unknown figure '{n}'; valid names: {}", valid.join(", "))
                })
        })
        .collect()
}

/// Draw `figures` in both editions and write each changed one into `dir`
/// (the Chinese into `dir/zh`). Every figure is drawn before any is written,
/// so a failing figure leaves the directory untouched. Where `dir` holds a
/// bench report (`bench-delta.txt`), its figure is redrawn from it too.
/// Returns how many files it wrote.
pub fn write_all(figures: &[Figure], dir: &Path) -> Result<usize, String> {
    let mut drawn = Vec::new();
    for lang in Lang::ALL {
        let mut set: Vec<(PathBuf, String)> = figures
            .iter()
            .map(|f| f.path(dir, lang))
            .zip(draw_all_in(figures, lang)?)
            .collect();
        if let Some(svg) = edition::in_edition(lang, || bench_from_report(dir))? {
            set.push((BENCH.path(dir, lang), svg));
        }
        drawn.extend(set);
    }
    let mut written = 0;
    for (path, svg) in drawn {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        // an unchanged figure is left alone, so its modification time stays
        if fs::read(&path).is_ok_and(|old| old == svg.as_bytes()) {
            continue;
        }
        crate::file::write_atomic(&path, svg.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written += 1;
    }
    Ok(written)
}

/// The benchmark appendix's figure: not registered, as it is drawn from a
/// run of `cargo run --release -- bench` (see [`bench`]).
const BENCH: Figure = Figure {
    name: "bench-delta",
    chapter: 0,
    about: "the bench report's times and shares of the roofline bound",
    draw: || Err("drawn from a bench report".into()),
};

/// The bench figure redrawn from the report in `dir`, if there is one.
fn bench_from_report(dir: &Path) -> Result<Option<String>, String> {
    let Ok(text) = fs::read_to_string(dir.join("bench-delta.txt")) else {
        return Ok(None);
    };
    let (rows, machine) = bench::read_report(&text).ok_or_else(|| {
        format!(
            "{} is not a bench report",
            dir.join("bench-delta.txt").display()
        )
    })?;
    bench::draw(&rows, &machine)
        .map(Some)
        .map_err(|e| format!("the bench figure failed to draw: {e}"))
}

/// Draw every figure in memory, in English.
pub fn draw_all(figures: &[Figure]) -> Result<Vec<String>, String> {
    draw_all_in(figures, Lang::En)
}

/// Draw every figure in memory, in edition `lang`.
pub fn draw_all_in(figures: &[Figure], lang: Lang) -> Result<Vec<String>, String> {
    figures
        .iter()
        .map(|f| {
            f.draw_in(lang)
                .map_err(|e| format!("figure '{}' failed to draw: {e}", f.name))
        })
        .collect()
}

/// Names of the figures whose file in `dir` is missing or differs from a
/// fresh drawing: the English by name, the Chinese as `zh/{name}`.
pub fn stale(figures: &[Figure], dir: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for lang in Lang::ALL {
        let drawn = draw_all_in(figures, lang)?;
        out.extend(
            figures
                .iter()
                .zip(drawn)
                .filter(|(f, svg)| {
                    fs::read(f.path(dir, lang)).ok().as_deref() != Some(svg.as_bytes())
                })
                .map(|(f, _)| match lang {
                    Lang::En => f.name.to_string(),
                    Lang::Zh => format!("zh/{}", f.name),
                }),
        );
    }
    Ok(out)
}
