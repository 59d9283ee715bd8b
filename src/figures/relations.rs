//! Figures of chapter 4: relations before objects.

use plotters::prelude::*;

use super::style::{Shading, bar, color, heatmap, marked_line, svg, text};
use super::{DrawError, Figure};
use crate::experiment::relations::{self, BOOK, Composition, SEEDS, book};

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

fn composition() -> Result<String, DrawError> {
    let Composition { weights, rollout } = relations::composition(BOOK, 0);
    svg(1000, 290, |root| {
        let panels = root.split_evenly((1, 4));
        for (l, a) in weights.iter().enumerate() {
            heatmap(
                &panels[l],
                a,
                &format!("layer {} attention A_{}", l + 1, l + 1),
                Shading::Sequential(color(0)),
                "key j",
                "query i",
            )?;
        }
        heatmap(
            &panels[3],
            &rollout,
            "rollout (½I+½A_3)(½I+½A_2)(½I+½A_1)",
            Shading::Sequential(color(0)),
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
        marked_line(
            &mut chart,
            (-0.5, chance),
            (layers as f64 + 0.5, chance),
            BLACK.stroke_width(2),
            "chance",
            (-0.4, chance + 0.03),
            12,
        )?;

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
    let (linear, delta) = relations::delta_weights(0);
    svg(760, 380, |root| {
        let panels = root.split_evenly((1, 2));
        heatmap(
            &panels[0],
            &linear,
            "linear attention q_t·k_j",
            Shading::Diverging(linear.abs().max()),
            "key j",
            "query i",
        )?;
        heatmap(
            &panels[1],
            &delta,
            "delta rule w_tj (vermillion: negative)",
            Shading::Diverging(delta.abs().max()),
            "key j",
            "query i",
        )
    })
}
