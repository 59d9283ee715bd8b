//! Figure of chapter 3's trained two-hop model: what the later layer does
//! with each first-layer head's output (reads
//! [`crate::experiment::multi_head::composition::book`], never computes).

use plotters::prelude::*;

use super::style::{axes, color, legend, line_key, mesh, say, svg};
use super::{DrawError, Figure};
use crate::experiment::multi_head::composition::{BOOK, book};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch03-two-hop-effects",
    chapter: 3,
    about: "direct against total effect of every first-layer head of the two-hop model, trained and at initialisation",
    draw: two_hop_effects,
}];

fn two_hop_effects() -> Result<String, DrawError> {
    let f = book();
    let trained: Vec<(f64, f64)> = f
        .runs
        .iter()
        .flat_map(|r| r.trained.iter().map(|e| (e.direct, e.total)))
        .collect();
    let init: Vec<(f64, f64)> = f
        .runs
        .iter()
        .flat_map(|r| r.init.iter().map(|e| (e.direct, e.total)))
        .collect();
    let top = |pick: fn(&(f64, f64)) -> f64| {
        trained.iter().chain(&init).map(pick).fold(0.0, f64::max) * 1.08
    };
    let (x_top, y_top) = (top(|p| p.0), top(|p| p.1));
    svg(600, 460, |root| {
        let mut chart = axes(
            root,
            format!(
                "two hops, {} seeds: each first-layer head removed",
                BOOK.seeds
            ),
            0.0..x_top,
            0.0..y_top,
        )?;
        mesh(
            &mut chart,
            "direct effect ‖Δ_dir‖ (later layer frozen), logits",
            "total effect ‖Δ_tot‖ (later layer recomputes)",
        )
        .disable_mesh()
        .draw()?;
        let end = x_top.min(y_top);
        chart
            .draw_series([PathElement::new(
                vec![(0.0, 0.0), (end, end)],
                BLACK.stroke_width(1),
            )])?
            .label(say("total = direct (the later layer passes it on)"))
            .legend(line_key(BLACK, 1));
        let c0 = color(0);
        chart
            .draw_series(init.iter().map(|&p| TriangleMarker::new(p, 5, c0.filled())))?
            .label(say("at initialisation"))
            .legend(move |(x, y)| TriangleMarker::new((x + 5, y), 5, c0.filled()));
        let c1 = color(1);
        chart
            .draw_series(trained.iter().map(|&p| Circle::new(p, 4, c1.filled())))?
            .label(say("trained"))
            .legend(move |(x, y)| Circle::new((x + 5, y), 4, c1.filled()));
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}
