//! Figures of chapter 4's section on the trained encoder, and the line chart
//! with error bars that chapter 5's trained section shares.

use plotters::prelude::*;

use super::style::{COLUMN, Canvas, axes, color, error_bar, legend, mesh, say, svg};
use super::{DrawError, Figure};
use crate::experiment::relations::trained::{Attribution, Change, ModelFindings, book};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::LAYERS;
use crate::stats::Summary;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch04-trained-attribution",
        chapter: 4,
        about: "trained MiniLM against random weights: agreement of raw attention and rollout with the effect, and composed arrows against measured ones, per layer",
        draw: attribution,
    },
    Figure {
        name: "ch04-trained-context",
        chapter: 4,
        about: "one word in two contexts: how far its state and its strongest partners move, against unrelated sentences",
        draw: context,
    },
];

/// One line of a chart: mean ± sd at each x.
pub struct Series {
    pub label: String,
    pub color: RGBColor,
    pub dashed: bool,
    pub points: Vec<(f64, Summary)>,
}

/// Draw `series` as lines with `± sd` bars on `area`.
pub fn lines(
    area: &Canvas,
    title: &str,
    (x_desc, y_desc): (&str, &str),
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    series: &[Series],
    key: SeriesLabelPosition,
) -> Result<(), DrawError> {
    let mut chart = axes(area, title, x, y)?;
    mesh(&mut chart, x_desc, y_desc)
        .disable_mesh()
        .x_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    for s in series {
        let style = s.color.stroke_width(2);
        let pts: Vec<(f64, f64)> = s.points.iter().map(|(x, m)| (*x, m.mean)).collect();
        let c = s.color;
        let dash = s.dashed;
        let drawn = if dash {
            chart.draw_series(DashedLineSeries::new(pts.clone(), 6, 4, style))?
        } else {
            chart.draw_series(LineSeries::new(pts.clone(), style))?
        };
        // a dashed line's key is two short strokes
        let gap = if dash { 4 } else { 0 };
        drawn.label(say(s.label.clone())).legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (8 - gap, 0)], c.stroke_width(2))
                + PathElement::new(vec![(8 + gap, 0), (16, 0)], c.stroke_width(2))
        });
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
        for (x, m) in &s.points {
            chart.draw_series(error_bar(
                *x,
                m.mean - m.sd,
                m.mean + m.sd,
                0.08,
                c.stroke_width(1),
            ))?;
        }
    }
    legend(&mut chart, key)
}

/// `(m, summary over sentences of g(a)[m − 1])`, `m = 1 … 6`.
fn per_layer(r: &ModelFindings, g: fn(&Attribution) -> &Vec<f64>) -> Vec<(f64, Summary)> {
    (0..LAYERS)
        .map(|l| ((l + 1) as f64, r.over_sentences(|a| g(a)[l])))
        .collect()
}

fn line(label: String, i: usize, dashed: bool, points: Vec<(f64, Summary)>) -> Series {
    Series {
        label,
        color: color(i),
        dashed,
        points,
    }
}

fn attribution() -> Result<String, DrawError> {
    let f = book();
    let mut rho = vec![];
    let mut tv = vec![];
    for (k, model) in Model::BOTH.into_iter().enumerate() {
        let (r, name, dashed) = (f.model(model), model.name(), k == 1);
        rho.push(line(
            format!("raw attention, {name}"),
            0,
            dashed,
            per_layer(r, |a| &a.rho_raw),
        ));
        rho.push(line(
            format!("rollout, {name}"),
            1,
            dashed,
            per_layer(r, |a| &a.rho_rollout),
        ));
        tv.push(line(
            format!("composite of one-layer norms, {name}"),
            2,
            dashed,
            per_layer(r, |a| &a.tv_composite),
        ));
        tv.push(line(
            format!("linearised composite, {name}"),
            3,
            dashed,
            per_layer(r, |a| &a.tv_linearised),
        ));
        tv.push(line(
            format!("uniform arrow, {name}"),
            6,
            dashed,
            per_layer(r, |a| &a.tv_uniform),
        ));
    }
    svg(COLUMN, 420, |root| {
        let p = root.split_evenly((1, 2));
        lines(
            &p[0],
            "agreement with the leave-one-out effect",
            ("layer m", "Spearman ρ with the effect on zₘ"),
            0.5..6.5,
            -0.3..1.5,
            &rho,
            SeriesLabelPosition::UpperRight,
        )?;
        lines(
            &p[1],
            "distance from the measured arrow input → layer m",
            ("layer m", "mean row TV"),
            0.5..6.5,
            0.0..1.3,
            &tv,
            SeriesLabelPosition::UpperRight,
        )
    })
}

/// `(x, summary over pairs of g(c, x))` for `x` in `xs`.
fn per_pair(
    changes: &[Change],
    xs: std::ops::Range<usize>,
    g: fn(&Change, usize) -> f64,
) -> Vec<(f64, Summary)> {
    xs.map(|l| (l as f64, ModelFindings::over_pairs(changes, |c| g(c, l))))
        .collect()
}

fn context() -> Result<String, DrawError> {
    let f = book();
    let mut state = vec![];
    let mut partner = vec![];
    for (k, model) in Model::BOTH.into_iter().enumerate() {
        let (r, name, dashed) = (f.model(model), model.name(), k == 1);
        let s = |c: &Change, l: usize| c.state[l];
        let p = |c: &Change, l: usize| c.partner[l - 1];
        state.push(line(
            format!("same word, new context, {name}"),
            0,
            dashed,
            per_pair(&r.context, 0..LAYERS + 1, s),
        ));
        state.push(line(
            format!("unrelated sentences, {name}"),
            6,
            dashed,
            per_pair(&r.unrelated, 0..LAYERS + 1, s),
        ));
        partner.push(line(
            format!("same word, new context, {name}"),
            0,
            dashed,
            per_pair(&r.context, 1..LAYERS + 1, p),
        ));
        partner.push(line(
            format!("unrelated sentences, {name}"),
            6,
            dashed,
            per_pair(&r.unrelated, 1..LAYERS + 1, p),
        ));
    }
    svg(COLUMN, 420, |root| {
        let p = root.split_evenly((1, 2));
        lines(
            &p[0],
            "the word's hidden state",
            ("depth l (0: embeddings)", "1 − cos(zₗ in A, zₗ in B)"),
            -0.5..6.5,
            0.0..1.6,
            &state,
            SeriesLabelPosition::UpperLeft,
        )?;
        lines(
            &p[1],
            "the word's strongest partner",
            ("layer", "share of the 12 heads whose partner changes"),
            0.5..6.5,
            0.0..1.6,
            &partner,
            SeriesLabelPosition::UpperLeft,
        )
    })
}
