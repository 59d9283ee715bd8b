//! Figures of chapter 6: the learning cost.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::style::{
    COLUMN, Canvas, Chart, axes, band, color, error_bar, legend, line_key, mesh, say, svg,
};
use super::{DrawError, Figure};
use crate::experiment::learning_cost::arm::{Arm, Run, Variant};
use crate::experiment::learning_cost::steps::book;
use crate::stats::ecdf;
use crate::train::{Qk, Relation};

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch06-steps-ecdf",
        chapter: 6,
        about: "ECDF over seeds of the steps each parameterisation needs to reach the accuracy threshold",
        draw: steps_ecdf,
    },
    Figure {
        name: "ch06-loss-curves",
        chapter: 6,
        about: "training loss against step, mean and 10–90% band over seeds, per parameterisation",
        draw: loss_curves,
    },
    Figure {
        name: "ch06-examples",
        chapter: 6,
        about: "final accuracy of the match task against the number of training examples",
        draw: examples,
    },
    Figure {
        name: "ch06-geometry",
        chapter: 6,
        about: "how W_QK's agreement with raw similarity and its symmetric share move during training",
        draw: geometry,
    },
];

/// A legend entry line of colour `i`.
fn steps_ecdf() -> Result<String, DrawError> {
    let f = book();
    let s = f.setup;
    svg(COLUMN, 380, |root: &Canvas| {
        for (area, relation) in root.split_evenly((1, 2)).iter().zip(Relation::ALL) {
            let mut chart = axes(
                area,
                format!("{} task, {} seeds", relation.name(), s.seeds),
                0f64..s.cap as f64,
                0f64..1.02f64,
            )?;
            mesh(
                &mut chart,
                format!("steps to test accuracy ≥ {}", s.schedule.threshold),
                "fraction of seeds",
            )
            .draw()?;
            for (i, qk) in Qk::ALL.iter().enumerate() {
                let arm = f.arm(relation, *qk, Variant::Clean);
                let reached: Vec<f64> = arm
                    .runs
                    .iter()
                    .filter_map(|r| r.history.steps_to_threshold)
                    .map(|x| x as f64)
                    .collect();
                let n = arm.runs.len() as f64;
                // a step function: 0 until the first seed arrives, then the share of seeds that have arrived
                let mut pts = vec![(0.0, 0.0)];
                let mut level = 0.0;
                for (x, _) in ecdf(&reached) {
                    pts.push((x, level));
                    level += 1.0 / n;
                    pts.push((x, level));
                }
                pts.dedup();
                pts.push((s.cap as f64, level));
                chart
                    .draw_series(LineSeries::new(pts, color(i).stroke_width(3)))?
                    .label(say(format!(
                        "{} ({}/{})",
                        qk.name(),
                        arm.reached(),
                        arm.runs.len()
                    )))
                    .legend(line_key(color(i), 3));
            }
            legend(&mut chart, SeriesLabelPosition::MiddleRight)?;
        }
        Ok(())
    })
}

/// A key of the arms `names` in their colours, then `reference` (a black line).
fn arm_key<'a>(names: &[&'a str], reference: Option<&'a str>) -> Vec<(Swatch, &'a str)> {
    let arms = names
        .iter()
        .enumerate()
        .map(|(i, n)| (Swatch::Line(color(i)), *n));
    arms.chain(reference.map(|r| (Swatch::Line(BLACK), r)))
        .collect()
}

/// A per-evaluation curve of a run.
type Curve = fn(&Run) -> &[f64];

/// Mean and band of one curve of an arm against the evaluation steps.
fn draw_curve(
    chart: &mut Chart<'_, '_>,
    arm: &Arm,
    field: Curve,
    i: usize,
    label: &str,
) -> Result<(), DrawError> {
    let c = arm.curve(field);
    let every = book().setup.schedule.eval_every;
    let xs: Vec<f64> = (0..c.len()).map(|k| (k * every) as f64).collect();
    let lo: Vec<f64> = c.iter().map(|p| p.1).collect();
    let hi: Vec<f64> = c.iter().map(|p| p.2).collect();
    chart.draw_series([band(&xs, &lo, &hi, color(i))])?;
    chart
        .draw_series(LineSeries::new(
            xs.iter().zip(&c).map(|(&x, p)| (x, p.0)),
            color(i).stroke_width(2),
        ))?
        .label(say(label))
        .legend(line_key(color(i), 3));
    Ok(())
}

