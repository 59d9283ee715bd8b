//! The shapes every diagram draws: a labelled block, an arrow, a text label,
//! a dot, in pixels of the whole canvas; and a plane with equal axes for
//! points and frames.

use std::ops::Range;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::figures::style::{Canvas, Chart, SMALL, TITLE, say, text};
use crate::figures::{DrawError, palette};

/// A point in pixels of the canvas.
pub type Px = (i32, i32);

/// Where a label sits relative to its point.
#[derive(Clone, Copy, Debug)]
pub enum Anchor {
    /// Centred on the point.
    Centre,
    /// The point is the label's left end, centred vertically.
    Left,
    /// The point is the label's right end, centred vertically.
    Right,
}

impl Anchor {
    fn pos(self) -> Pos {
        let (h, v) = match self {
            Anchor::Centre => (HPos::Center, VPos::Center),
            Anchor::Left => (HPos::Left, VPos::Center),
            Anchor::Right => (HPos::Right, VPos::Center),
        };
        Pos::new(h, v)
    }
}

/// Write `s` at `at` in `size`-px text of colour `c`, placed by `anchor`.
pub fn label(
    area: &Canvas,
    at: Px,
    s: &str,
    size: u32,
    c: RGBColor,
    anchor: Anchor,
) -> Result<(), DrawError> {
    let style = text(size).color(&c).pos(anchor.pos());
    area.draw(&Text::new(say(s), at, style))?;
    Ok(())
}

/// A block: a rectangle at `top_left` of `size`, filled with a pale `c`,
/// outlined in `c`, with `lines` centred in it one under the other.
pub fn block(
    area: &Canvas,
    top_left: Px,
    size: (i32, i32),
    lines: &[&str],
    c: RGBColor,
) -> Result<(), DrawError> {
    let (x, y) = top_left;
    let (w, h) = size;
    area.draw(&Rectangle::new(
        [(x, y), (x + w, y + h)],
        c.mix(0.12).filled(),
    ))?;
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], c.stroke_width(2)))?;
    let step = 18;
    let top = y + h / 2 - step * (lines.len() as i32 - 1) / 2;
    for (i, s) in lines.iter().enumerate() {
        let at = (x + w / 2, top + step * i as i32);
        label(area, at, s, SMALL, BLACK, Anchor::Centre)?;
    }
    Ok(())
}

/// An arrow along `points` (at least two) in `c`, `width` px wide, with a
/// filled head at the last point.
pub fn arrow(area: &Canvas, points: &[Px], c: RGBColor, width: u32) -> Result<(), DrawError> {
    let n = points.len();
    assert!(n >= 2, "arrow: {n} points; need at least two");
    let (from, to) = (points[n - 2], points[n - 1]);
    let (dx, dy) = ((to.0 - from.0) as f64, (to.1 - from.1) as f64);
    let len = dx.hypot(dy).max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    // the head: 11 px long, 5 px either side, its base where the line ends
    let (long, half) = (11.0 + width as f64, 4.0 + width as f64);
    let base = (to.0 as f64 - ux * long, to.1 as f64 - uy * long);
    let px = |x: f64, y: f64| (x.round() as i32, y.round() as i32);
    let mut line = points[..n - 1].to_vec();
    line.push(px(base.0, base.1));
    area.draw(&PathElement::new(line, c.stroke_width(width)))?;
    let head = vec![
        to,
        px(base.0 - uy * half, base.1 + ux * half),
        px(base.0 + uy * half, base.1 - ux * half),
    ];
    area.draw(&Polygon::new(head, c.filled()))?;
    Ok(())
}

/// A filled dot of radius `r` at `at`.
pub fn dot(area: &Canvas, at: Px, r: i32, c: RGBColor) -> Result<(), DrawError> {
    area.draw(&Circle::new(at, r, c.filled()))?;
    Ok(())
}

/// A plane on `area` with equal units on both axes, centred on `centre`,
/// showing at least `half` either way in each direction, titled `title`,
/// without ticks: points, frames and trajectories are drawn on it in their
/// own coordinates.
pub fn plane<'a, 'b>(
    area: &'a Canvas<'b>,
    title: &str,
    centre: (f64, f64),
    half: f64,
) -> Result<Chart<'a, 'b>, DrawError> {
    let (w, h) = area.dim_in_pixel();
    // the caption takes about 30 px of the height, the margins 16
    let (pw, ph) = (w as f64 - 16.0, h as f64 - 46.0);
    let unit = pw.min(ph) / (2.0 * half);
    let (hx, hy) = (pw / unit / 2.0, ph / unit / 2.0);
    let range = |c: f64, h: f64| -> Range<f64> { c - h..c + h };
    Ok(ChartBuilder::on(area)
        .caption(say(title), text(TITLE))
        .margin(8)
        .build_cartesian_2d(range(centre.0, hx), range(centre.1, hy))?)
}

/// The pixel of `p` on `chart`, for the shapes above (the charts of the
/// diagrams are drawn on sub-areas of the canvas the shapes draw on).
pub fn at(chart: &Chart, p: (f64, f64)) -> Px {
    chart.backend_coord(&p)
}

/// `v` with `places` decimals and a typographic minus (`−0.21`).
pub fn decimal(v: f64, places: usize) -> String {
    crate::measure::fixed(v, places).replace('-', "−")
}

/// One query's covering of the tokens at `points`: around token `j` a
/// disc of area ∝ `row[j]` (the largest `radius` px across, the more
/// opaque the larger, in `c`), then the tokens on top, the query
/// (`query`) a cross in [`palette::QUERY`], the others black dots.
pub fn covering(
    area: &Canvas,
    points: &[Px],
    row: &[f64],
    query: usize,
    radius: f64,
    c: RGBColor,
) -> Result<(), DrawError> {
    let top = row.iter().cloned().fold(f64::MIN_POSITIVE, f64::max);
    for (&p, &w) in points.iter().zip(row) {
        let share = w / top;
        let r = (radius * share.sqrt()).round() as i32;
        area.draw(&Circle::new(p, r, c.mix(0.15 + 0.5 * share).filled()))?;
        area.draw(&Circle::new(p, r, c.stroke_width(1)))?;
    }
    for (j, &p) in points.iter().enumerate() {
        if j == query {
            area.draw(&Cross::new(p, 7, palette::QUERY.stroke_width(3)))?;
        } else {
            dot(area, p, 4, BLACK)?;
        }
    }
    Ok(())
}
