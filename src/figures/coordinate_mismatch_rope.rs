//! Figure of chapter 1's decoder column: what explains a RoPE head's score,
//! and how symmetric its effective form stays as the form turns with distance.

use plotters::prelude::*;

use super::palette;
use super::relations_trained::{Series, lines};
use super::style::{axes, bar, box_key, legend, mesh, say, svg};
use super::{DrawError, Figure};
use crate::experiment::coordinate_mismatch::rotating::{EXPLANATIONS, Keys, book};
use crate::pretrained::corpus::Model;
use crate::stats::Summary;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch01-rope",
    chapter: 1,
    about: "SmolLM2's heads on real text: the share of score variance raw cosine, the unrotated W_QK and the offset explain, and the effective form's symmetric share against distance, trained against Llama's initialisation",
    draw: rope,
}];

fn rope() -> Result<String, DrawError> {
    let f = book();
    let mut shares = vec![];
    for (k, model) in Model::BOTH.into_iter().enumerate() {
        let r = f.model(model);
        let distances = r.share[0].len();
        shares.push(Series {
            label: model.name().to_string(),
            color: palette::MODELS[k],
            dashed: k == 1,
            points: (0..distances)
                .step_by(4)
                .map(|d| (d as f64, Summary::over(r.share.iter().map(|s| s[d]))))
                .collect(),
        });
    }
    let last = (f.trained.share[0].len() - 1) as f64;
    svg(750, 360, |root| {
        let p = root.split_evenly((1, 2));
        let mut chart = axes(&p[0], "score variance explained", -0.5..2.5, 0.0..1.05)?;
        mesh(&mut chart, "", "R² over pairs j ≤ i, per head")
            .disable_mesh()
            .x_labels(3)
            .x_label_formatter(&|v| {
                say({
                    let i = v.round() as usize;
                    EXPLANATIONS
                        .get(i)
                        .map_or(String::new(), |e| e.label.to_string())
                })
            })
            .draw()?;
        for (k, model) in Model::BOTH.into_iter().enumerate() {
            let r = f.model(model);
            for (i, e) in EXPLANATIONS.iter().enumerate() {
                let s = Summary::of(&r.explained(Keys::All, e.of));
                bar(
                    &mut chart,
                    i as f64 + 0.2 * (2.0 * k as f64 - 1.0),
                    0.18,
                    s,
                    palette::MODELS[k],
                )?;
            }
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), u32>>())?
                .label(say(model.name()))
                .legend(box_key(palette::MODELS[k]));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        lines(
            &p[1],
            "symmetric share of the turned form",
            ("distance i − j (tokens)", "‖W_sym(Δ)‖² / ‖W_QK(Δ)‖²"),
            -2.0..last + 2.0,
            0.45..0.75,
            &shares,
            SeriesLabelPosition::UpperRight,
        )
    })
}
