//! Figure of chapter 2's decoder column (it reads
//! [`crate::experiment::coverage::trained::book`], never computes).

use plotters::prelude::*;

use super::style::{axes, color, legend, mesh, model_line, svg};
use super::{DrawError, Figure};
use crate::experiment::coverage::trained::{Start, book};
use crate::pretrained::corpus::Model;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch02-decoder-sink",
    chapter: 2,
    about: "SmolLM2 per layer: the weight its heads put on the first token against that token's share of the carried norm, trained against Llama's initialisation",
    draw: sink,
}];

/// Per layer, the head-and-sentence means of the weight on token 0 and of its
/// carried-norm share; trained solid, random dashed.
fn sink() -> Result<String, DrawError> {
    let f = &book().decoder;
    svg(750, 420, |root| {
        let mut chart = axes(
            root,
            "SmolLM2: the first token takes weight, carries less",
            0.5..30.5,
            0.0..1.0,
        )?;
        mesh(&mut chart, "layer", "share, mean over heads and sentences")
            .disable_mesh()
            .draw()?;
        for model in Model::BOTH {
            let side = f.model(model);
            let dashed = model == Model::Random;
            for (k, what) in ["weight on token 0", "token 0's share of the carried norm"]
                .iter()
                .enumerate()
            {
                let pts: Vec<(f64, f64)> = (0..30)
                    .map(|l| {
                        let s = side.summary(Start::Own, l..l + 1, |h| {
                            if k == 0 {
                                h.special_weight
                            } else {
                                h.special_norm
                            }
                        });
                        ((l + 1) as f64, s.mean)
                    })
                    .collect();
                let label = format!("{what}, {}", model.name());
                model_line(&mut chart, pts, color(k), dashed, label)?;
            }
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}
