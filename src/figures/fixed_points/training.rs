//! Chapter 5's figures of trained layers: the architectures' accuracy on
//! the successor task, and the mismatch's part along training.

use plotters::prelude::*;

use super::{DrawError, experiment};
use crate::experiment::fixed_points::trained_absorption::{BARE, architectures};
use crate::figures::key::{self, Swatch};
use crate::figures::palette;
use crate::figures::style::{
    COLUMN, axes, band, color, legend, line_key, marked_line, mesh, say, svg,
};
use crate::stats::Summary;
use crate::train::History;

pub fn trained() -> Result<String, DrawError> {
    let f = experiment::trained_absorption::book();
    let (task, schedule) = (f.setup.task, f.setup.schedule);
    let (train_seeds, train_early) = (f.setup.seeds, f.setup.early);
    let chance = 1.0 / task.vocab as f64;
    let labels: Vec<(Swatch, String)> = architectures(task)
        .iter()
        .enumerate()
        .map(|(a, (name, _))| {
            let col = palette::ARCHITECTURES[a];
            if a == BARE {
                (Swatch::Dashed(col), format!("{name} (control)"))
            } else {
                (Swatch::Line(col), name.to_string())
            }
        })
        .chain([(Swatch::Line(BLACK), "chance".to_string())])
        .collect();
    let entries = key::borrowed(&labels);
    svg(COLUMN, 500 + key::height(entries.len(), 3), |root| {
        let (top, strip) = root.split_vertically(500);
        key::key(&strip, &entries, 3, 60)?;
        let mut chart = axes(
            &top,
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
        for a in 0..architectures(task).len() {
            let runs: Vec<&History> = f.histories(a).collect();
            let at = |step: usize| Summary::over(runs.iter().map(|h| h.accuracy_at(step)));
            let sums: Vec<Summary> = grid.iter().map(|&s| at(s)).collect();
            let col = palette::ARCHITECTURES[a];
            let mean = xs.iter().cloned().zip(sums.iter().map(|s| s.mean));
            if a == BARE {
                // the control: a dashed mean, no band
                chart.draw_series(DashedLineSeries::new(mean, 6, 4, col.stroke_width(2)))?;
                continue;
            }
            let lo: Vec<f64> = sums.iter().map(|s| s.mean - s.sd).collect();
            let hi: Vec<f64> = sums.iter().map(|s| s.mean + s.sd).collect();
            chart.draw_series([band(&xs, &lo, &hi, col)])?;
            chart.draw_series(LineSeries::new(mean, col.stroke_width(2)))?;
        }
        let end = schedule.steps as f64;
        chart.draw_series([PathElement::new(
            vec![(0.0, chance), (end, chance)],
            BLACK.stroke_width(1),
        )])?;
        let early = train_early as f64;
        marked_line(
            &mut chart,
            (early, 0.0),
            (early, 1.05),
            RGBColor(150, 150, 150).stroke_width(1),
            &format!("step {train_early}"),
            (early + 40.0, 0.04),
            12,
        )
    })
}

/// Left: mean ρ with raw similarity over heads; right: accuracy owed to the
/// mismatch (as trained minus with `W_QK` swapped for its symmetric part);
/// one head, a line per task, trained solid with a 10–90% band, null dashed.
pub fn along_training() -> Result<String, DrawError> {
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
