//! Figure of chapter 4's decoder column (it reads
//! [`crate::experiment::relations::trained::decoder`], never computes).

use plotters::prelude::*;

use super::style::{axes, color, legend, mesh, model_line, svg};
use super::{DrawError, Figure};
use crate::experiment::relations::trained::decoder as book;
use crate::pretrained::corpus::Model;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch04-decoder-context",
    chapter: 4,
    about: "SmolLM2: 1 − cos between a word's states after two different prefixes, and between two unrelated words, at every depth, trained against Llama's initialisation",
    draw: context,
}];

/// Per depth `l = 0 … 30`, the mean over pairs of `1 − cos` of the word after
/// two prefixes and of two unrelated words; trained solid, random dashed.
fn context() -> Result<String, DrawError> {
    let f = book();
    svg(750, 400, |root| {
        let mut chart = axes(
            root,
            "SmolLM2: the same word after two prefixes",
            -0.5..30.5,
            0.0..1.05,
        )?;
        mesh(
            &mut chart,
            "depth l (state after block l)",
            "1 − cos, mean over pairs",
        )
        .disable_mesh()
        .draw()?;
        for model in Model::BOTH {
            let x = f.model(model);
            let dashed = model == Model::Random;
            for (k, what) in ["same word, two prefixes", "two unrelated words"]
                .iter()
                .enumerate()
            {
                let depths = x.context[0].state.len();
                let pts: Vec<(f64, f64)> = (0..depths)
                    .map(|l| (l as f64, x.divergence(k == 1, l).mean))
                    .collect();
                let label = format!("{what}, {}", model.name());
                model_line(&mut chart, pts, color(k), dashed, label)?;
            }
        }
        legend(&mut chart, SeriesLabelPosition::Coordinate(440, 110))
    })
}
