//! Figures of chapter 5: why the geometric error is tolerable.

use plotters::prelude::*;

use super::palette;
use super::style::{
    COLUMN, LABEL, SMALL, TITLE, axes, band, bar, box_key, color, legend, line_key, marked_line,
    mesh, say, svg, text, tick,
};
use super::{DrawError, Figure};

mod looped;
use crate::absorption::Mechanism;
use crate::experiment::fixed_points::absorption::Absorption;
use crate::experiment::fixed_points::collapse::{BOOK, FLOOR, Findings, Trajectory};
use crate::experiment::fixed_points::trained_absorption::{BARE, architectures};
use crate::experiment::fixed_points::{self as experiment, SEEDS};
use crate::fixed_point::Variant;
use crate::stats::Summary;
use crate::train::History;
use looped::{looped_prompts, looped_residual};

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
    svg(COLUMN, 400, |root| {
        let len = series(&f.variant(Variant::Attention)[0]).len();
        let mut chart = ChartBuilder::on(root)
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
            chart
                .draw_series(LineSeries::new(
                    xs.iter().cloned().zip(mid),
                    col.stroke_width(2),
                ))?
                .label(say(match v {
                    Variant::Attention => "pure attention A(Z)Z".to_string(),
                    Variant::ResidualNorm => "residual + norm".to_string(),
                    Variant::Injected => format!("input-injected, c = {}", BOOK.contraction),
                }))
                .legend(line_key(col, 2));
        }
        // a log-scale chart: `style::legend` takes linear axes only
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(text(12))
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
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

fn trained() -> Result<String, DrawError> {
    let f = experiment::trained_absorption::book();
    let (task, schedule) = (f.setup.task, f.setup.schedule);
    let (train_seeds, train_early) = (f.setup.seeds, f.setup.early);
    let chance = 1.0 / task.vocab as f64;
    svg(COLUMN, 500, |root| {
        let mut chart = axes(
            root,
            format!(
                "successor task, tuned rates, to a plateau: mean ± sd over {train_seeds} seeds"
            ),
            0f64..schedule.steps as f64,
            0f64..1.05f64,
        )?;
        mesh(
            &mut chart,
            "Adam step (a run stopped at its plateau keeps its last value)",
            "test accuracy",
        )
        .disable_mesh()
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
        let grid: Vec<usize> = (0..=schedule.steps).step_by(schedule.eval_every).collect();
        let xs: Vec<f64> = grid.iter().map(|&s| s as f64).collect();
        for (a, (name, _)) in architectures(task).iter().enumerate() {
            let runs: Vec<&History> = f.histories(a).collect();
            let at = |step: usize| Summary::over(runs.iter().map(|h| h.accuracy_at(step)));
            let sums: Vec<Summary> = grid.iter().map(|&s| at(s)).collect();
            let col = palette::ARCHITECTURES[a];
            let mean = xs.iter().cloned().zip(sums.iter().map(|s| s.mean));
            if a == BARE {
                // the control: a dashed mean, no band
                chart
                    .draw_series(DashedLineSeries::new(mean, 6, 4, col.stroke_width(2)))?
                    .label(say(format!("{name} (control)")))
                    .legend(line_key(col, 2));
                continue;
            }
            let lo: Vec<f64> = sums.iter().map(|s| s.mean - s.sd).collect();
            let hi: Vec<f64> = sums.iter().map(|s| s.mean + s.sd).collect();
            chart.draw_series([band(&xs, &lo, &hi, col)])?;
            chart
                .draw_series(LineSeries::new(mean, col.stroke_width(2)))?
                .label(say(*name))
                .legend(line_key(col, 2));
        }
        let end = schedule.steps as f64;
        chart
            .draw_series([PathElement::new(
                vec![(0.0, chance), (end, chance)],
                BLACK.stroke_width(1),
            )])?
            .label(say("chance"))
            .legend(line_key(BLACK, 1));
        let early = train_early as f64;
        marked_line(
            &mut chart,
            (early, 0.0),
            (early, 1.05),
            RGBColor(150, 150, 150).stroke_width(1),
            &format!("step {train_early}"),
            (early + 40.0, 0.04),
            12,
        )?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

/// Left: mean ρ with raw similarity over heads; right: accuracy owed to the
/// mismatch (as trained minus with `W_QK` swapped for its symmetric part);
/// one head, a line per task, trained solid with a 10–90% band, null dashed.
fn along_training() -> Result<String, DrawError> {
    use crate::experiment::fixed_points::gradual::{self, Quantity, Swap};
    use crate::train::Relation;
    let f = gradual::book();
    let (seeds, cap) = (f.setup.seeds, f.setup.schedule.steps);
    let end = Relation::ALL
        .iter()
        .flat_map(|&r| f.arm(r, 0).runs.iter().map(|r| r.history.end()))
        .max()
        .unwrap_or(cap) as f64;
    let panels = [
        (Quantity::Rho, "ρ(score, raw similarity)", -1.0..1.0),
        (
            Quantity::Owed(Swap::Symmetric),
            "accuracy owed to the mismatch",
            -0.2..1.0,
        ),
    ];
    svg(COLUMN, 420, |root| {
        let areas = root.split_evenly((1, 2));
        for (k, (area, (q, y, range))) in areas.iter().zip(panels).enumerate() {
            let mut chart = axes(
                area,
                format!("one untied head, {seeds} seeds"),
                0f64..end,
                range,
            )?;
            mesh(&mut chart, "Adam step", y).disable_mesh().draw()?;
            for (i, r) in Relation::ALL.into_iter().enumerate() {
                let col = color(i);
                let arm = f.arm(r, 0);
                let c = arm.curve(q, false);
                let xs: Vec<f64> = c.iter().map(|p| p.0).collect();
                let lo: Vec<f64> = c.iter().map(|p| p.2).collect();
                let hi: Vec<f64> = c.iter().map(|p| p.3).collect();
                chart.draw_series([band(&xs, &lo, &hi, col)])?;
                chart
                    .draw_series(LineSeries::new(
                        c.iter().map(|p| (p.0, p.1)),
                        col.stroke_width(2),
                    ))?
                    .label(say(format!("{}, trained", r.name())))
                    .legend(line_key(col, 2));
                chart
                    .draw_series(DashedLineSeries::new(
                        arm.curve(q, true).iter().map(|p| (p.0, p.1)),
                        5,
                        4,
                        col.stroke_width(1),
                    ))?
                    .label(say(format!("{}, shuffled labels", r.name())))
                    .legend(line_key(col, 1));
            }
            if k == 1 {
                legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
            }
        }
        Ok(())
    })
}
