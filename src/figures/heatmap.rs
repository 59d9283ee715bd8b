//! Heat maps: a matrix as coloured cells, ticks at the cells' centres, and a
//! colour bar that shows the scale.

use std::ops::Range;

use nalgebra::DMatrix;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::DrawError;
use super::style::{Canvas, LABEL, SMALL, color, say, text, tick, verbatim};

/// How a heat map colours its cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shading {
    /// White at 0, the colour at the largest entry (for non-negative data).
    Sequential(RGBColor),
    /// Blue above 0, vermillion below, white at 0; full colour at `|x| = top`,
    /// intensity `√(|x| / top)` so that small values of either sign show.
    Diverging(f64),
}

impl Shading {
    /// The values the scale spans, for `m`: `[0, max]` or `[−top, top]`.
    fn range(self, m: &DMatrix<f64>) -> Range<f64> {
        match self {
            Shading::Sequential(_) => 0.0..m.iter().cloned().fold(0.0, f64::max).max(1e-300),
            Shading::Diverging(top) => -top..top,
        }
    }

    /// The colour of value `x` on a scale spanning `range`.
    fn fill(self, x: f64, range: &Range<f64>) -> RGBColor {
        match self {
            Shading::Sequential(c) => fade(c, x / range.end),
            Shading::Diverging(top) if x >= 0.0 => fade(color(0), (x / top).sqrt()),
            Shading::Diverging(top) => fade(color(1), (-x / top).sqrt()),
        }
    }
}

/// `c` faded towards white by `1 − t`, `t ∈ [0, 1]`.
fn fade(c: RGBColor, t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let mix = |a: u8| (255.0 - t * (255.0 - a as f64)).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// A cell index as a tick label: the integer at a cell's centre, nothing
/// between cells.
fn cell(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{:.0}", v.abs())
    } else {
        String::new()
    }
}

/// Width of a heat map's colour bar with its tick labels, px.
pub const BAR: u32 = 64;

/// Draw `m` as a heat map on `area`, row 0 at the top, columns along x,
/// ticks at the cells' centres, and its colour bar on the right.
pub fn heatmap(
    area: &Canvas,
    m: &DMatrix<f64>,
    title: &str,
    shading: Shading,
    x_desc: &str,
    y_desc: &str,
) -> Result<(), DrawError> {
    let (w, _) = area.dim_in_pixel();
    let (map, bar) = area.split_horizontally(w.saturating_sub(BAR));
    let (rows, cols) = m.shape();
    let range = shading.range(m);
    let mut chart = ChartBuilder::on(&map)
        .caption(say(title), text(LABEL))
        .margin(6)
        .x_label_area_size(40)
        .y_label_area_size(40)
        .build_cartesian_2d(-0.5..cols as f64 - 0.5, rows as f64 - 0.5..-0.5)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(say(x_desc))
        .y_desc(say(y_desc))
        .label_style(text(SMALL))
        .axis_desc_style(text(SMALL))
        // about one label per 40 px of the map
        .x_labels(cols.min(9).min(w.saturating_sub(BAR) as usize / 40))
        .y_labels(rows.min(9))
        .x_label_formatter(&cell)
        .y_label_formatter(&cell)
        .draw()?;
    cells(&mut chart, m, shading, &range)?;
    colour_bar(&bar, shading, range, (30, 46))
}

/// Every cell of `m` on `chart`, coloured on `range`.
fn cells(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    m: &DMatrix<f64>,
    shading: Shading,
    range: &Range<f64>,
) -> Result<(), DrawError> {
    let (rows, cols) = m.shape();
    let cells = (0..rows).flat_map(|i| (0..cols).map(move |j| (i, j)));
    chart.draw_series(cells.map(|(i, j)| {
        let (x, y) = (j as f64, i as f64);
        let corners = [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)];
        Rectangle::new(corners, shading.fill(m[(i, j)], range).filled())
    }))?;
    Ok(())
}

/// A heat map's labels in words: one per column (read upwards under the
/// cells), one per row (an empty one leaves its row unlabelled), and a column
/// to outline.
#[derive(Clone, Copy, Debug)]
pub struct Labels<'a> {
    pub columns: &'a [String],
    pub rows: &'a [String],
    /// A column framed in black (the word a figure follows).
    pub mark: Option<usize>,
}

