//! The running example's figures, one per chapter 1–5: the word `bank` in
//! its two sentences, as MiniLM (top row) and SmolLM2 (bottom row) read it,
//! each a heat map over the sentence's tokens (it reads
//! [`crate::experiment::example`], never computes).

use nalgebra::DMatrix;
use plotters::prelude::*;

use super::heatmap::{Labels, Shading, labelled};
use super::style::{COLUMN, TITLE, axes, mesh, say, svg, text};
use super::{DrawError, Figure, palette};
use crate::experiment::example::{Example, Reading, book};
use crate::pretrained::transformer::Architecture;
use crate::stats::ranks;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch01-example-bank",
        chapter: 1,
        about: "bank in two sentences: its raw cosine with each token it sees beside one head's score of it, ranked, in MiniLM and SmolLM2",
        draw: similarity,
    },
    Figure {
        name: "ch02-example-bank",
        chapter: 2,
        about: "bank in two sentences: one head's attention weight on each token beside the share of the norm that token carries",
        draw: coverage,
    },
    Figure {
        name: "ch03-example-bank",
        chapter: 3,
        about: "bank in two sentences: every head of one layer, its weights over the tokens",
        draw: heads,
    },
    Figure {
        name: "ch04-example-bank",
        chapter: 4,
        about: "bank in two sentences: the last layer's raw attention beside rollout over every layer",
        draw: relations,
    },
    Figure {
        name: "ch05-example-bank",
        chapter: 5,
        about: "bank in two sentences: every token's relative update per layer, and how far bank's two states lie apart at each depth",
        draw: stream,
    },
];

/// A token as a reader writes it: byte-level BPE's space mark `Ġ` dropped.
fn token(t: &str) -> String {
    t.trim_start_matches('Ġ').to_string()
}

/// The model's short name.
fn model(arch: Architecture) -> &'static str {
    match arch {
        Architecture::Minilm => "MiniLM",
        Architecture::Smollm2 => "SmolLM2",
    }
}

/// The sentence's short name: its sense of bank.
fn sense(e: &Example, r: &Reading) -> &'static str {
    match r.text == e.sentences[0].text {
        true => "river bank",
        false => "money bank",
    }
}

/// A panel's title: model, sentence, and the head the example reads.
fn head_title(arch: Architecture, e: &Example, r: &Reading) -> String {
    format!(
        "{}, {}: layer {}, head {}",
        model(arch),
        sense(e, r),
        e.layer,
        e.head
    )
}

/// One panel: a matrix over the sentence's first tokens (as many as it has
/// columns: those the word sees, or all), its rows' labels.
struct Panel {
    title: String,
    m: DMatrix<f64>,
    rows: Vec<String>,
}

/// The panels of every model and sentence, MiniLM's first, from `panel`.
fn panels(
    panel: impl Fn(Architecture, &Example, &Reading) -> Panel,
) -> Vec<(Panel, &'static Reading)> {
    let f = book();
    Architecture::ALL
        .iter()
        .flat_map(|&arch| {
            let e = f.arch(arch);
            let panel = &panel;
            e.sentences.iter().map(move |r| (panel(arch, e, r), r))
        })
        .collect()
}

/// Rows of equally long values as a matrix.
fn matrix(rows: &[Vec<f64>]) -> DMatrix<f64> {
    DMatrix::from_fn(rows.len(), rows[0].len(), |i, j| rows[i][j])
}

/// Pixels of the figure's title line.
const HEAD: u32 = 28;

/// The panels two to a row (a model's two sentences), each `height` px,
/// under `title`, and `below` px left at the bottom for `extra`.
fn grid(
    title: &str,
    panels: Vec<(Panel, &Reading)>,
    shading: impl Fn(&DMatrix<f64>) -> Shading,
    height: u32,
    below: u32,
    extra: impl FnOnce(&super::style::Canvas) -> Result<(), DrawError>,
) -> Result<String, DrawError> {
    let rows = panels.len().div_ceil(2) as u32;
    svg(COLUMN, HEAD + rows * height + below, |root| {
        root.draw(&Text::new(say(title), (10, 6), text(TITLE)))?;
        let (_, rest) = root.split_vertically(HEAD);
        let (top, bottom) = rest.split_vertically(rows * height);
        let areas = top.split_evenly((rows as usize, 2));
        for ((p, r), area) in panels.iter().zip(&areas) {
            let columns: Vec<String> = r.tokens[..p.m.ncols()].iter().map(|t| token(t)).collect();
            let labels = Labels {
                columns: &columns,
                rows: &p.rows,
                mark: Some(r.word),
            };
            labelled(area, &p.m, &p.title, shading(&p.m), labels)?;
        }
        extra(&bottom)
    })
}

