//! Figure of chapter 3's induction heads in SmolLM2 (it reads
//! [`crate::experiment::multi_head::induction_heads::book`], never computes).

use plotters::prelude::*;

use super::style::{Canvas, Chart, PALETTE, axes, color, legend, mesh, say, svg, text, tick};
use super::{DrawError, Figure};
use crate::experiment::multi_head::induction_heads::verdict::names;
use crate::experiment::multi_head::induction_heads::{BOOK, book};

/// The strips' y range over their largest value: the key sits above the heads' dot.
const HEADROOM: f64 = 1.4;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch03-decoder-induction",
    chapter: 3,
    about: "prefix-matching and previous-token score of every SmolLM2 head, trained vs random, and the induction and previous-token heads removed against random head sets",
    draw: induction,
}];

/// White at 0, `c` at 1 (values clamped to `[0, 1]`).
fn shade(c: RGBColor, x: f64) -> RGBColor {
    let t = x.clamp(0.0, 1.0);
    let mix = |a: u8| (255.0 - t * (255.0 - a as f64)).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// `grid[layer][head]` as a heat map on the fixed scale `[0, 1]`, layer 0 at the top.
fn heads_map(area: &Canvas, grid: &[Vec<f64>], title: &str, c: RGBColor) -> Result<(), DrawError> {
    let (rows, cols) = (grid.len(), grid[0].len());
    let mut chart = ChartBuilder::on(area)
        .caption(say(title), text(13))
        .margin(6)
        .x_label_area_size(34)
        .y_label_area_size(34)
        .build_cartesian_2d(0.0..cols as f64, rows as f64..0.0)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(say("head"))
        .y_desc(say("layer"))
        .label_style(text(11))
        .axis_desc_style(text(12))
        .x_labels(5)
        .y_labels(7)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    let cells = (0..rows).flat_map(|l| (0..cols).map(move |h| (l, h)));
    chart.draw_series(cells.map(|(l, h)| {
        let corners = [(h as f64, l as f64), (h as f64 + 1.0, l as f64 + 1.0)];
        Rectangle::new(corners, shade(c, grid[l][h]).filled())
    }))?;
    Ok(())
}

/// A vertical colour bar for [`heads_map`]'s scale, in colours `cs` side by side.
fn colour_bar(area: &Canvas, cs: &[RGBColor]) -> Result<(), DrawError> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(30)
        .margin_bottom(40)
        .margin_right(4)
        .margin_left(12)
        .right_y_label_area_size(34)
        .build_cartesian_2d(0.0..cs.len() as f64, 0.0..1.0)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style(text(11))
        .y_labels(6)
        .y_label_formatter(&tick)
        .draw()?;
    let steps = 100;
    for (k, &c) in cs.iter().enumerate() {
        chart.draw_series((0..steps).map(|i| {
            let (lo, hi) = (i as f64 / steps as f64, (i + 1) as f64 / steps as f64);
            Rectangle::new(
                [(k as f64, lo), (k as f64 + 1.0, hi)],
                shade(c, (lo + hi) / 2.0).filled(),
            )
        }))?;
    }
    Ok(())
}

/// One control's values as a column of grey dots at `x`, spread sideways.
fn strip(chart: &mut Chart, x: f64, control: &[f64]) -> Result<(), DrawError> {
    chart.draw_series(control.iter().enumerate().map(|(i, &y)| {
        let jitter = (i as f64 / control.len() as f64 - 0.5) * 0.3;
        Circle::new((x + jitter, y), 4, PALETTE[6].filled())
    }))?;
    Ok(())
}

fn induction() -> Result<String, DrawError> {
    let f = book();
    let a = &f.ablation;
    svg(750, 760, |root| {
        let (top, bottom) = root.split_vertically(420);
        let (maps, bar) = top.split_horizontally(670);
        let cells = maps.split_evenly((1, 3));
        let (blue, green) = (color(0), color(2));
        heads_map(
            &cells[0],
            &f.scores.trained.prefix,
            "prefix score, trained",
            blue,
        )?;
        heads_map(
            &cells[1],
            &f.scores.random.prefix,
            "prefix score, random",
            blue,
        )?;
        heads_map(
            &cells[2],
            &f.scores.trained.previous,
            "previous token, trained",
            green,
        )?;
        colour_bar(&bar, &[blue, green])?;
        let (left, right) = bottom.split_horizontally(375);
        let top_rise = a
            .random_rise
            .iter()
            .chain(&a.same_layer_rise)
            .copied()
            .fold(a.induction_rise, f64::max);
        let lo = a
            .random_rise
            .iter()
            .chain(&a.same_layer_rise)
            .copied()
            .fold(0.0, f64::min);
        let mut chart = axes(
            &left,
            format!("remove {} heads: loss on the repeat", BOOK.k),
            -0.5..2.5,
            lo - 0.3..top_rise * HEADROOM,
        )?;
        mesh(&mut chart, "", "loss rise (nats)")
            .disable_mesh()
            .x_labels(3)
            .x_label_formatter(&|v| {
                say(match v.round() as i64 {
                    0 => "all layers".into(),
                    1 => "same layers".into(),
                    2 => "induction".into(),
                    _ => String::new(),
                })
            })
            .draw()?;
        strip(&mut chart, 0.0, &a.random_rise)?;
        strip(&mut chart, 1.0, &a.same_layer_rise)?;
        chart
            .draw_series([Circle::new((2.0, a.induction_rise), 6, blue.filled())])?
            .label(say(format!("heads {}", names(&a.induction))))
            .legend(|(x, y)| Circle::new((x + 5, y), 5, blue.filled()));
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        let drops = || a.random_drop.iter().chain(&a.same_layer_drop).copied();
        let top_drop = drops().fold(a.previous_drop, f64::max);
        let lo = drops().fold(0.0, f64::min);
        let mut chart = axes(
            &right,
            format!("remove {} earlier heads: induction", BOOK.k),
            -0.5..2.5,
            lo - 0.05..top_drop * HEADROOM,
        )?;
        mesh(&mut chart, "", "drop of prefix score")
            .disable_mesh()
            .x_labels(3)
            .x_label_formatter(&|v| {
                say(match v.round() as i64 {
                    0 => "layers below".into(),
                    1 => "same layers".into(),
                    2 => "previous-token".into(),
                    _ => String::new(),
                })
            })
            .draw()?;
        strip(&mut chart, 0.0, &a.random_drop)?;
        strip(&mut chart, 1.0, &a.same_layer_drop)?;
        chart
            .draw_series([Circle::new((2.0, a.previous_drop), 6, green.filled())])?
            .label(say(format!("heads {}", names(&a.previous))))
            .legend(|(x, y)| Circle::new((x + 5, y), 5, green.filled()));
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        Ok(())
    })
}
