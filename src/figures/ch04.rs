//! Figures of chapter 4: relations before objects.

use nalgebra::DMatrix;
use plotters::prelude::*;

use super::ch02::{bar, heatmap};
use super::style::{Canvas, color, svg, text};
use super::{DrawError, Figure};
use crate::experiment::relations::{BOOK, SEEDS, book, delta_sample, sample};
use crate::relation::{delta_token_weights, rollout};

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch04-composition",
        chapter: 4,
        about: "three layers' attention matrices and their composite, the rollout, for one prompt",
        draw: composition,
    },
    Figure {
        name: "ch04-attribution",
        chapter: 4,
        about: "rank agreement with leave-one-out: raw last-layer attention against rollout, per seed",
        draw: attribution,
    },
    Figure {
        name: "ch04-boundary",
        chapter: 4,
        about: "a new prefix changes the suffix's strongest relations from layer 2 on; layers depend on their input",
        draw: boundary,
    },
    Figure {
        name: "ch04-delta-weights",
        chapter: 4,
        about: "effective token weights of linear attention and of the delta rule: the delta rule's are signed",
        draw: delta_weights,
    },
];

/// `c` faded towards white by `1 − t`, `t ∈ [0, 1]`.
fn shade(c: RGBColor, t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let mix = |a: u8| (255.0 - t * (255.0 - a as f64)).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// Draw a signed `m` as a heat map in `area`, row 0 at the top: positive
/// entries shade to blue, negative ones to vermillion, full colour at `|m| = top`.
fn signed_heatmap(area: &Canvas, m: &DMatrix<f64>, title: &str, top: f64) -> Result<(), DrawError> {
    let (rows, cols) = m.shape();
    let mut chart = ChartBuilder::on(area)
        .caption(title, text(14))
        .margin(6)
        .x_label_area_size(30)
        .y_label_area_size(30)
        .build_cartesian_2d(0f64..cols as f64, rows as f64..0f64)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(cols.min(7))
        .y_labels(rows.min(7))
        .x_label_formatter(&|x| format!("{}", x.floor() as usize))
        .y_label_formatter(&|y| format!("{}", y.floor() as usize))
        .label_style(text(10))
        .x_desc("key j")
        .y_desc("query i")
        .axis_desc_style(text(11))
        .draw()?;
    chart.draw_series(
        (0..rows)
            .flat_map(|i| (0..cols).map(move |j| (i, j)))
            .map(|(i, j)| {
                let v = m[(i, j)];
                let c = if v >= 0.0 {
                    shade(color(0), v / top)
                } else {
                    shade(color(1), -v / top)
                };
                Rectangle::new(
                    [(j as f64, i as f64), (j as f64 + 1.0, i as f64 + 1.0)],
                    c.filled(),
                )
            }),
    )?;
    Ok(())
}

fn composition() -> Result<String, DrawError> {
    let (x, stack) = sample(BOOK, 0);
    let t = stack.forward(&x);
    let r = rollout(&t.weights);
    svg(1000, 290, |root| {
        let panels = root.split_evenly((1, 4));
        for (l, a) in t.weights.iter().enumerate() {
            heatmap(
                &panels[l],
                a,
                &format!("layer {} attention A_{}", l + 1, l + 1),
                color(0),
                "key j",
                "query i",
            )?;
        }
        heatmap(
            &panels[3],
            &r,
            "rollout (½I+½A_3)(½I+½A_2)(½I+½A_1)",
            color(0),
            "input token j",
            "query i",
        )
    })
}

fn attribution() -> Result<String, DrawError> {
    let f = book();
    svg(560, 460, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("agreement with leave-one-out, {SEEDS} seeds"),
                text(16),
            )
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(54)
            .build_cartesian_2d(-1f64..1f64, -1f64..1f64)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("Spearman ρ, last-layer attention vs leave-one-out")
            .y_desc("Spearman ρ, rollout vs leave-one-out")
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        chart.draw_series([PathElement::new(
            vec![(-1.0, -1.0), (1.0, 1.0)],
            BLACK.stroke_width(1),
        )])?;
        chart.draw_series(
            f.trials
                .iter()
                .map(|t| Circle::new((t.rho_raw, t.rho_rollout), 3, color(0).mix(0.6).filled())),
        )?;
        chart.draw_series([Text::new(
            "above the diagonal: rollout agrees better",
            (-0.2, -0.8),
            text(12),
        )])?;
        Ok(())
    })
}

fn boundary() -> Result<String, DrawError> {
    let f = book();
    let layers = BOOK.layers;
    let chance = 1.0 - 1.0 / (BOOK.n - BOOK.prefix) as f64;
    svg(960, 380, |root| {
        let (left, right) = root.split_horizontally(560);
        let labels: Vec<String> = (1..=layers)
            .map(|l| format!("layer {l}"))
            .chain(["rollout".to_string()])
            .collect();
        let mut chart = ChartBuilder::on(&left)
            .caption("new prefix: suffix relations that change", text(15))
            .margin(10)
            .x_label_area_size(34)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..(layers as f64 + 0.5), 0f64..1f64)?;
        let l2 = labels.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(layers + 1)
            .x_label_formatter(&|x| l2.get(x.round() as usize).cloned().unwrap_or_default())
            .y_desc("fraction of suffix tokens whose strongest partner changes")
            .label_style(text(12))
            .axis_desc_style(text(12))
            .draw()?;
        for i in 0..=layers {
            let s = f.summary(|t| t.turnover[i]);
            let x = i as f64;
            bar(&mut chart, x, 0.3, s, color(2))?;
        }
        chart.draw_series([PathElement::new(
            vec![(-0.5, chance), (layers as f64 + 0.5, chance)],
            BLACK.stroke_width(2),
        )])?;
        chart.draw_series([Text::new("chance", (-0.4, chance + 0.03), text(12))])?;

        let mut chart = ChartBuilder::on(&right)
            .caption("arrow on its own input vs on the prompt", text(15))
            .margin(10)
            .x_label_area_size(34)
            .y_label_area_size(50)
            .build_cartesian_2d(0.5f64..(layers as f64 - 0.5), 0f64..1f64)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(layers - 1)
            .x_label_formatter(&|x| format!("layer {}", x.round() as usize + 1))
            .y_desc("mean row total-variation distance")
            .label_style(text(12))
            .axis_desc_style(text(12))
            .draw()?;
        for l in 1..layers {
            let s = f.summary(|t| t.path_tv[l - 1]);
            let x = l as f64;
            bar(&mut chart, x, 0.3, s, color(3))?;
        }
        Ok(())
    })
}

fn delta_weights() -> Result<String, DrawError> {
    let (q, k, beta) = delta_sample(0);
    let mut linear = &q * k.transpose();
    for t in 0..q.nrows() {
        for j in t + 1..q.nrows() {
            linear[(t, j)] = 0.0;
        }
    }
    let delta = delta_token_weights(&q, &k, &beta);
    svg(760, 380, |root| {
        let panels = root.split_evenly((1, 2));
        signed_heatmap(
            &panels[0],
            &linear,
            "linear attention q_t·k_j",
            linear.abs().max(),
        )?;
        signed_heatmap(
            &panels[1],
            &delta,
            "delta rule w_tj (vermillion: negative)",
            delta.abs().max(),
        )
    })
}
