//! Figures of chapter 5's section on the trained encoder.

use super::relations_trained::{Series, lines};
use plotters::prelude::SeriesLabelPosition;

use super::palette;
use super::style::{COLUMN, color, svg};
use super::{DrawError, Figure};
use crate::experiment::fixed_points::trained::{Iteration, ModelFindings, book};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::LAYERS;
use crate::stats::Summary;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch05-trained-stream",
        chapter: 5,
        about: "the residual stream across depth: relative update and cosine of consecutive layers, trained against random weights",
        draw: stream,
    },
    Figure {
        name: "ch05-decoder-stream",
        chapter: 5,
        about: "SmolLM2's residual stream across its 30 blocks: relative update and cosine of consecutive states, trained against Llama's initialisation",
        draw: decoder_stream,
    },
    Figure {
        name: "ch05-trained-iterate",
        chapter: 5,
        about: "one layer iterated on a real hidden state, with and without its residual paths: step size and distance from rank one",
        draw: iterate,
    },
];

/// A mean with its 95% interval, as the `± sd` bar [`lines`] draws.
fn interval(s: Summary) -> Summary {
    let (lo, hi) = s.ci95();
    Summary {
        sd: (hi - lo) / 2.0,
        ..s
    }
}

/// The encoder's stream, mean and 95% interval over sentences per layer.
fn stream() -> Result<String, DrawError> {
    use crate::experiment::fixed_points::trained::Series as S;
    let f = book();
    let mut update = vec![];
    let mut cosine = vec![];
    for (k, model) in Model::BOTH.into_iter().enumerate() {
        let r = f.minilm.model(model);
        let pts =
            |g: &dyn Fn(usize) -> Summary| (0..LAYERS).map(|l| ((l + 1) as f64, g(l))).collect();
        update.push(Series {
            label: model.name().to_string(),
            color: palette::MODELS[k],
            dashed: k == 1,
            points: pts(&|l| interval(r.all.over_sentences(S::Update, l))),
        });
        cosine.push(Series {
            label: model.name().to_string(),
            color: palette::MODELS[k],
            dashed: k == 1,
            points: pts(&|l| interval(r.all.over_sentences(S::Cosine, l))),
        });
    }
    svg(COLUMN, 400, |root| {
        let p = root.split_evenly((1, 2));
        lines(
            &p[0],
            "relative update",
            ("layer l + 1", "‖zₗ₊₁ − zₗ‖ / ‖zₗ‖"),
            0.5..6.5,
            0.0..1.4,
            &update,
            SeriesLabelPosition::UpperLeft,
        )?;
        lines(
            &p[1],
            "consecutive layers",
            ("layer l + 1", "cos(zₗ, zₗ₊₁)"),
            0.5..6.5,
            0.0..1.1,
            &cosine,
            SeriesLabelPosition::LowerLeft,
        )
    })
}

/// The decoder's stream over every token but the first (the sink's massive
/// activation runs off any shared scale): relative update from block 2 (the
/// first block writes onto the small embedding), cosine from block 1; mean
/// and 95% interval over sentences per block.
fn decoder_stream() -> Result<String, DrawError> {
    use crate::experiment::fixed_points::trained::Series as S;
    let (mut update, mut cosine) = (vec![], vec![]);
    for (k, model) in Model::BOTH.into_iter().enumerate() {
        let s = &book().smollm2.model(model).later;
        let blocks = s.update.len();
        let series = |series: S, from: usize| Series {
            label: model.name().to_string(),
            color: palette::MODELS[k],
            dashed: k == 1,
            points: (from..blocks)
                .map(|l| ((l + 1) as f64, interval(s.over_sentences(series, l))))
                .collect(),
        };
        update.push(series(S::Update, 1));
        cosine.push(series(S::Cosine, 0));
    }
    svg(COLUMN, 400, |root| {
        let p = root.split_evenly((1, 2));
        lines(
            &p[0],
            "relative update, blocks 2–30",
            ("block l + 1", "‖zₗ₊₁ − zₗ‖ / ‖zₗ‖"),
            1.5..30.5,
            0.0..2.4,
            &update,
            SeriesLabelPosition::UpperRight,
        )?;
        lines(
            &p[1],
            "consecutive states",
            ("block l + 1", "cos(zₗ, zₗ₊₁)"),
            0.5..30.5,
            0.0..1.1,
            &cosine,
            SeriesLabelPosition::LowerRight,
        )
    })
}

/// `(k, summary over layers and sentences of g(run)[k])`.
fn per_step(
    runs: &[&Iteration],
    g: fn(&Iteration) -> &Vec<f64>,
    offset: f64,
) -> Vec<(f64, Summary)> {
    let len = g(runs[0]).len();
    (0..len)
        .map(|k| {
            (
                k as f64 + offset,
                Summary::over(runs.iter().map(|r| g(r)[k])),
            )
        })
        .collect()
}

fn iterate() -> Result<String, DrawError> {
    let f = book();
    let mut res = vec![];
    let mut col = vec![];
    for (k, model) in Model::BOTH.into_iter().enumerate() {
        let r: &ModelFindings = f.minilm.model(model);
        for (p, paths) in ["with residual paths", "without"].iter().enumerate() {
            let runs = r.layer_runs(p);
            let label = format!("{}, {paths}", model.name());
            res.push(Series {
                label: label.clone(),
                color: color(2 * p + k),
                dashed: k == 1,
                points: per_step(&runs, |i| &i.residual, 1.0),
            });
            col.push(Series {
                label,
                color: color(2 * p + k),
                dashed: k == 1,
                points: per_step(&runs, |i| &i.collapse, 0.0),
            });
        }
    }
    let steps = f.minilm.trained.layer[0][0][0].residual.len() as f64;
    svg(COLUMN, 400, |root| {
        let p = root.split_evenly((1, 2));
        lines(
            &p[0],
            "step size",
            ("application k", "‖f(Z) − Z‖ / ‖Z‖"),
            0.5..steps + 0.5,
            0.0..3.2,
            &res,
            SeriesLabelPosition::UpperRight,
        )?;
        lines(
            &p[1],
            "rank collapse",
            ("application k", "distance from rank one"),
            -0.5..steps + 0.5,
            0.0..1.6,
            &col,
            SeriesLabelPosition::UpperRight,
        )
    })
}
