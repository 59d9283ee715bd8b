//! Figures of chapter 4: relations before objects.

use plotters::prelude::*;

use super::style::{
    COLUMN, Shading, axes, band, bar, color, heatmap, legend, line_key, marked_line, mesh, say,
    svg, text, tick,
};
use super::{DrawError, Figure};
use crate::experiment::relations::cost::{self, Arm};
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
    Figure {
        name: "ch04-relations-cost",
        chapter: 4,
        about: "steps to threshold against the number of relations k: a learned head against the relations' structure given",
        draw: relations_cost,
    },
    Figure {
        name: "ch04-flexible-costly",
        chapter: 4,
        about: "per member of a family of relations: final accuracy and steps to threshold, a learned head against heads frozen at one member's form",
        draw: flexible_costly,
    },
];

fn composition() -> Result<String, DrawError> {
    let Composition { weights, rollout } = relations::composition(BOOK, 0);
    svg(COLUMN, 640, |root| {
        let panels = root.split_evenly((2, 2));
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
        let mut chart = axes(
            root,
            format!("agreement with leave-one-out, {SEEDS} seeds"),
            -1f64..1f64,
            -1f64..1f64,
        )?;
        mesh(
            &mut chart,
            "Spearman ρ, last-layer attention vs leave-one-out",
            "Spearman ρ, rollout vs leave-one-out",
        )
        .disable_mesh()
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
            say("above the diagonal: rollout agrees better"),
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
    svg(COLUMN, 760, |root| {
        let (left, right) = root.split_vertically(380);
        let labels: Vec<String> = (1..=layers)
            .map(|l| format!("layer {l}"))
            .chain(["rollout".to_string()])
            .collect();
        let mut chart = ChartBuilder::on(&left)
            .caption(say("new prefix: suffix relations that change"), text(15))
            .margin(10)
            .x_label_area_size(34)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..(layers as f64 + 0.5), 0f64..1f64)?;
        let l2 = labels.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(layers + 1)
            .x_label_formatter(&|x| say(l2.get(x.round() as usize).cloned().unwrap_or_default()))
            .y_desc(say(
                "fraction of suffix tokens whose strongest partner changes",
            ))
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

        let mut chart = axes(
            &right,
            "arrow on its own input vs on the prompt",
            0.5f64..(layers as f64 - 0.5),
            0f64..1f64,
        )?;
        mesh(&mut chart, "", "mean row total-variation distance")
            .disable_x_mesh()
            .x_labels(layers - 1)
            .x_label_formatter(&|x| say(format!("layer {}", x.round() as usize + 1)))
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
    svg(COLUMN, 380, |root| {
        let panels = root.split_evenly((1, 2));
        heatmap(
            &panels[0],
            &linear,
            "linear attention qₜ·kⱼ",
            Shading::Diverging(linear.abs().max()),
            "key j",
            "query i",
        )?;
        heatmap(
            &panels[1],
            &delta,
            "delta rule wₜⱼ (vermillion: negative)",
            Shading::Diverging(delta.abs().max()),
            "key j",
            "query i",
        )
    })
}

fn relations_cost() -> Result<String, DrawError> {
    let f = cost::book();
    let s = f.setup;
    let xs: Vec<f64> = s.ks.iter().map(|&k| (k as f64).log2()).collect();
    let beyond = cost::beyond(s);
    svg(COLUMN, 420, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                say(format!(
                    "steps to test accuracy ≥ {}: median and 25–75% band over {} seeds",
                    s.schedule.threshold, s.seeds
                )),
                text(15),
            )
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(58)
            .build_cartesian_2d(
                -0.2f64..(xs[xs.len() - 1] + 0.2),
                (1f64..4000f64).log_scale(),
            )?;
        chart
            .configure_mesh()
            .x_labels(s.ks.len())
            .x_label_formatter(&|x| say(format!("{}", 2f64.powf(x.round()) as usize)))
            .x_desc(say("number of relations k (one head of fixed width)"))
            .y_desc(say("Adam steps (log scale)"))
            .y_label_formatter(&tick)
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for (i, arm) in Arm::ALL.iter().enumerate() {
            let cells: Vec<&cost::Cell> = s.ks.iter().map(|&k| f.cell(*arm, k)).collect();
            let lo: Vec<f64> = cells.iter().map(|c| c.quartiles().0).collect();
            let hi: Vec<f64> = cells.iter().map(|c| c.quartiles().1).collect();
            chart.draw_series([band(&xs, &lo, &hi, color(i))])?;
            // one dot per seed, the arms side by side, spread so that equal steps stay visible
            chart.draw_series(cells.iter().zip(&xs).flat_map(|(c, &x)| {
                let n = c.steps.len() as f64;
                c.steps.iter().enumerate().map(move |(j, &y)| {
                    let dx = 0.12 * (i as f64 - 0.5) + 0.08 * (j as f64 / (n - 1.0) - 0.5);
                    Circle::new((x + dx, y), 2, color(i).mix(0.5).filled())
                })
            }))?;
            let label = match arm {
                Arm::Learned => "learned head (query: the pair's embedding)",
                Arm::Given => "structure given (query: the named key, W_QK = I)",
            };
            chart
                .draw_series(LineSeries::new(
                    xs.iter().zip(&cells).map(|(&x, c)| (x, c.median())),
                    color(i).stroke_width(3),
                ))?
                .label(say(label))
                .legend(line_key(color(i), 3));
        }
        marked_line(
            &mut chart,
            (-0.2, beyond),
            (xs[xs.len() - 1] + 0.2, beyond),
            BLACK.stroke_width(1),
            "budget: seeds here never reached the threshold",
            (-0.1, beyond * 1.8),
            12,
        )?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        Ok(())
    })
}

/// x offset of seed `j` of `n` within a group centred at `x + dx`, so that equal values stay visible.
fn jitter(x: f64, dx: f64, j: usize, n: usize) -> f64 {
    x + dx + 0.12 * (j as f64 / (n.max(2) - 1) as f64 - 0.5)
}

fn flexible_costly() -> Result<String, DrawError> {
    use crate::experiment::relations::flexible::{self, Head};
    let f = flexible::book();
    let s = f.setup;
    let members = s.members as f64;
    let (learned, given, elsewhere) = (color(0), color(1), RGBColor(150, 150, 150));
    svg(COLUMN, 400, |root| {
        let (top, rest) = root.split_vertically(36);
        let keys = [
            (learned, "W_Q, W_K learned"),
            (given, "frozen at this member's form"),
            (elsewhere, "frozen at another member's form"),
        ];
        for (i, (c, label)) in keys.iter().enumerate() {
            let x = 20 + 245 * i as i32;
            top.draw(&Circle::new((x, 18), 5, c.filled()))?;
            top.draw(&Text::new(say(*label), (x + 10, 10), text(13)))?;
        }
        let (left, right) = rest.split_horizontally(COLUMN / 2);
        let null = crate::stats::quantile(&f.null(), 0.95);
        let mut acc = ChartBuilder::on(&left)
            .caption(say("flexible: final test accuracy"), text(15))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(-0.5f64..(members - 0.5), 0f64..1.05f64)?;
        acc.configure_mesh()
            .x_labels(s.members)
            .x_label_formatter(&|x| say(format!("r = {}", x.round())))
            .x_desc(say("member: answer at key q + r"))
            .y_desc(say("test accuracy"))
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        let mut steps = ChartBuilder::on(&right)
            .caption(say("costly: steps to test accuracy ≥ threshold"), text(15))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(
                -0.5f64..(members - 0.5),
                0f64..{
                    let most = f
                        .cells
                        .iter()
                        .filter(|c| c.head == Head::Learned && !c.shuffled);
                    most.flat_map(|c| c.steps.iter().copied())
                        .fold(0.0, f64::max)
                        * 1.15
                },
            )?;
        steps
            .configure_mesh()
            .x_labels(s.members)
            .x_label_formatter(&|x| say(format!("r = {}", x.round())))
            .x_desc(say("member: answer at key q + r"))
            .y_desc(say(format!(
                "Adam steps (evaluated every {})",
                s.schedule.eval_every
            )))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for r in 0..s.members {
            let x = r as f64;
            let groups: Vec<(f64, RGBColor, Vec<f64>)> = vec![
                (
                    -0.28,
                    learned,
                    f.cell(Head::Learned, r, false).accuracy.clone(),
                ),
                (
                    0.0,
                    given,
                    f.cell(Head::Fixed(r), r, false).accuracy.clone(),
                ),
                (
                    0.28,
                    elsewhere,
                    f.where_(flexible::other)
                        .into_iter()
                        .filter(|c| c.member == r)
                        .flat_map(|c| c.accuracy.iter().copied())
                        .collect(),
                ),
            ];
            for (dx, c, ys) in groups {
                let n = ys.len();
                acc.draw_series(
                    ys.into_iter().enumerate().map(|(j, y)| {
                        Circle::new((jitter(x, dx, j, n), y), 2, c.mix(0.6).filled())
                    }),
                )?;
            }
            for (dx, c, head) in [
                (-0.15, learned, Head::Learned),
                (0.15, given, Head::Fixed(r)),
            ] {
                let ys = &f.cell(head, r, false).steps;
                let n = ys.len();
                steps.draw_series(ys.iter().enumerate().map(|(j, &y)| {
                    Circle::new((jitter(x, dx, j, n), y), 2, c.mix(0.6).filled())
                }))?;
                let m = crate::stats::median(ys);
                steps.draw_series([PathElement::new(
                    vec![(x + dx - 0.1, m), (x + dx + 0.1, m)],
                    c.stroke_width(3),
                )])?;
            }
        }
        marked_line(
            &mut acc,
            (-0.5, s.schedule.threshold),
            (members - 0.5, s.schedule.threshold),
            BLACK.stroke_width(1),
            &format!("threshold {}", s.schedule.threshold),
            (-0.45, s.schedule.threshold + 0.06),
            12,
        )?;
        marked_line(
            &mut acc,
            (-0.5, null),
            (members - 0.5, null),
            BLACK.mix(0.5).stroke_width(1),
            "null: 95% of shuffled-label runs below",
            (-0.45, null + 0.1),
            12,
        )?;
        Ok(())
    })
}
