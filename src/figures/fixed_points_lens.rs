//! Figure of chapter 5's logit lens on the decoder.

use plotters::prelude::*;

use super::style::{axes, color, legend, mesh, model_line, span, svg};
use super::{DrawError, Figure};
use crate::experiment::fixed_points::lens_shuffled;
use crate::experiment::fixed_points::logit_lens::{ModelFindings, Positions, book};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch05-logit-lens",
    chapter: 5,
    about: "SmolLM2's logit lens per layer boundary: the share of positions whose decoded top-1 is the model's final top-1, and the lens's KL divergence from the output; trained, Llama's initialisation, and the trained blocks 1–28 in shuffled orders",
    draw: lens,
}];

/// One curve per boundary `l`: `(l, value)`.
fn curve(values: Vec<f64>) -> Vec<(f64, f64)> {
    values
        .into_iter()
        .enumerate()
        .map(|(l, v)| (l as f64, v))
        .collect()
}

fn lens() -> Result<String, DrawError> {
    let f = book();
    let shuffled = lens_shuffled::pooled(lens_shuffled::book());
    let runs: [(&ModelFindings, &str, bool); 3] = [
        (&f.trained, "trained", false),
        (&f.random, "random (Llama's initialisation)", true),
        (&shuffled, "trained blocks 1–28 shuffled", true),
    ];
    let boundaries = f.trained.agreement(Positions::All).len();
    let x = -0.5..(boundaries as f64 - 0.5);
    // the KL from boundary 1 on: the embedding's own is far above
    let kl_top = span(
        runs.iter()
            .flat_map(|r| r.0.kl(Positions::All).into_iter().skip(1)),
        0.05,
    )
    .end;
    svg(750, 640, |root| {
        let (top, bottom) = root.split_vertically(320);
        let mut chart = axes(
            &top,
            "when the final next token becomes the lens's top-1",
            x.clone(),
            0.0..1.05,
        )?;
        mesh(
            &mut chart,
            "layer boundary l (0: the embedding; 30: the output)",
            "share of positions, lens top-1 = final",
        )
        .disable_mesh()
        .draw()?;
        for (k, (r, label, dashed)) in runs.iter().enumerate() {
            let pts = curve(r.agreement(Positions::All));
            model_line(&mut chart, pts, color(k), *dashed, label.to_string())?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        let mut chart = axes(
            &bottom,
            "how far the lens's distribution is from the output",
            x.clone(),
            0.0..kl_top,
        )?;
        mesh(
            &mut chart,
            "layer boundary l",
            "mean KL(output ‖ lens), nats",
        )
        .disable_mesh()
        .draw()?;
        for (k, (r, label, dashed)) in runs.iter().enumerate() {
            let pts = curve(r.kl(Positions::All));
            model_line(&mut chart, pts, color(k), *dashed, label.to_string())?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}