/// Each value's rank in its row scaled to `[0, 1]`: 1 the largest.
fn ranked(row: &[f64]) -> Vec<f64> {
    let n = row.len() as f64;
    ranks(row).iter().map(|r| (r - 1.0) / (n - 1.0)).collect()
}

/// [`grid`] on one sequential scale, nothing below the panels.
fn heat_grid(
    title: &str,
    panels: Vec<(Panel, &Reading)>,
    height: u32,
) -> Result<String, DrawError> {
    let shading = |_: &DMatrix<f64>| Shading::Sequential(palette::TRAINED);
    grid(title, panels, shading, height, 0, |_| Ok(()))
}

/// Chapter 1: bank's raw cosine with each token against one head's score.
fn similarity() -> Result<String, DrawError> {
    let ps = panels(|arch, e, r| Panel {
        title: head_title(arch, e, r),
        m: matrix(&[ranked(&r.raw), ranked(&r.score)]),
        rows: vec!["raw cos".into(), "score".into()],
    });
    let title = "bank's query: raw cosine and score, each ranked in its row (1: largest)";
    heat_grid(title, ps, 190)
}

/// Chapter 2: one head's weight on each token beside the norm it carries.
fn coverage() -> Result<String, DrawError> {
    let ps = panels(|arch, e, r| {
        let total: f64 = r.carried.iter().sum();
        let share: Vec<f64> = r.carried.iter().map(|c| c / total).collect();
        Panel {
            title: head_title(arch, e, r),
            m: matrix(&[r.weight.clone(), share]),
            rows: vec!["weight".into(), "norm share".into()],
        }
    });
    let title = "bank's query: the weight each token gets, the share of the norm it carries";
    heat_grid(title, ps, 190)
}

/// Chapter 3: every head of the layer, its weights over the tokens.
fn heads() -> Result<String, DrawError> {
    let ps = panels(|arch, e, r| Panel {
        title: format!("{}, {}: layer {}", model(arch), sense(e, r), e.layer),
        m: matrix(&r.heads),
        rows: (0..r.heads.len()).map(|h| format!("head {h}")).collect(),
    });
    let title = "bank's query in every head of one layer: the weight on each token";
    heat_grid(title, ps, 340)
}

/// Chapter 4: the last layer's raw attention beside rollout.
fn relations() -> Result<String, DrawError> {
    let ps = panels(|arch, e, r| Panel {
        title: format!(
            "{}, {}: {} layers",
            model(arch),
            sense(e, r),
            e.drift.len() - 1
        ),
        m: matrix(&[r.last.clone(), r.rollout.clone()]),
        rows: vec!["last layer".into(), "rollout".into()],
    });
    let title = "bank's row: raw attention of the last layer (head mean) and rollout";
    heat_grid(title, ps, 190)
}

/// Chapter 5: every token's relative update per layer (log₁₀), then how far
/// bank's states in the two sentences lie apart at each depth.
fn stream() -> Result<String, DrawError> {
    let ps = panels(|arch, e, r| {
        let every = if r.update.len() > 10 { 5 } else { 1 };
        Panel {
            title: format!("{}, {}", model(arch), sense(e, r)),
            // update[l][i] → row l, column i: log₁₀ of the relative update
            m: matrix(&r.update).map(f64::log10),
            rows: (0..r.update.len())
                .map(|l| match (l + 1) % every == 0 || l == 0 {
                    true => format!("layer {}", l + 1),
                    false => String::new(),
                })
                .collect(),
        }
    });
    let top = |m: &DMatrix<f64>| Shading::Diverging(m.abs().max());
    let title = "log₁₀ of every token's relative update per layer (blue: by more than its norm)";
    grid(title, ps, top, 300, 220, drift)
}

/// `1 − cos` between bank's states in the two sentences, per depth, one panel per model.
fn drift(area: &super::style::Canvas) -> Result<(), DrawError> {
    let f = book();
    for (arch, part) in Architecture::ALL.iter().zip(area.split_evenly((1, 2))) {
        let d = &f.arch(*arch).drift;
        let depth = (d.len() - 1) as f64;
        let caption = format!("{}: bank's two states", model(*arch));
        let top = d.iter().cloned().fold(0.0, f64::max) * 1.2;
        let mut chart = axes(&part, caption, -0.02 * depth..1.02 * depth, 0.0..top)?;
        mesh(&mut chart, "depth l", "1 − cos(A, B)")
            .disable_mesh()
            .draw()?;
        let pts = d.iter().enumerate().map(|(l, &v)| (l as f64, v));
        chart.draw_series(LineSeries::new(pts, palette::TRAINED.stroke_width(2)))?;
    }
    Ok(())
}
