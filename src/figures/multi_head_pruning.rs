//! Figure of chapter 3's pruning of SmolLM2 (it reads
//! [`crate::experiment::multi_head::pruning::book`], never computes).

use plotters::prelude::*;

use super::palette;
use super::style::{Canvas, axes, color, legend, marked_line, mesh, model_line, say, svg};
use super::{DrawError, Figure};
use crate::experiment::multi_head::pruning::{BOOK, Side, Tally, book};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch03-decoder-pruning",
    chapter: 3,
    about: "SmolLM2's heads removed 27 at a time: top-1 agreement and next-token loss, least important first, in random orders, and the random-weight decoder",
    draw: pruning,
}];

/// `(heads removed, value)` along `curve`.
fn points(side: &Side, curve: &[Tally], value: impl Fn(&Tally) -> f64) -> Vec<(f64, f64)> {
    side.levels
        .iter()
        .zip(curve)
        .map(|(&k, t)| (k as f64, value(t)))
        .collect()
}

/// One panel: the trained decoder in importance order, each random order,
/// the random-weight decoder, and the level a drop of `BOOK.drop` reaches;
/// the key at `key`, where the panel has room for it.
fn panel(
    area: &Canvas,
    title: &str,
    y_desc: &str,
    y: std::ops::Range<f64>,
    value: fn(&Tally) -> f64,
    threshold: f64,
    key: Option<SeriesLabelPosition>,
) -> Result<(), DrawError> {
    let f = book();
    let (t, r) = (&f.trained, &f.random);
    let top = t.order.len() as f64;
    let mut chart = axes(area, title, -5.0..top + 5.0, y)?;
    mesh(&mut chart, "heads removed", y_desc).draw()?;
    let grey = color(6);
    for (i, c) in t.random.iter().enumerate() {
        let drawn =
            chart.draw_series(LineSeries::new(points(t, c, value), grey.stroke_width(1)))?;
        if i == 0 {
            drawn
                .label(say(format!("random order ({} seeds)", t.random.len())))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], grey.stroke_width(1))
                });
        }
    }
    model_line(
        &mut chart,
        points(t, &t.curve, value),
        palette::TRAINED,
        false,
        "trained, least important first".into(),
    )?;
    model_line(
        &mut chart,
        points(r, &r.curve, value),
        palette::RANDOM,
        true,
        "random weights, same order rule".into(),
    )?;
    marked_line(
        &mut chart,
        (0.0, threshold),
        (top, threshold),
        BLACK.mix(0.5).stroke_width(1),
        &format!("drop of {:.1}", BOOK.drop),
        (top * 0.62, threshold),
        12,
    )?;
    if let Some(at) = key {
        legend(&mut chart, at)?;
    }
    Ok(())
}

fn pruning() -> Result<String, DrawError> {
    let t = &book().trained;
    let (clean, all) = (
        t.curve[0].mean_loss(),
        t.curve[t.curve.len() - 1].mean_loss(),
    );
    // the loss at which Task::Loss has dropped by BOOK.drop
    let loss_line = clean + BOOK.drop * (all - clean);
    svg(750, 360, |root| {
        let p = root.split_evenly((1, 2));
        panel(
            &p[0],
            "top-1 agreement",
            "share of positions",
            0.0..1.05,
            Tally::agreement,
            1.0 - BOOK.drop,
            None,
        )?;
        panel(
            &p[1],
            "next-token loss",
            "nats per token",
            0.0..12.5,
            Tally::mean_loss,
            loss_line,
            // below the curves, which start near the clean loss
            Some(SeriesLabelPosition::LowerRight),
        )
    })
}
