//! Figure of chapter 5's lenses on the decoder: the fitted lens beside the plain logit lens.

use plotters::prelude::*;

use super::style::{Canvas, axes, color, legend, mesh, model_line, svg};
use super::{DrawError, Figure};
use crate::experiment::fixed_points::logit_lens::{ModelFindings, Positions, book};
use crate::experiment::fixed_points::{lens_fitted, lens_shuffled};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch05-logit-lens",
    chapter: 5,
    about: "SmolLM2's predictions across depth: the share of positions whose lens top-1 is the final top-1 per layer boundary, read by the fitted lens (top) and the plain logit lens (bottom); trained, Llama's initialisation, the trained writes in random directions, and (plain) the trained blocks 1–28 in shuffled orders",
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

/// One panel: each run's agreement with the final top-1 per boundary.
fn panel(
    area: &Canvas,
    title: &str,
    runs: &[(ModelFindings, &str, usize)],
) -> Result<(), DrawError> {
    let boundaries = runs[0].0.agreement(Positions::All).len();
    let mut chart = axes(area, title, -0.5..(boundaries as f64 - 0.5), 0.0..1.05)?;
    mesh(
        &mut chart,
        "layer boundary l (0: the embedding; 30: the output)",
        "share of positions, lens top-1 = final",
    )
    .disable_mesh()
    .draw()?;
    for (r, label, k) in runs {
        let pts = curve(r.agreement(Positions::All));
        model_line(&mut chart, pts, color(*k), *k > 0, label.to_string())?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

fn lens() -> Result<String, DrawError> {
    let (plain, f) = (book(), lens_fitted::book());
    let fitted = [
        (f.fitted.trained.pooled(), "trained", 0),
        (
            f.fitted.random.pooled(),
            "random (Llama's initialisation)",
            1,
        ),
        (f.null_fitted(), "trained writes, random directions", 3),
    ];
    let plain = [
        (plain.trained.clone(), "trained", 0),
        (plain.random.clone(), "random (Llama's initialisation)", 1),
        (f.null_plain(), "trained writes, random directions", 3),
        (
            lens_shuffled::pooled(lens_shuffled::book()),
            "trained blocks 1–28 shuffled",
            2,
        ),
    ];
    svg(750, 640, |root| {
        let (top, bottom) = root.split_vertically(320);
        panel(
            &top,
            "the fitted lens (least squares per boundary)",
            &fitted,
        )?;
        panel(&bottom, "the plain logit lens", &plain)
    })
}
