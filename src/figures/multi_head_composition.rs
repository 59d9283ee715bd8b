//! Figure of chapter 3's trained two-hop model: what the later layer does
//! with each first-layer head's output (reads
//! [`crate::experiment::multi_head::composition::book`], never computes).

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::palette;
use super::style::{axes, mesh, svg};
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
    let (c0, c1) = (palette::RANDOM, palette::TRAINED);
    let entries = [
        (Swatch::Triangle(c0), "at initialisation"),
        (Swatch::Dot(c1), "trained"),
        (
            Swatch::Line(BLACK),
            "total = direct (the later layer passes it on)",
        ),
    ];
    svg(600, 460 + key::height(entries.len(), 2), |root| {
        let (plot, strip) = root.split_vertically(460);
        key::key(&strip, &entries, 2, 60)?;
        let mut chart = axes(
            &plot,
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
        chart.draw_series([PathElement::new(
            vec![(0.0, 0.0), (end, end)],
            BLACK.stroke_width(1),
        )])?;
        chart.draw_series(init.iter().map(|&p| TriangleMarker::new(p, 5, c0.filled())))?;
        chart.draw_series(trained.iter().map(|&p| Circle::new(p, 4, c1.filled())))?;
        Ok(())
    })
}
