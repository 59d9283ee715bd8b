//! Figure of chapter 2's decoder column (it reads
//! [`crate::experiment::coverage::trained::book`], never computes).

use super::key;
use super::style::{axes, color, mesh, model_curve, svg};
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
    let whats = ["weight on token 0", "token 0's share of the carried norm"];
    let labels = key::models(&whats);
    let entries = key::borrowed(&labels);
    svg(750, 420 + key::height(entries.len(), 2), |root| {
        let (top, strip) = root.split_vertically(420);
        key::key(&strip, &entries, 2, 60)?;
        let mut chart = axes(
            &top,
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
            for k in 0..whats.len() {
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
                model_curve(&mut chart, pts, color(k), dashed)?;
            }
        }
        Ok(())
    })
}
