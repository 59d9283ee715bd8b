//! The figures of chapter 7's decisive MQAR runs, drawn from their findings
//! (`findings/mqar-budget.json`): every seed's learning curve as small
//! multiples (one panel per arm, one figure per cell), and the capacity of
//! every arm in every cell with its seeds.

use plotters::prelude::*;

use super::palette::mixer;
use super::style::{axes, mesh, say, svg, text};
use super::{DrawError, Figure};
use crate::experiment::delta_attention::budget::report::{cell_name, label};
use crate::experiment::delta_attention::budget::{Findings, findings};
use crate::train::Outcome;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch07-mqar-capacity",
        chapter: 7,
        about: "held-out MQAR accuracy where each run ended, every arm in every cell: a bar per arm's mean, a dot per seed",
        draw: || capacity(findings()),
    },
    Figure {
        name: "ch07-mqar-k8-p4",
        chapter: 7,
        about: "MQAR learning curves at K = V = 8, 4 pairs: one panel per arm, every seed",
        draw: || curves(findings(), (8, 4)),
    },
    Figure {
        name: "ch07-mqar-k8-p8",
        chapter: 7,
        about: "MQAR learning curves at K = V = 8, 8 pairs: one panel per arm, every seed",
        draw: || curves(findings(), (8, 8)),
    },
    Figure {
        name: "ch07-mqar-k8-p16",
        chapter: 7,
        about: "MQAR learning curves at K = V = 8, 16 pairs: one panel per arm, every seed",
        draw: || curves(findings(), (8, 16)),
    },
    Figure {
        name: "ch07-mqar-k16-p16",
        chapter: 7,
        about: "MQAR learning curves at K = V = 16, 16 pairs: one panel per arm, every seed",
        draw: || curves(findings(), (16, 16)),
    },
];

/// The colour of `arm`: its mixer's, lighter under horizon gates or without the normaliser.
fn colour(f: &Findings, arm: &str) -> ShapeStyle {
    let a = f
        .setup
        .arms()
        .into_iter()
        .find(|a| a.name() == arm)
        .unwrap_or_else(|| panic!("budget figure: unknown arm {arm}"));
    let c = mixer(a.mixer);
    match arm.ends_with("_horizon") || arm == "linear_sum" {
        true => c.mix(0.55).stroke_width(2),
        false => c.stroke_width(2),
    }
}

/// The arms' names in the setup's order.
fn arms(f: &Findings) -> Vec<String> {
    f.setup.arms().iter().map(|a| a.name()).collect()
}

/// One panel per arm (three across), every seed's held-out curve in the
/// arm's colour; a dot where a run solved, a cross where the cap cut it, a
/// ring where it never learned; chance (1/pairs) dashed.
pub fn curves(f: &Findings, cell: (usize, usize)) -> Result<String, DrawError> {
    let names = arms(f);
    let rows = names.len().div_ceil(3);
    let cap = names
        .iter()
        .flat_map(|a| f.cell(a, cell).runs.iter().map(|r| r.cap))
        .max()
        .unwrap_or(f.setup.cap) as f64;
    svg(750, 250 * rows as u32 + 40, |root| {
        let (title, body) = root.split_vertically(40);
        title.draw(&Text::new(say(cell_name(cell)), (10, 10), text(16)))?;
        let panels = body.split_evenly((rows, 3));
        for (panel, arm) in panels.iter().zip(&names) {
            let mut chart = axes(panel, label(arm), 0f64..cap, 0f64..1.05)?;
            mesh(&mut chart, "step", "accuracy")
                .disable_mesh()
                .x_labels(3)
                .y_labels(3)
                .draw()?;
            let chance = 1.0 / cell.1 as f64;
            chart.draw_series(DashedLineSeries::new(
                [(0.0, chance), (cap, chance)],
                5,
                4,
                BLACK.stroke_width(1),
            ))?;
            let style = colour(f, arm);
            for run in &f.cell(arm, cell).runs {
                let pts: Vec<(f64, f64)> = run.curve.iter().map(|&(t, a)| (t as f64, a)).collect();
                chart.draw_series(LineSeries::new(pts.clone(), style))?;
                let Some(&end) = pts.last() else { continue };
                match run.outcome {
                    Outcome::Solved => chart.draw_series([Circle::new(end, 4, style.filled())])?,
                    Outcome::Cut => chart.draw_series([Cross::new(end, 5, style)])?,
                    Outcome::NeverLearned => chart.draw_series([Circle::new(end, 5, style)])?,
                    Outcome::Flat => chart.draw_series(std::iter::empty::<Circle<_, i32>>())?,
                };
            }
        }
        Ok(())
    })
}

/// One panel per cell: each arm's mean capacity as a bar, every seed a dot.
pub fn capacity(f: &Findings) -> Result<String, DrawError> {
    let names = arms(f);
    let cells = &f.setup.cells;
    let n = names.len() as f64;
    svg(750, 300 * cells.len().div_ceil(2) as u32, |root| {
        let panels = root.split_evenly((cells.len().div_ceil(2), 2));
        for (panel, &cell) in panels.iter().zip(cells) {
            let mut chart = axes(panel, cell_name(cell), -0.5..n - 0.5, 0f64..1.05)?;
            mesh(&mut chart, "", "accuracy")
                .disable_mesh()
                .x_labels(names.len())
                .x_label_formatter(&|x| {
                    let i = x.round() as usize;
                    names.get(i).map_or(String::new(), |a| say(short(a)))
                })
                .y_labels(3)
                .draw()?;
            for (i, arm) in names.iter().enumerate() {
                let c = f.cell(arm, cell);
                let accs = c.accs();
                let mean = accs.iter().sum::<f64>() / accs.len() as f64;
                let x = i as f64;
                let style = colour(f, arm);
                chart.draw_series([Rectangle::new(
                    [(x - 0.35, 0.0), (x + 0.35, mean)],
                    style.color.mix(0.35).filled(),
                )])?;
                chart.draw_series(accs.iter().enumerate().map(|(s, &a)| {
                    Circle::new(
                        (x - 0.25 + 0.5 * s as f64 / accs.len() as f64, a),
                        3,
                        style.filled(),
                    )
                }))?;
            }
        }
        Ok(())
    })
}

/// A tick label short enough for nine bars in half the column.
fn short(arm: &str) -> &'static str {
    match arm {
        "softmax" => "soft",
        "linear" => "lin",
        "deltanet" => "Δ",
        "gdn_fla" => "GΔ",
        "gdn_horizon" => "GΔ·T",
        "kda_fla" => "KDA",
        "kda_horizon" => "KDA·T",
        "linear_norm" => "Z",
        "linear_sum" => "Z−",
        _ => "?",
    }
}
