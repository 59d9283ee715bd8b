//! The figure of chapter 7's larger MQAR setting: every run's held-out
//! accuracy against training step, read from the committed findings.

use plotters::prelude::*;

use super::style::{axes, color, mesh, svg, text};
use super::{DrawError, Figure};
use crate::experiment::delta_attention::large::findings;
use crate::experiment::delta_attention::large::report::{ARMS, cell_name, cells};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch07-mqar-large",
    chapter: 7,
    about: "held-out MQAR accuracy against training step at the larger setting, one panel per cell, one colour per arm",
    draw: curves,
}];

/// One panel per cell, one colour per arm, a thin line per seed and a cross
/// where a run hit the cap, chance dashed; the legend below the panels.
fn curves() -> Result<String, DrawError> {
    let f = findings();
    let cells = cells(f);
    svg(750, 600, |root| {
        let (top, bottom) = root.split_vertically(470);
        let panels = top.split_evenly((1, cells.len()));
        for (panel, &(k, p)) in panels.iter().zip(&cells) {
            let mut chart = axes(
                panel,
                cell_name((k, p)),
                0f64..f.setup.training.schedule.steps as f64,
                0f64..1.05,
            )?;
            mesh(&mut chart, "training step", "held-out accuracy")
                .disable_mesh()
                .x_labels(5)
                .draw()?;
            let chance = 2.0 / f.setup.vocab as f64;
            chart.draw_series(DashedLineSeries::new(
                [
                    (0.0, chance),
                    (f.setup.training.schedule.steps as f64, chance),
                ],
                6,
                4,
                BLACK.stroke_width(1),
            ))?;
            for (i, (arm, _)) in ARMS.iter().enumerate() {
                let c = color(i);
                for run in &f.cell(arm, k, p).runs {
                    let pts: Vec<(f64, f64)> =
                        run.curve.iter().map(|&(t, a)| (t as f64, a)).collect();
                    chart.draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))?;
                    if let (true, Some(&end)) = (run.stop.capped(), pts.last()) {
                        chart.draw_series([Cross::new(end, 5, c.stroke_width(2))])?;
                    }
                }
            }
        }
        for (i, (_, name)) in ARMS.iter().enumerate() {
            let (x, y) = (30 + 240 * (i as i32 % 3), 20 + 26 * (i as i32 / 3));
            bottom.draw(&PathElement::new(
                vec![(x, y), (x + 24, y)],
                color(i).stroke_width(3),
            ))?;
            bottom.draw(&Text::new(*name, (x + 32, y - 8), text(13)))?;
        }
        bottom.draw(&Text::new(
            "× a run that hit the step cap; dashed: chance",
            (30 + 240 * (ARMS.len() as i32 % 3), 20 + 26 * 2 - 8),
            text(13),
        ))?;
        Ok(())
    })
}