fn loss_curves() -> Result<String, DrawError> {
    let f = book();
    let s = f.setup;
    let top = (s.vocab as f64).ln() * 1.25;
    let names: Vec<&str> = Qk::ALL.iter().map(|qk| qk.name()).collect();
    let entries = arm_key(&names, Some("ln(vocab): a uniform guess"));
    svg(
        COLUMN,
        380 + key::height(entries.len(), 3),
        |root: &Canvas| {
            let (panels, strip) = root.split_vertically(380);
            key::key(&strip, &entries, 3, 60)?;
            for (area, relation) in panels.split_evenly((1, 2)).iter().zip(Relation::ALL) {
                let mut chart = axes(
                    area,
                    format!(
                        "{} task: training loss (mean, 10–90% band)",
                        relation.name()
                    ),
                    0f64..s.cap as f64,
                    0f64..top,
                )?;
                mesh(&mut chart, "Adam step", "cross-entropy (nats)").draw()?;
                for (i, qk) in Qk::ALL.iter().enumerate() {
                    let arm = f.arm(relation, *qk, Variant::Clean);
                    draw_curve(&mut chart, arm, |r| &r.history.train_loss, i, qk.name())?;
                }
                let chance = (s.vocab as f64).ln();
                chart
                    .draw_series([PathElement::new(
                        vec![(0.0, chance), (s.cap as f64, chance)],
                        BLACK.stroke_width(1),
                    )])?
                    .label(say("ln(vocab): a uniform guess"))
                    .legend(line_key(BLACK, 1));
            }
            Ok(())
        },
    )
}

fn examples() -> Result<String, DrawError> {
    let f = book();
    let s = f.setup;
    let variants = [
        Variant::Examples(s.examples[0]),
        Variant::Examples(s.examples[1]),
        Variant::Clean,
    ];
    let names = [
        s.examples[0].to_string(),
        s.examples[1].to_string(),
        "fresh every step".to_string(),
    ];
    let arms: Vec<&str> = Qk::ALL.iter().map(|qk| qk.name()).collect();
    let entries = arm_key(&arms, Some("chance"));
    svg(
        COLUMN,
        400 + key::height(entries.len(), 5),
        |root: &Canvas| {
            let (top, strip) = root.split_vertically(400);
            key::key(&strip, &entries, 5, 60)?;
            let mut chart = axes(
                &top,
                format!(
                    "match task: final test accuracy, mean ± sd over {} seeds",
                    s.seeds
                ),
                -0.5f64..2.5f64,
                0f64..1.05f64,
            )?;
            mesh(&mut chart, "training examples", "test accuracy")
                .disable_x_mesh()
                .x_labels(3)
                .x_label_formatter(&|x| {
                    say(names.get(x.round() as usize).cloned().unwrap_or_default())
                })
                .draw()?;
            for (i, qk) in Qk::ALL.iter().enumerate() {
                let dx = i as f64 * 0.08 - 0.12;
                let pts: Vec<(f64, f64, f64)> = variants
                    .iter()
                    .enumerate()
                    .map(|(v, &variant)| {
                        let a = f.arm(Relation::Match, *qk, variant).accuracy();
                        (v as f64 + dx, a.mean, a.sd)
                    })
                    .collect();
                chart.draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.0, p.1)),
                    color(i).stroke_width(2),
                ))?;
                chart.draw_series(
                    pts.iter()
                        .map(|p| Circle::new((p.0, p.1), 4, color(i).filled())),
                )?;
                for p in &pts {
                    chart.draw_series(error_bar(
                        p.0,
                        p.1 - p.2,
                        p.1 + p.2,
                        0.03,
                        color(i).stroke_width(1),
                    ))?;
                }
            }
            let chance = 1.0 / s.vocab as f64;
            chart.draw_series([PathElement::new(
                vec![(-0.5, chance), (2.5, chance)],
                BLACK.stroke_width(1),
            )])?;
            Ok(())
        },
    )
}

fn geometry() -> Result<String, DrawError> {
    let f = book();
    let s = f.setup;
    let rows: [(&str, Curve, std::ops::Range<f64>); 2] = [
        (
            "Spearman ρ(raw x_q·x_j, x_q W_QK x_jᵀ)",
            |r| &r.rho,
            -0.6..1.05,
        ),
        (
            "symmetric share of ‖W_QK‖²",
            |r| &r.symmetric_share,
            0.3..1.05,
        ),
    ];
    let names: Vec<&str> = Qk::ALL.iter().map(|qk| qk.name()).collect();
    let entries = arm_key(&names, None);
    svg(
        COLUMN,
        640 + key::height(entries.len(), 4),
        |root: &Canvas| {
            let (top, strip) = root.split_vertically(640);
            key::key(&strip, &entries, 4, 60)?;
            let areas = top.split_evenly((2, 2));
            for (k, area) in areas.iter().enumerate() {
                let (row, relation) = (&rows[k / 2], Relation::ALL[k % 2]);
                let mut chart = axes(
                    area,
                    format!("{} task", relation.name()),
                    0f64..s.cap as f64,
                    row.2.clone(),
                )?;
                mesh(&mut chart, "Adam step", row.0).draw()?;
                for (i, qk) in Qk::ALL.iter().enumerate() {
                    draw_curve(
                        &mut chart,
                        f.arm(relation, *qk, Variant::Clean),
                        row.1,
                        i,
                        qk.name(),
                    )?;
                }
            }
            Ok(())
        },
    )
}