/// Width of `label` in [`SMALL`] text, px (a DejaVu Sans glyph is about 0.6
/// em; plotters' em is size / 1.24).
fn width(label: &str) -> i32 {
    // a Chinese character is an em wide, a Latin one about 0.6 em
    let ems: f64 = label
        .chars()
        .map(|c| if crate::edition::wide(c) { 1.0 } else { 0.6 })
        .sum();
    (ems * SMALL as f64 / 1.24).ceil() as i32
}

/// Draw `m` as a heat map on `area` as [`heatmap`] does, its columns and rows
/// labelled with words instead of indices.
///
/// # Panics
/// If the labels do not match `m`'s shape.
pub fn labelled(
    area: &Canvas,
    m: &DMatrix<f64>,
    title: &str,
    shading: Shading,
    labels: Labels,
) -> Result<(), DrawError> {
    let (rows, cols) = m.shape();
    assert_eq!(
        (labels.rows.len(), labels.columns.len()),
        (rows, cols),
        "labelled: labels do not match the map"
    );
    // the columns are tokens, drawn as they are; the rows are words of the edition
    let rows_said: Vec<String> = labels.rows.iter().map(say).collect();
    let longest = |ls: &[String]| ls.iter().map(|l| width(l)).max().unwrap_or(0);
    let (below, left) = (longest(labels.columns) + 10, longest(&rows_said) + 10);
    let (w, _) = area.dim_in_pixel();
    let (map, bar) = area.split_horizontally(w.saturating_sub(BAR));
    let range = shading.range(m);
    let mut chart = ChartBuilder::on(&map)
        .caption(say(title), text(LABEL))
        .margin(6)
        .x_label_area_size(below)
        .y_label_area_size(left)
        .build_cartesian_2d(-0.5..cols as f64 - 0.5, rows as f64 - 0.5..-0.5)?;
    cells(&mut chart, m, shading, &range)?;
    let frame = |j0: f64, j1: f64| {
        Rectangle::new([(j0, -0.5), (j1, rows as f64 - 0.5)], BLACK.stroke_width(1))
    };
    chart.draw_series([frame(-0.5, cols as f64 - 0.5)])?;
    if let Some(j) = labels.mark {
        let j = j as f64;
        chart.draw_series([Rectangle::new(
            [(j - 0.5, -0.5), (j + 0.5, rows as f64 - 0.5)],
            BLACK.stroke_width(3),
        )])?;
    }
    // labels in the map's own pixels: the chart's backend position less the map's
    let (x0, y0) = map.get_base_pixel();
    let at = |x: f64, y: f64| {
        let (px, py) = chart.backend_coord(&(x, y));
        (px - x0, py - y0)
    };
    let up = verbatim(SMALL)
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for (j, l) in labels.columns.iter().enumerate() {
        let (x, y) = at(j as f64, rows as f64 - 0.5);
        map.draw(&Text::new(l.clone(), (x, y + 4), up.clone()))?;
    }
    let beside = text(SMALL).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, l) in rows_said.iter().enumerate() {
        let (x, y) = at(-0.5, i as f64);
        map.draw(&Text::new(l.clone(), (x - 4, y), beside.clone()))?;
    }
    colour_bar(&bar, shading, range, (30, below + 6))
}

/// A vertical colour bar for `shading` over `range`, tick labels on its right,
/// aligned with a [`heatmap`]'s cells.
fn colour_bar(
    area: &Canvas,
    shading: Shading,
    range: Range<f64>,
    (top, bottom): (i32, i32),
) -> Result<(), DrawError> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(top)
        .margin_bottom(bottom)
        .margin_right(2)
        .right_y_label_area_size(BAR as i32 - 20)
        .build_cartesian_2d(0.0..1.0, range.clone())?;
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style(text(SMALL))
        .y_labels(5)
        .y_label_formatter(&tick)
        .draw()?;
    let steps = 120;
    let (lo, hi) = (range.start, range.end);
    chart.draw_series((0..steps).map(|i| {
        let at = |k: usize| lo + (hi - lo) * k as f64 / steps as f64;
        let mid = (at(i) + at(i + 1)) / 2.0;
        Rectangle::new(
            [(0.0, at(i)), (1.0, at(i + 1))],
            shading.fill(mid, &range).filled(),
        )
    }))?;
    chart.draw_series([Rectangle::new(
        [(0.0, lo), (1.0, hi)],
        BLACK.stroke_width(1),
    )])?;
    Ok(())
}
