//! Figure of chapter 5's logit lens on the decoder.

use plotters::prelude::*;

use super::style::{axes, color, legend, line_key, mesh, svg};
use super::{DrawError, Figure};
use crate::experiment::fixed_points::logit_lens::{Positions, book};
use crate::pretrained::corpus::Model;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch05-logit-lens",
    chapter: 5,
    about: "SmolLM2's logit lens: per layer boundary, the share of positions whose decoded top-1 is the model's final top-1, trained against Llama's initialisation",
    draw: lens,
}];

fn lens() -> Result<String, DrawError> {
    let f = book();
    let boundaries = f.trained.agreement(Positions::All).len();
    svg(750, 340, |root| {
        let mut chart = axes(
            root,
            "when the final next token becomes the lens's top-1",
            -0.5..(boundaries as f64 - 0.5),
            0.0..1.05,
        )?;
        mesh(
            &mut chart,
            "layer boundary l (0: the embedding; 30: the output)",
            "share of positions, lens top-1 = final",
        )
        .disable_mesh()
        .draw()?;
        for (k, model) in Model::BOTH.into_iter().enumerate() {
            let pts: Vec<(f64, f64)> = f
                .model(model)
                .agreement(Positions::All)
                .into_iter()
                .enumerate()
                .map(|(l, a)| (l as f64, a))
                .collect();
            let style = color(k).stroke_width(2);
            let drawn = match k {
                0 => chart.draw_series(LineSeries::new(pts.clone(), style))?,
                _ => chart.draw_series(DashedLineSeries::new(pts.clone(), 6, 4, style))?,
            };
            drawn.label(model.name()).legend(line_key(color(k), 2));
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color(k).filled())))?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}
