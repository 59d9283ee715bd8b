//! Figures of chapter 1's section *In a trained transformer*.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::palette;
use super::style::{COLUMN, Canvas, axes, color, error_bar, mesh, say, svg};
use super::{DrawError, Figure};
use crate::experiment::coordinate_mismatch::trained::{Weights, book};
use crate::experiment::coordinate_mismatch::trained_text::{Statistic, Tokens, Variant};
use crate::pretrained::geometry::HeadGeometry;
use crate::stats::Summary;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch01-trained-symmetry",
        chapter: 1,
        about: "symmetric share of every trained head's W_QK and of each layer's sum, against random heads and ½ + 1/(2d)",
        draw: symmetry,
    },
    Figure {
        name: "ch01-trained-negative-mass",
        chapter: 1,
        about: "negative eigenvalue mass of every trained head's S, against random heads",
        draw: negative_mass,
    },
    Figure {
        name: "ch01-trained-agreement",
        chapter: 1,
        about: "raw similarity vs score on MiniLM's hidden states per layer: trained, random and tied heads",
        draw: agreement,
    },
];

/// A per-head quantity, its axis label, its range, and whether the layer sum has one.
struct Quantity {
    field: fn(&HeadGeometry) -> f64,
    label: &'static str,
    range: std::ops::Range<f64>,
    layer_line: bool,
}

/// One model's panel: trained heads as dots, the random heads' mean ± 2 sd as
/// a grey band, the theory as a dashed line, the layer sum as a line.
fn weights_panel(area: &Canvas, w: &Weights, q: &Quantity) -> Result<(), DrawError> {
    let (t, r) = (&w.trained, &w.random);
    let layers = t.heads.len() as f64;
    let mut chart = axes(
        area,
        format!("{} (d = {}, heads of width {})", w.model.name(), t.d, t.r),
        -0.6..layers - 0.4,
        q.range.clone(),
    )?;
    mesh(&mut chart, "layer", q.label)
        .disable_mesh()
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    let rand = Summary::of(&r.values(q.field));
    let (lo, hi) = (rand.mean - 2.0 * rand.sd, rand.mean + 2.0 * rand.sd);
    let grey = palette::RANDOM;
    chart.draw_series([Rectangle::new(
        [(-0.6, lo), (layers - 0.4, hi)],
        grey.mix(0.35).filled(),
    )])?;
    if q.layer_line {
        let theory = w.theory();
        chart.draw_series(DashedLineSeries::new(
            [(-0.6, theory), (layers - 0.4, theory)],
            6,
            4,
            BLACK.stroke_width(1),
        ))?;
    }
    let blue = palette::TRAINED;
    let heads = t.heads[0].len() as f64;
    chart.draw_series(t.heads.iter().enumerate().flat_map(|(l, hs)| {
        hs.iter().enumerate().map(move |(h, g)| {
            // spread a layer's heads over ±0.3 around it
            let x = l as f64 + 0.6 * ((h as f64 + 0.5) / heads - 0.5);
            Circle::new((x, (q.field)(g)), 2, blue.mix(0.8).filled())
        })
    }))?;
    if q.layer_line {
        let red = color(1);
        // the layer sum's share is (1 + s)/2 for Saponati's score s
        let points: Vec<(f64, f64)> = t
            .layer_scores
            .iter()
            .enumerate()
            .map(|(l, s)| (l as f64, 0.5 * (1.0 + s)))
            .collect();
        chart.draw_series(LineSeries::new(points.clone(), red.stroke_width(2)))?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, red.filled())))?;
    }
    Ok(())
}

