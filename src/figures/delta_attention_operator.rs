//! The figure of chapter 7's operator page: predicted against measured
//! intervention effects, one panel per mixer.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::style::{COLUMN, axes, color, mesh, span, svg};
use super::{DrawError, Figure};
use crate::experiment::delta_attention::operator::report::DEFAULT;
use crate::experiment::delta_attention::operator::{MIXERS, Pair, Role, book};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch07-operator",
    chapter: 7,
    about: "the effect of replacing a written value on a later answer, against the similarity and operator accounts",
    draw: operator,
}];

/// `(account / its largest value, drop)` of `pairs`, and whether the write is stale.
fn points(pairs: &[Pair], account: fn(&Pair) -> f64) -> Vec<(f64, f64, bool)> {
    let top = pairs.iter().map(account).fold(f64::MIN_POSITIVE, f64::max);
    pairs
        .iter()
        .map(|p| (account(p) / top, p.drop, p.role == Role::Stale))
        .collect()
}

fn operator() -> Result<String, DrawError> {
    let f = book();
    let u = f.setup.task.updates;
    let b = DEFAULT.block;
    let (sim_c, op_c) = (color(6), color(1));
    let entries = [
        (Swatch::Dot(sim_c), "similarity"),
        (Swatch::Dot(op_c), "operator"),
        (Swatch::Note, "large dots: stale writes"),
    ];
    svg(COLUMN, 640 + key::height(entries.len(), 3), |root| {
        let (top, strip) = root.split_vertically(640);
        key::key(&strip, &entries, 3, 60)?;
        let panels = top.split_evenly((2, 2));
        for (area, mixer) in panels.iter().zip(MIXERS) {
            let drawn = f
                .runs(mixer, u)
                .into_iter()
                .find(|a| a.seed == 0)
                .map(|a| a.drawn.clone())
                .unwrap_or_default();
            let sim = points(&drawn, |p| p.similarity[DEFAULT.block][DEFAULT.span]);
            let op = points(&drawn, |p| p.operator[DEFAULT.block][DEFAULT.span]);
            let mut chart = axes(
                area,
                format!("{}, block {}", mixer.name(), b + 1),
                -0.02f64..1.02,
                span(drawn.iter().map(|p| p.drop), 0.05),
            )?;
            mesh(
                &mut chart,
                "account / its largest value",
                "drop in ln p(answer)",
            )
            .disable_mesh()
            .draw()?;
            for (pts, c) in [(&sim, sim_c), (&op, op_c)] {
                chart.draw_series(pts.iter().map(|&(x, y, stale)| {
                    let size = if stale { 4 } else { 2 };
                    Circle::new((x, y), size, c.mix(0.6).filled())
                }))?;
            }
        }
        Ok(())
    })
}
