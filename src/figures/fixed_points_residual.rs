//! Figures of chapter 5: the data-level fixed-point residual while the
//! successor models train.

use plotters::prelude::*;

use super::style::{axes, band, color, legend, line_key, mesh, span, svg};
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
        let mut chart = axes(
            &left,
            format!("residual while training, mean ± sd over {seeds} seeds"),
            0f64..steps,
            0f64..top * 1.05,
        )?;
        mesh(&mut chart, "Adam step", "√(Σ‖f(x) − x‖² / Σ‖x‖²)")
            .disable_mesh()
            .x_label_formatter(&|x| format!("{x:.0}"))
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
                .legend(line_key(col, 2));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        let last = |r: &experiment::Run| r.residual[r.residual.len() - 1];
        let mut chart = axes(
            &right,
            "after training, one point per run",
            span(all().map(last), 0.05),
            0f64..1.05f64,
        )?;
        mesh(&mut chart, "final residual", "final test accuracy")
            .disable_mesh()
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
