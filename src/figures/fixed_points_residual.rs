//! Figures of chapter 5: the turn residual while the successor models
//! train, against the same seeds trained on shuffled labels.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::palette;
use super::style::{COLUMN, axes, band, line_key, mesh, say, span, svg};
use super::{DrawError, Figure};
use crate::experiment::fixed_points::trained_absorption::{self as experiment, CHAPTER};
use crate::stats::Summary;
use crate::train::held;

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch05-trained-residual",
    chapter: 5,
    about: "turn residual while training the successor models, against shuffled-label nulls, and final residual against final accuracy",
    draw: residual,
}];

fn residual() -> Result<String, DrawError> {
    let f = experiment::book();
    let names = experiment::architectures(f.setup.task);
    let seeds = f.setup.seeds;
    let schedule = f.setup.schedule;
    let every = experiment::RESIDUAL_EVERY;
    let n = schedule.steps / every + 1;
    let xs: Vec<f64> = (0..n).map(|k| (k * every) as f64).collect();
    let all = || CHAPTER.iter().flat_map(|&a| &f.runs[a]);
    let top = all()
        .flat_map(|r| {
            let null = r.null.iter().flat_map(|(_, n)| n.turn.iter());
            r.residual.turn.iter().chain(null).cloned()
        })
        .fold(0.0, f64::max);
    // the key between the panels: it names the colours of both
    let rows = key::height(CHAPTER.len(), 3);
    svg(COLUMN, 800 + rows, |root| {
        let (left, rest) = root.split_vertically(420);
        let (strip, right) = rest.split_vertically(rows);
        let entries: Vec<(Swatch, &str)> = CHAPTER
            .iter()
            .map(|&a| (Swatch::Line(palette::ARCHITECTURES[a]), names[a].0))
            .collect();
        key::key(&strip, &entries, 3, 60)?;
        let mut chart = axes(
            &left,
            format!("turn residual, mean ± sd over {seeds} seeds; dashed: shuffled labels"),
            0f64..schedule.steps as f64,
            0f64..top * 1.05,
        )?;
        mesh(&mut chart, "Adam step", "mean 1 − cos(f(x)ₜ, xₜ)")
            .disable_mesh()
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()?;
        for &a in &CHAPTER {
            let runs = &f.runs[a];
            let curves: Vec<Vec<f64>> = runs.iter().map(|r| held(&r.residual.turn, n)).collect();
            let sums: Vec<Summary> = (0..n)
                .map(|k| Summary::over(curves.iter().map(|c| c[k])))
                .collect();
            let lo: Vec<f64> = sums.iter().map(|s| s.mean - s.sd).collect();
            let hi: Vec<f64> = sums.iter().map(|s| s.mean + s.sd).collect();
            let col = palette::ARCHITECTURES[a];
            chart.draw_series([band(&xs, &lo, &hi, col)])?;
            chart
                .draw_series(LineSeries::new(
                    xs.iter().cloned().zip(sums.iter().map(|s| s.mean)),
                    col.stroke_width(2),
                ))?
                .label(say(names[a].0))
                .legend(line_key(col, 2));
            let nulls: Vec<Vec<f64>> = runs
                .iter()
                .filter_map(|r| r.null.as_ref())
                .map(|(_, r)| held(&r.turn, n))
                .collect();
            let mean: Vec<(f64, f64)> = (0..n)
                .map(|k| {
                    let m = nulls.iter().map(|c| c[k]).sum::<f64>() / nulls.len() as f64;
                    (xs[k], m)
                })
                .collect();
            chart.draw_series(DashedLineSeries::new(mean, 6, 4, col.stroke_width(1)))?;
        }
        let last = |r: &experiment::Run| r.residual.turn[r.residual.turn.len() - 1];
        let mut chart = axes(
            &right,
            "at the plateau, one point per run",
            span(all().map(last), 0.05),
            0f64..1.05f64,
        )?;
        mesh(&mut chart, "final turn residual", "final test accuracy")
            .disable_mesh()
            .draw()?;
        for &a in &CHAPTER {
            let col = palette::ARCHITECTURES[a];
            chart.draw_series(
                f.runs[a]
                    .iter()
                    .map(|r| Circle::new((last(r), r.history.final_accuracy), 3, col.filled())),
            )?;
        }
        Ok(())
    })
}
