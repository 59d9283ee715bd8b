//! Figures of chapter 1: coordinate mismatch.

use plotters::prelude::*;

use super::palette;
use super::style::{
    COLUMN, Canvas, axes, band, color, error_bar, legend, line_key, mesh, say, span, svg,
};
use super::{DrawError, Figure};
use crate::experiment::coordinate_mismatch::{
    BOOK, Coupling, SEEDS, Scatter, Trial, book, plane, scatter, spectrum,
};
use crate::stats::histogram;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch01-token-cloud",
        chapter: 1,
        about: "the same tokens in their own, query and key coordinates; a token's partners change",
        draw: token_cloud,
    },
    Figure {
        name: "ch01-score-vs-similarity",
        chapter: 1,
        about: "raw dot product against attention score for identity, tied and untied projections",
        draw: score_vs_similarity,
    },
    Figure {
        name: "ch01-agreement",
        chapter: 1,
        about: "rank correlation, neighbour overlap and self-match over seeds, against chance",
        draw: agreement,
    },
    Figure {
        name: "ch01-rank-shift",
        chapter: 1,
        about: "how far pairwise-distance ranks move under a full and a collapsing projection",
        draw: rank_shift,
    },
    Figure {
        name: "ch01-bilinear-spectrum",
        chapter: 1,
        about: "eigenvalues of the symmetric part of W_QK: tied is positive, untied is indefinite",
        draw: bilinear_spectrum,
    },
];

fn token_cloud() -> Result<String, DrawError> {
    let p = plane(24, 7);
    svg(COLUMN, 340, |root| {
        let panels = root.split_evenly((1, 3));
        let views = [
            ("tokens x (colour: angle)", &p.x, 0),
            ("queries q = x W_Q", &p.q, 1),
            ("keys k = x W_K", &p.k, 2),
        ];
        for (area, (title, m, view)) in panels.iter().zip(views) {
            let r = span(m.iter().cloned(), 0.08);
            let mut chart = axes(area, title, r.clone(), r)?;
            mesh(&mut chart, "", "").disable_mesh().draw()?;
            // each token keeps the colour of its angle in the raw plane, so it can be followed
            chart.draw_series((0..m.nrows()).map(|i| {
                let hue = (p.x[(i, 1)].atan2(p.x[(i, 0)]) / std::f64::consts::TAU).rem_euclid(1.0);
                Circle::new((m[(i, 0)], m[(i, 1)]), 4, HSLColor(hue, 0.7, 0.45).filled())
            }))?;
            // the focus token is marked in the raw and query views, its partners in the raw and key views
            let marked: &[usize] = match view {
                0 => &p.raw_partners,
                2 => &p.score_partners,
                _ => &[],
            };
            let c = if view == 0 { color(0) } else { color(1) };
            chart.draw_series(
                marked
                    .iter()
                    .map(|&j| Circle::new((m[(j, 0)], m[(j, 1)]), 6, c.stroke_width(2))),
            )?;
            if view != 2 {
                let f = p.focus;
                chart.draw_series([TriangleMarker::new(
                    (m[(f, 0)], m[(f, 1)]),
                    7,
                    BLACK.filled(),
                )])?;
            }
        }
        Ok(())
    })
}

fn score_vs_similarity() -> Result<String, DrawError> {
    svg(COLUMN, 340, |root| {
        for (area, c) in root.split_evenly((1, 3)).iter().zip(Coupling::ALL) {
            let Scatter { raw, score, rho } = scatter(BOOK, c, 0);
            let mut chart = axes(
                area,
                format!("{} (ρ = {rho:.2})", c.name()),
                span(raw.iter().cloned(), 0.05),
                span(score.iter().cloned(), 0.05),
            )?;
            mesh(&mut chart, "raw dot product xᵢ·xⱼ", "score qᵢ·kⱼ/√dₖ")
                .disable_mesh()
                .draw()?;
            chart.draw_series(
                raw.iter()
                    .zip(&score)
                    .map(|(&a, &b)| Circle::new((a, b), 1, palette::coupling(c).mix(0.5).filled())),
            )?;
        }
        Ok(())
    })
}

/// A named field of a trial.
type Field = fn(&Trial) -> f64;

