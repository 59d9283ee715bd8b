//! Figures of chapter 7: delta attention.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::palette;
use super::style::{
    COLUMN, LABEL, SMALL, Shading, axes, color, heatmap, legend, line_key, marked_line, mesh, say,
    svg, text, tick,
};
use super::{DrawError, Figure};

mod writes;
use crate::delta::{flops_chunked, flops_recurrent, flops_softmax};
use crate::experiment::delta_attention::{chunkwise, cost, decay, stability};
use writes::{capacity, token_weights_figure};

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch07-token-weights",
        chapter: 7,
        about: "linear attention's weights are similarities; DeltaNet's effective weights are not",
        draw: token_weights_figure,
    },
    Figure {
        name: "ch07-capacity",
        chapter: 7,
        about: "retrieval error against stored pairs for additive and delta writes",
        draw: capacity,
    },
    Figure {
        name: "ch07-decay",
        chapter: 7,
        about: "task error over per-channel retentions; the scalar gate is the diagonal",
        draw: decay,
    },
    Figure {
        name: "ch07-chunk-matrices",
        chapter: 7,
        about: "the matrices of one chunk: A_kk, the UT transform (I + A_kk)⁻¹ and A_qk",
        draw: chunk_matrices_figure,
    },
    Figure {
        name: "ch07-stability",
        chapter: 7,
        about: "chunked against recurrent under strong decay: difference vs factorised exponentials",
        draw: stability,
    },
    Figure {
        name: "ch07-cost",
        chapter: 7,
        about: "counted flops against sequence length: softmax T², recurrent and chunked KDA T",
        draw: cost,
    },
];

/// One part of a `(slow, fast)` error pair.
type Part = fn((f64, f64)) -> f64;
/// One error of a `(decay, difference, factorised)` stability row.
type StabilityField = fn(&(f64, f64, f64)) -> f64;
/// A flop count as a function of `T`.
type Count = Box<dyn Fn(usize) -> f64>;

fn decay() -> Result<String, DrawError> {
    let f = decay::book();
    let alphas = decay::BOOK.alphas;
    let n = alphas.len();
    let total = |e: (f64, f64)| (e.0 + e.1) / 2.0;
    let (a_s, a_f, _) = f.best_kda();
    let (a_g, _) = f.best_gdn();
    let idx = |a: f64| alphas.iter().position(|&x| x == a).unwrap_or(0) as f64 + 0.5;
    let label = |x: &f64| {
        alphas
            .get(x.floor() as usize)
            .map(|a| format!("{a}"))
            .unwrap_or_default()
    };
    svg(COLUMN, 440 + key::height(2, 2), |root| {
        let (top, strip) = root.split_vertically(440);
        let panels = top.split_evenly((1, 2));
        let best_row = alphas.iter().position(|&a| a == a_s).unwrap_or(n - 1);
        let top = f
            .scalar
            .iter()
            .chain(&f.grid[best_row])
            .map(|&e| total(e))
            .fold(0.0, f64::max);
        let mut chart = axes(
            &panels[0],
            "mean error of the task (facts and stream)",
            0f64..n as f64,
            0f64..top * 1.1,
        )?;
        mesh(
            &mut chart,
            "α (scalar), or α on the stream channels (per-channel)",
            "(slow + fast error) / 2",
        )
        .disable_mesh()
        .x_labels(n)
        .x_label_formatter(&label)
        .draw()?;
        let curves: [(String, Vec<(f64, f64)>); 2] = [
            (
                "scalar α on every channel (Gated DeltaNet)".to_string(),
                f.scalar.clone(),
            ),
            (
                format!("per channel: α = {a_s} on facts (KDA)"),
                f.grid[best_row].clone(),
            ),
        ];
        for (i, (name, errs)) in curves.iter().enumerate() {
            let c = [palette::GATED_DELTANET, palette::KDA][i];
            chart
                .draw_series(LineSeries::new(
                    errs.iter()
                        .enumerate()
                        .map(|(j, &e)| (j as f64 + 0.5, total(e))),
                    c.stroke_width(2),
                ))?
                .label(say(name.as_str()))
                .legend(line_key(c, 2));
        }
        let best = f.best_kda().2;
        chart.draw_series([Circle::new(
            (idx(a_f), total(best)),
            6,
            color(1).stroke_width(2),
        )])?;
        chart.draw_series([TriangleMarker::new(
            (idx(a_g), total(f.best_gdn().1)),
            6,
            color(2).filled(),
        )])?;
        let entries: Vec<(Swatch, &str)> = curves
            .iter()
            .enumerate()
            .map(|(i, (name, _))| {
                let c = [palette::GATED_DELTANET, palette::KDA][i];
                (Swatch::Line(c), name.as_str())
            })
            .collect();
        key::key(&strip, &entries, 2, 60)?;

        let mut chart = axes(
            &panels[1],
            "one scalar α for both (Gated DeltaNet)",
            0f64..n as f64,
            0f64..1.05f64,
        )?;
        mesh(
            &mut chart,
            "α, every channel",
            "mean squared read-out error",
        )
        .disable_mesh()
        .x_labels(n)
        .x_label_formatter(&label)
        .draw()?;
        let parts: [(&str, Part); 2] = [("facts (slow)", |e| e.0), ("stream (fast)", |e| e.1)];
        for (i, (name, part)) in parts.iter().enumerate() {
            let c = color(i);
            chart
                .draw_series(LineSeries::new(
                    f.scalar
                        .iter()
                        .enumerate()
                        .map(|(j, &e)| (j as f64 + 0.5, part(e))),
                    c.stroke_width(2),
                ))?
                .label(say(*name))
                .legend(line_key(c, 2));
        }
        legend(&mut chart, SeriesLabelPosition::MiddleLeft)?;
        Ok(())
    })
}

