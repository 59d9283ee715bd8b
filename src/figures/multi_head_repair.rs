//! Chapter 3's figure of self-repair in the decoder (it reads
//! [`crate::experiment::multi_head::repair::book`], never computes).

use plotters::prelude::*;

use super::palette;
use super::style::{axes, legend, mesh, model_line, span, svg};
use super::{DrawError, Figure};
use crate::experiment::multi_head::repair::verdict::SMOLLM2_READS;
use crate::experiment::multi_head::repair::{HEAD_ZEROED, LAYER_RESAMPLE, book};
use crate::pretrained::corpus::Model;
use crate::pretrained::transformer::Architecture;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch03-decoder-self-repair",
    chapter: 3,
    about: "SmolLM2 per layer: the share κ of a change's direct effect that survives to the output, one head zeroed and the whole attention layer resample-ablated, trained against Llama's initialisation",
    draw: decoder_self_repair,
}];

/// Median κ per layer (normed last stream, final RMSNorm frozen on the direct
/// path): one head zeroed, and McGrath et al.'s whole-layer resample ablation.
fn decoder_self_repair() -> Result<String, DrawError> {
    let f = book(Architecture::Smollm2);
    let read = SMOLLM2_READS[0].1;
    let panels = [
        (HEAD_ZEROED, "one head zeroed"),
        (LAYER_RESAMPLE, "attention layer resampled"),
    ];
    let layers = f.last_layer() + 1;
    let curves: Vec<Vec<Vec<f64>>> = panels
        .iter()
        .map(|&(c, _)| Model::BOTH.map(|m| f.by_layer(m, c, read)).to_vec())
        .collect();
    let y = span(
        curves.iter().flatten().flatten().copied().chain([0.0, 1.0]),
        0.05,
    );
    svg(750, 360, |root| {
        let areas = root.split_evenly((1, 2));
        for (p, (_, title)) in panels.iter().enumerate() {
            let mut chart = axes(&areas[p], *title, -0.5..layers as f64 - 0.5, y.clone())?;
            mesh(&mut chart, "layer ℓ", "median κ (1: no repair)")
                .disable_x_mesh()
                .draw()?;
            chart.draw_series([PathElement::new(
                vec![(-0.5, 1.0), (layers as f64 - 0.5, 1.0)],
                BLACK.mix(0.4).stroke_width(1),
            )])?;
            for (k, model) in Model::BOTH.into_iter().enumerate() {
                let pts = curves[p][k]
                    .iter()
                    .enumerate()
                    .map(|(l, &v)| (l as f64, v))
                    .collect();
                model_line(
                    &mut chart,
                    pts,
                    palette::MODELS[k],
                    k == 1,
                    model.name().to_string(),
                )?;
            }
            legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        }
        Ok(())
    })
}
