//! Figures of chapter 5: the data-level fixed-point residual while the
//! successor models train.

use plotters::prelude::*;

use super::style::{band, color, legend, span, svg, text};
use super::{DrawError, Figure};
use crate::experiment::fixed_points::trained_absorption::{self as experiment, CHAPTER};
use crate::stats::Summary;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch05-trained-residual",
    chapter: 5,
    about: "data-level fixed-point residual while training the successor models, and final residual against final accuracy",
    draw: residual,
}];

fn residual() -> Result<String, DrawError> {
    let f = experiment::book();
    let names = experiment::architectures(f.setup.task);
    let seeds = f.setup.seeds;
    let steps = f.setup.schedule.steps as f64;
    let all = || CHAPTER.iter().flat_map(|&a| &f.runs[a]);
    let top = all()
        .flat_map(|r| r.residual.iter().cloned())
        .fold(0.0, f64::max);
    svg(960, 420, |root| {
        let (left, right) = root.split_horizontally(540);
        let mut chart = ChartBuilder::on(&left)
            .caption(
                format!("residual while training, mean ± sd over {seeds} seeds"),
                text(15),
            )
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0f64..steps, 0f64..top * 1.05)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("Adam step")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc("√(Σ‖f(x) − x‖² / Σ‖x‖²)")
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for &a in &CHAPTER {
            let runs = &f.runs[a];
            let xs: Vec<f64> = runs[0].history.steps.iter().map(|&s| s as f64).collect();
            let sums: Vec<Summary> = (0..xs.len())
                .map(|k| Summary::of(&runs.iter().map(|r| r.residual[k]).collect::<Vec<_>>()))
                .collect();
            let lo: Vec<f64> = sums.iter().map(|s| s.mean - s.sd).collect();
            let hi: Vec<f64> = sums.iter().map(|s| s.mean + s.sd).collect();
            let col = color(a);
            chart.draw_series([band(&xs, &lo, &hi, col)])?;
            chart
                .draw_series(LineSeries::new(
                    xs.iter().cloned().zip(sums.iter().map(|s| s.mean)),
                    col.stroke_width(2),
                ))?
                .label(names[a].0)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 14, y)], col.stroke_width(2))
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        let last = |r: &experiment::Run| r.residual[r.residual.len() - 1];
        let mut chart = ChartBuilder::on(&right)
            .caption("after training, one point per run", text(15))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(span(all().map(last), 0.05), 0f64..1.05f64)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("final residual")
            .y_desc("final test accuracy")
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for &a in &CHAPTER {
            let col = color(a);
            chart.draw_series(
                f.runs[a]
                    .iter()
                    .map(|r| Circle::new((last(r), r.history.final_accuracy), 3, col.filled())),
            )?;
        }
        Ok(())
    })
}
