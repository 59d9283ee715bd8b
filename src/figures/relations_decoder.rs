//! Figure of chapter 4's decoder column (it reads
//! [`crate::experiment::relations::trained::decoder`], never computes).

use super::key;
use super::style::{axes, color, mesh, model_curve, svg};
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
    let whats = ["same word, two prefixes", "two unrelated words"];
    let labels = key::models(&whats);
    let entries = key::borrowed(&labels);
    svg(750, 400 + key::height(entries.len(), 2), |root| {
        let (top, strip) = root.split_vertically(400);
        key::key(&strip, &entries, 2, 60)?;
        let mut chart = axes(
            &top,
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
            for k in 0..whats.len() {
                let depths = x.context[0].state.len();
                let pts: Vec<(f64, f64)> = (0..depths)
                    .map(|l| (l as f64, x.divergence(k == 1, l).mean))
                    .collect();
                model_curve(&mut chart, pts, color(k), dashed)?;
            }
        }
        Ok(())
    })
}