fn chunk_matrices_figure() -> Result<String, DrawError> {
    let m = chunkwise::chunk_picture(chunkwise::BOOK);
    let range = m.a_kk.amax().max(m.t.amax()).max(m.a_qk.amax());
    svg(COLUMN, 360, |root| {
        let panels = root.split_evenly((1, 3));
        heatmap(
            &panels[0],
            &m.a_kk,
            "A_kk (strictly lower, rows × βᵣ)",
            Shading::Diverging(range),
            "j",
            "r",
        )?;
        heatmap(
            &panels[1],
            &m.t,
            "UT transform (I + A_kk)⁻¹",
            Shading::Diverging(range),
            "j",
            "r",
        )?;
        heatmap(
            &panels[2],
            &m.a_qk,
            "A_qk (lower, with diagonal)",
            Shading::Diverging(range),
            "j",
            "r",
        )?;
        Ok(())
    })
}

fn stability() -> Result<String, DrawError> {
    let f = stability::book();
    let floor = 1e-17;
    let nan_at = 1e3;
    svg(COLUMN, 400, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                say("chunks of 64 against the recurrence, constant decay g = −s per step"),
                text(15),
            )
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((0.007f64..30f64).log_scale(), (floor..1e4f64).log_scale())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(say("per-step decay |g| (the chunk decays by e^(−64|g|))"))
            .y_desc(say("largest |error| of the outputs"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        let forms: [(&str, StabilityField); 2] = [
            ("difference form exp(Γᵣ − Γⱼ)", |s| s.1),
            ("factorised exp(Γᵣ)·exp(−Γⱼ)", |s| s.2),
        ];
        for (i, (name, field)) in forms.iter().enumerate() {
            let c = color(i);
            let pts: Vec<(f64, f64)> = f.sweep.iter().map(|s| (s.0, field(s))).collect();
            chart
                .draw_series(LineSeries::new(
                    pts.iter()
                        .filter(|p| p.1.is_finite())
                        .map(|&(x, y)| (x, y.max(floor))),
                    c.stroke_width(2),
                ))?
                .label(say(*name))
                .legend(line_key(c, 2));
            chart.draw_series(
                pts.iter()
                    .filter(|p| p.1.is_nan())
                    .map(|&(x, _)| Cross::new((x, nan_at), 6, c.stroke_width(2))),
            )?;
        }
        chart.draw_series([Text::new(
            say("× = NaN in the output"),
            (0.01, nan_at),
            text(12),
        )])?;
        legend(&mut chart, SeriesLabelPosition::MiddleLeft)?;
        Ok(())
    })
}

fn cost() -> Result<String, DrawError> {
    let ts = cost::BOOK.lengths();
    let (d, c) = (cost::BOOK.d, cost::BOOK.chunk);
    let series: [(&str, Count); 3] = [
        (
            "softmax attention, T(T+1)(dₖ+dᵥ)",
            Box::new(move |t| flops_softmax(t, d, d)),
        ),
        (
            "recurrent KDA, 7TKV",
            Box::new(move |t| flops_recurrent(t, d, d)),
        ),
        (
            "chunked KDA, C = 64",
            Box::new(move |t| flops_chunked(t, d, d, c)),
        ),
    ];
    let x = cost::BOOK.crossover() as f64;
    let (lo, hi) = (ts[0] as f64, ts[ts.len() - 1] as f64);
    svg(COLUMN, 420, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                say(format!("counted flops per head and layer, dₖ = dᵥ = {d}")),
                text(15),
            )
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((lo..hi).log_scale(), (1e6f64..1e15f64).log_scale())?;
        chart
            .configure_mesh()
            .x_desc(say("sequence length T"))
            .y_desc(say("flops (multiply-add = 2)"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .label_style(text(SMALL))
            .axis_desc_style(text(LABEL))
            .draw()?;
        // KDA's two forms in its colour: recurrent solid, chunked dashed
        for (i, (name, f)) in series.iter().enumerate() {
            let col = [palette::SOFTMAX, palette::KDA, palette::KDA][i];
            let pts: Vec<(f64, f64)> = ts.iter().map(|&t| (t as f64, f(t))).collect();
            if i == 2 {
                chart
                    .draw_series(DashedLineSeries::new(pts, 8, 5, col.stroke_width(2)))?
                    .label(say(*name))
                    .legend(move |(x, y)| {
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(0, 0), (5, 0)], col.stroke_width(2))
                            + PathElement::new(vec![(9, 0), (14, 0)], col.stroke_width(2))
                    });
            } else {
                chart
                    .draw_series(LineSeries::new(pts, col.stroke_width(2)))?
                    .label(say(*name))
                    .legend(line_key(col, 2));
            }
        }
        marked_line(
            &mut chart,
            (x, 1e6),
            (x, 1e15),
            BLACK.stroke_width(1),
            &format!("T = {x}: chunked < softmax"),
            (x * 1.1, 1e14),
            12,
        )?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        Ok(())
    })
}
