//! Figures of chapter 5: why the geometric error is tolerable.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::palette;
use super::style::{
    COLUMN, LABEL, SMALL, TITLE, axes, band, bar, box_key, color, legend, marked_line, mesh, say,
    svg, text, tick,
};
use super::{DrawError, Figure};

mod looped;
mod training;
use crate::absorption::Mechanism;
use crate::experiment::fixed_points::absorption::Absorption;
use crate::experiment::fixed_points::collapse::{BOOK, FLOOR, Findings, Trajectory};
use crate::experiment::fixed_points::{self as experiment, SEEDS};
use crate::fixed_point::Variant;
use looped::{looped_prompts, looped_residual};
use training::{along_training, trained};

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch05-residual",
        chapter: 5,
        about: "fixed-point residual against iteration, log scale: pure attention, residual + norm, input-injected",
        draw: residual,
    },
    Figure {
        name: "ch05-collapse",
        chapter: 5,
        about: "distance of the token states from rank one against iteration, log scale, three variants",
        draw: collapse,
    },
    Figure {
        name: "ch05-hopfield",
        chapter: 5,
        about: "Hopfield energy along retrieval: never rises with a tied form, rises with an untied one",
        draw: hopfield,
    },
    Figure {
        name: "ch05-absorption",
        chapter: 5,
        about: "successor accuracy on a 3-cycle: tied head, residual, two heads, two layers, untied; random heads",
        draw: absorption,
    },
    Figure {
        name: "ch05-trained",
        chapter: 5,
        about: "test accuracy while training tied, multi-head, two-layer and untied models on the successor task",
        draw: trained,
    },
    Figure {
        name: "ch05-absorption-along-training",
        chapter: 5,
        about: "untied heads along training: agreement with raw similarity and accuracy owed to the mismatch, match and successor, trained vs shuffled-label null",
        draw: along_training,
    },
    Figure {
        name: "ch05-looped-residual",
        chapter: 5,
        about: "looped block: fixed-point residual against iteration, trained vs initialisation vs shuffled-label null, trained depth marked",
        draw: looped_residual,
    },
    Figure {
        name: "ch05-looped-prompts",
        chapter: 5,
        about: "looped block: each prompt's residual at the trained depth K against at 4K, trained and at initialisation",
        draw: looped_prompts,
    },
];

fn log_trace(
    f: &Findings,
    series: fn(&Trajectory) -> &[f64],
    title: &str,
    y: &str,
) -> Result<String, DrawError> {
    let labels: Vec<(Swatch, String)> = Variant::ALL
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let label = match v {
                Variant::Attention => "pure attention A(Z)Z".to_string(),
                Variant::ResidualNorm => "residual + norm".to_string(),
                Variant::Injected => format!("input-injected, c = {}", BOOK.contraction),
            };
            (Swatch::Line(color(i)), label)
        })
        .collect();
    let entries = key::borrowed(&labels);
    svg(COLUMN, 400 + key::height(entries.len(), 3), |root| {
        let (top, strip) = root.split_vertically(400);
        key::key(&strip, &entries, 3, 60)?;
        let len = series(&f.variant(Variant::Attention)[0]).len();
        let mut chart = ChartBuilder::on(&top)
            .caption(say(title), text(16))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..(len - 1) as f64, (FLOOR * 0.5..1e4f64).log_scale())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(say("iteration k"))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc(say(y))
            .y_label_formatter(&tick)
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for (i, v) in Variant::ALL.iter().enumerate() {
            let col = color(i);
            let xs: Vec<f64> = (0..len).map(|k| k as f64).collect();
            let (lo, mid, hi) = (
                f.band(*v, series, 0.1),
                f.band(*v, series, 0.5),
                f.band(*v, series, 0.9),
            );
            chart.draw_series([band(&xs, &lo, &hi, col)])?;
            chart.draw_series(LineSeries::new(
                xs.iter().cloned().zip(mid),
                col.stroke_width(2),
            ))?;
        }
        Ok(())
    })
}

fn residual() -> Result<String, DrawError> {
    log_trace(
        experiment::collapse::book(),
        |t| &t.residual,
        &format!("weight-tied layer: median and 10–90% band over {SEEDS} seeds"),
        "‖f(Zₖ) − Zₖ‖ / ‖Zₖ‖",
    )
}

fn collapse() -> Result<String, DrawError> {
    log_trace(
        experiment::collapse::book(),
        |t| &t.collapse,
        &format!("rank collapse: median and 10–90% band over {SEEDS} seeds"),
        "‖Zₖ − 1 z̄ᵀ‖ / ‖Zₖ‖",
    )
}