fn weights_figure(q: Quantity) -> Result<String, DrawError> {
    let f = book();
    let mut entries = vec![
        (Swatch::Square(palette::RANDOM), "random heads, mean ± 2 sd"),
        (Swatch::Dot(palette::TRAINED), "trained heads"),
    ];
    if q.layer_line {
        entries.push((Swatch::Dashed(BLACK), "½ + 1/(2d)"));
        entries.push((Swatch::Line(color(1)), "layer sum Σₕ W_QKʰ"));
    }
    svg(COLUMN, 380 + key::height(entries.len(), 2), |root| {
        let (top, strip) = root.split_vertically(380);
        key::key(&strip, &entries, 2, 60)?;
        let panels = top.split_evenly((1, 2));
        for (area, w) in panels.iter().zip(&f.weights) {
            weights_panel(area, w, &q)?;
        }
        Ok(())
    })
}

fn symmetry() -> Result<String, DrawError> {
    weights_figure(Quantity {
        field: |g| g.symmetric_share,
        label: "symmetric share ‖W_sym‖²/‖W_QK‖²",
        range: 0.35..1.0,
        layer_line: true,
    })
}

fn negative_mass() -> Result<String, DrawError> {
    weights_figure(Quantity {
        field: |g| g.negative_mass,
        label: "negative mass Σ|λ₋| / Σ|λ| of W_sym",
        range: 0.0..0.9,
        layer_line: false,
    })
}

fn agreement() -> Result<String, DrawError> {
    let t = &book().text;
    let rows = [
        (Statistic::RhoRows, "per-row Spearman ρ, raw vs score"),
        (Statistic::Knn, "k-NN overlap, raw vs score"),
    ];
    let entries = [
        (Swatch::Line(palette::TRAINED), "trained heads"),
        (Swatch::Line(palette::RANDOM), "random heads"),
        (Swatch::Line(palette::TIED), "tied heads"),
        (
            Swatch::Line(BLACK),
            "ρ = 0 (top), chance k/(n − 1) (bottom)",
        ),
    ];
    svg(COLUMN, 680 + key::height(entries.len(), 3), |root| {
        let (top, strip) = root.split_vertically(680);
        key::key(&strip, &entries, 3, 60)?;
        let panels = top.split_evenly((2, 2));
        for (i, area) in panels.iter().enumerate() {
            let (stat, label) = rows[i / 2];
            let (ti, tokens) = (i % 2, Tokens::ALL[i % 2]);
            let title = match tokens {
                Tokens::All => "all tokens",
                Tokens::Inner => "without [CLS] and [SEP]",
            };
            let layers = t.raw_self[0].len() as f64;
            let mut chart = axes(area, title, -0.5..layers - 0.5, -0.3..1.1)?;
            mesh(&mut chart, "layer (input hidden states)", label)
                .disable_mesh()
                .x_label_formatter(&|x| format!("{x:.0}"))
                .draw()?;
            let chance = if stat == Statistic::Knn {
                t.knn_chance[ti]
            } else {
                0.0
            };
            chart
                .draw_series([PathElement::new(
                    vec![(-0.5, chance), (layers - 0.5, chance)],
                    BLACK.stroke_width(1),
                )])?
                .label(say(if stat == Statistic::Knn {
                    "chance k/(n − 1)"
                } else {
                    "ρ = 0"
                }))
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 12, y)], BLACK.stroke_width(1))
                });
            for (vi, v) in Variant::ALL.iter().enumerate() {
                let c = match v {
                    Variant::Trained => palette::TRAINED,
                    Variant::Random => palette::RANDOM,
                    Variant::Tied => palette::TIED,
                };
                let dx = 0.15 * (vi as f64 - 1.0);
                let sums: Vec<(f64, Summary)> = (0..layers as usize)
                    .map(|l| (l as f64 + dx, t.layer(tokens, *v, stat, l)))
                    .collect();
                chart
                    .draw_series(LineSeries::new(
                        sums.iter().map(|(x, s)| (*x, s.mean)),
                        c.stroke_width(2),
                    ))?
                    .label(say(format!("{} heads", v.name())))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 12, y)], c.stroke_width(2))
                    });
                for (x, s) in &sums {
                    chart.draw_series(error_bar(
                        *x,
                        s.mean - s.sd,
                        s.mean + s.sd,
                        0.05,
                        c.stroke_width(1),
                    ))?;
                }
            }
        }
        Ok(())
    })
}