fn agreement() -> Result<String, DrawError> {
    let f = book();
    let metrics: [(&str, Field); 3] = [
        ("Spearman ρ", |t| t.rho),
        ("k-NN overlap", |t| t.knn),
        ("self-match", |t| t.self_match),
    ];
    let chance = [
        0.0,
        BOOK.k as f64 / (BOOK.n - 1) as f64,
        1.0 / BOOK.n as f64,
    ];
    svg(COLUMN, 380, |root: &Canvas| {
        let mut chart = axes(
            root,
            format!("raw similarity vs score, mean ± sd over {SEEDS} seeds"),
            -0.5f64..2.5f64,
            -0.3f64..1.5f64,
        )?;
        mesh(&mut chart, "", "")
            .disable_x_mesh()
            .max_light_lines(0)
            .x_labels(3)
            .x_label_formatter(&|x| {
                metrics
                    .get(x.round() as usize)
                    .map(|m| say(m.0))
                    .unwrap_or_default()
            })
            .draw()?;
        for (ci, c) in Coupling::ALL.iter().enumerate() {
            let s = f.survey(*c);
            let x0 = ci as f64 * 0.25 - 0.25;
            for (mi, (_, field)) in metrics.iter().enumerate() {
                let sum = s.summary(*field);
                let x = mi as f64 + x0;
                let bar = Rectangle::new(
                    [(x - 0.1, 0.0), (x + 0.1, sum.mean)],
                    palette::coupling(*c).filled(),
                );
                let series = chart.draw_series([bar])?;
                if mi == 0 {
                    series.label(say(c.name())).legend(move |(x, y)| {
                        Rectangle::new(
                            [(x, y - 5), (x + 10, y + 5)],
                            palette::coupling(*c).filled(),
                        )
                    });
                }
                chart.draw_series(error_bar(
                    x,
                    sum.mean - sum.sd,
                    sum.mean + sum.sd,
                    0.04,
                    BLACK.stroke_width(1),
                ))?;
            }
        }
        chart
            .draw_series(chance.iter().enumerate().map(|(mi, &ch)| {
                let x = mi as f64;
                PathElement::new(vec![(x - 0.4, ch), (x + 0.4, ch)], BLACK.stroke_width(2))
            }))?
            .label(say("chance"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], BLACK.stroke_width(2)));
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    })
}

fn rank_shift() -> Result<String, DrawError> {
    let f = book();
    let sets = [
        (format!("dₖ = d = {}", BOOK.d), &f.shift_full),
        (
            format!("dₖ = {} (collapse)", BOOK.d / 4),
            &f.shift_collapsed,
        ),
    ];
    let hists: Vec<_> = sets
        .iter()
        .map(|(_, xs)| histogram(xs, 0.0, 1.0, 40))
        .collect();
    let top = hists.iter().flatten().map(|b| b.2).fold(0.0, f64::max) * 1.08;
    svg(COLUMN, 380, |root| {
        let mut chart = axes(
            root,
            format!("pairwise-distance rank shift under one projection ({SEEDS} seeds)"),
            0.0f64..1.0f64,
            0.0..top,
        )?;
        mesh(
            &mut chart,
            "|rank before − rank after| / number of pairs",
            "density",
        )
        .disable_mesh()
        .draw()?;
        for (i, ((label, _), h)) in sets.iter().zip(&hists).enumerate() {
            let c = color(i);
            chart
                .draw_series(
                    h.iter()
                        .map(|&(l, r, d)| Rectangle::new([(l, 0.0), (r, d)], c.mix(0.45).filled())),
                )?
                .label(say(label.as_str()))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.mix(0.45).filled())
                });
        }
        legend(&mut chart, SeriesLabelPosition::MiddleRight)?;
        Ok(())
    })
}

fn bilinear_spectrum() -> Result<String, DrawError> {
    let couplings = [Coupling::Tied, Coupling::Untied];
    let spectra: Vec<_> = couplings
        .iter()
        .map(|&c| spectrum(BOOK, c, SEEDS))
        .collect();
    let ys = spectra
        .iter()
        .flatten()
        .flat_map(|s| [s.mean - s.sd, s.mean + s.sd]);
    svg(COLUMN, 380, |root| {
        let mut chart = axes(
            root,
            format!("eigenvalues of (W_QK + W_QKᵀ)/2, mean ± sd over {SEEDS} seeds"),
            0.5f64..(BOOK.d as f64 + 0.5),
            span(ys, 0.05),
        )?;
        mesh(&mut chart, "eigenvalue index (largest first)", "eigenvalue")
            .disable_mesh()
            .draw()?;
        chart.draw_series([PathElement::new(
            vec![(0.5, 0.0), (BOOK.d as f64 + 0.5, 0.0)],
            BLACK.stroke_width(1),
        )])?;
        for (c, s) in couplings.iter().zip(&spectra) {
            let col = palette::coupling(*c);
            let xs: Vec<f64> = (1..=s.len()).map(|x| x as f64).collect();
            let lo: Vec<f64> = s.iter().map(|v| v.mean - v.sd).collect();
            let hi: Vec<f64> = s.iter().map(|v| v.mean + v.sd).collect();
            chart.draw_series([band(&xs, &lo, &hi, col)])?;
            chart
                .draw_series(LineSeries::new(
                    xs.iter().zip(s).map(|(&x, v)| (x, v.mean)),
                    col.stroke_width(2),
                ))?
                .label(say(c.name()))
                .legend(line_key(col, 2));
        }
        legend(&mut chart, SeriesLabelPosition::MiddleRight)?;
        Ok(())
    })
}