fn hopfield() -> Result<String, DrawError> {
    let f = experiment::energy::book();
    let shown = 20;
    svg(COLUMN, 380, |root| {
        let panels = root.split_evenly((1, 2));
        for (p, (runs, title)) in [
            (&f.tied, "tied: M = W Wᵀ"),
            (&f.untied, "untied: W_QK = W_Q W_Kᵀ"),
        ]
        .iter()
        .enumerate()
        {
            let traces: Vec<Vec<f64>> = runs
                .iter()
                .take(shown)
                .map(|r| r.energy.iter().map(|e| e - r.energy[0]).collect())
                .collect();
            let lo = traces.iter().flatten().cloned().fold(0.0, f64::min);
            let hi = traces.iter().flatten().cloned().fold(0.0, f64::max);
            let pad = 0.05 * (hi - lo).max(1e-9);
            let mut chart = axes(
                &panels[p],
                format!("{title} ({shown} seeds)"),
                0f64..experiment::energy::BOOK.steps as f64,
                (lo - pad)..(hi + pad),
            )?;
            mesh(&mut chart, "retrieval step k", "E(ξₖ) − E(ξ₀)")
                .disable_mesh()
                .draw()?;
            for tr in &traces {
                let rises = tr.windows(2).any(|w| w[1] > w[0] + 1e-9);
                let col = if rises { color(1) } else { color(0) };
                chart.draw_series(LineSeries::new(
                    tr.iter().enumerate().map(|(k, &e)| (k as f64, e)),
                    col.stroke_width(1),
                ))?;
            }
        }
        Ok(())
    })
}

fn absorption() -> Result<String, DrawError> {
    let f = experiment::absorption::book();
    let names = [
        "tied head",
        "+ residual",
        "two tied heads",
        "two tied layers",
        "untied head",
    ];
    svg(COLUMN, 760, |root| {
        let (left, right) = root.split_vertically(400);
        let mut chart = axes(
            &left,
            format!("hand-set weights, mean ± sd over {SEEDS} token draws"),
            -0.5f64..4.5f64,
            0f64..1.1f64,
        )?;
        mesh(&mut chart, "", "successor accuracy on a 3-cycle")
            .disable_x_mesh()
            .x_labels(5)
            .x_label_formatter(&|x| {
                say({
                    names
                        .get(x.round() as usize)
                        .map(|s| s.to_string())
                        .unwrap_or_default()
                })
            })
            .draw()?;
        for (i, m) in Mechanism::ALL.iter().enumerate() {
            let s = f.mechanism(*m);
            let x = i as f64;
            let col = if s.mean < 1.0 { color(1) } else { color(2) };
            bar(&mut chart, x, 0.3, s, col)?;
        }
        let bound = 2.0 / 3.0;
        marked_line(
            &mut chart,
            (-0.5, bound),
            (4.5, bound),
            BLACK.stroke_width(2),
            "bound for any tied head: 2/3",
            (-0.45, bound + 0.06),
            12,
        )?;

        let levels = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];
        let mut chart = axes(
            &right,
            "random heads: share of seeds at each accuracy",
            -0.5f64..3.5f64,
            0f64..1f64,
        )?;
        mesh(&mut chart, "successor accuracy", "share of seeds")
            .disable_x_mesh()
            .x_labels(4)
            .x_label_formatter(&|x| {
                say({
                    ["0", "1/3", "2/3", "1"]
                        .get(x.round() as usize)
                        .map(|s| s.to_string())
                        .unwrap_or_default()
                })
            })
            .draw()?;
        for (h, (name, pick)) in [
            ("tied", (|a: &Absorption| a.random_tied) as fn(&_) -> f64),
            ("untied", |a| a.random_untied),
        ]
        .iter()
        .enumerate()
        {
            let col = [palette::TIED, palette::UNTIED][h];
            let shares: Vec<f64> = levels
                .iter()
                .map(|&l| {
                    f.seeds
                        .iter()
                        .filter(|a| (pick(a) - l).abs() < 1e-9)
                        .count() as f64
                        / f.seeds.len() as f64
                })
                .collect();
            let off = h as f64 * 0.3 - 0.15;
            chart
                .draw_series(shares.iter().enumerate().map(|(i, &s)| {
                    Rectangle::new(
                        [(i as f64 + off - 0.14, 0.0), (i as f64 + off + 0.14, s)],
                        col.filled(),
                    )
                }))?
                .label(say(*name))
                .legend(box_key(col));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}
