//! Figures of chapter 3: multi-head attention as stacked local coverings.

use plotters::prelude::*;

use super::style::{
    COLUMN, Chart, Shading, axes, band, color, error_bar, heatmap, legend, line_key, marked_line,
    mesh, say, svg,
};
use super::{DrawError, Figure, palette};
use crate::experiment::multi_head::bottleneck::{self, Task, total_widths};
use crate::experiment::multi_head::induction::{H, V, patterns};
use crate::experiment::multi_head::{SEEDS, ablation, specialisation, split};
use crate::stats::Summary;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch03-head-patterns",
        chapter: 3,
        about: "four heads on one repeated sequence: previous-token, content, random, and the layer-2 induction head",
        draw: head_patterns,
    },
    Figure {
        name: "ch03-rank-bottleneck",
        chapter: 3,
        about: "pattern error against head rank, and one wide head against two narrow heads of the same total width",
        draw: rank_bottleneck,
    },
    Figure {
        name: "ch03-trained-split",
        chapter: 3,
        about: "trained accuracy of one layer of fixed total width split into 1, 2, 4 or 8 heads",
        draw: trained_split,
    },
    Figure {
        name: "ch03-specialisation",
        chapter: 3,
        about: "where trained heads attend on a task that needs two relations at once: one head against two",
        draw: specialisation,
    },
    Figure {
        name: "ch03-ablation",
        chapter: 3,
        about: "induction accuracy with each head removed, and how concentrated ablation effects are",
        draw: ablation,
    },
];

fn head_patterns() -> Result<String, DrawError> {
    let p = patterns(0);
    let shown = [
        (&p[0][0], "layer 1, head 0: previous token"),
        (&p[0][1], "layer 1, head 1: same token"),
        (&p[0][2], "layer 1, head 2: random"),
        (&p[1][0], "layer 2, head 0: induction"),
    ];
    svg(COLUMN, 660, |root| {
        for (k, (area, (m, title))) in root.split_evenly((2, 2)).iter().zip(shown).enumerate() {
            heatmap(
                area,
                m,
                title,
                Shading::Sequential(color([0, 2, 6, 1][k])),
                "key position j",
                "query position i",
            )?;
        }
        Ok(())
    })
}

fn line_with_band(
    chart: &mut Chart,
    xs: &[f64],
    s: &[Summary],
    c: RGBColor,
    dashed: bool,
    label: &str,
) -> Result<(), DrawError> {
    let lo: Vec<f64> = s.iter().map(|v| v.mean - v.sd).collect();
    let hi: Vec<f64> = s.iter().map(|v| v.mean + v.sd).collect();
    chart.draw_series([band(xs, &lo, &hi, c)])?;
    let pts: Vec<(f64, f64)> = xs.iter().zip(s).map(|(&x, v)| (x, v.mean)).collect();
    let style = c.stroke_width(2);
    if dashed {
        chart
            .draw_series(DashedLineSeries::new(pts.clone(), 6, 4, style))?
            .label(say(label))
            .legend(move |(x, y)| {
                plotters::element::DashedPathElement::new(vec![(x, y), (x + 16, y)], 4, 3, style)
            });
    } else {
        chart
            .draw_series(LineSeries::new(pts.clone(), style))?
            .label(say(label))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], style));
    }
    chart.draw_series(pts.iter().map(|&p| Circle::new(p, 2, c.filled())))?;
    Ok(())
}

fn rank_bottleneck() -> Result<String, DrawError> {
    let f = bottleneck::book();
    let (relation_n, rank_seeds) = (bottleneck::BOOK.n, bottleneck::BOOK.seeds);
    let ranks: Vec<f64> = (1..=relation_n).map(|r| r as f64).collect();
    let widths = total_widths(bottleneck::BOOK);
    let wx: Vec<f64> = widths.iter().map(|&d| d as f64).collect();
    svg(COLUMN, 400, |root| {
        let panels = root.split_evenly((1, 2));
        let mut chart = axes(
            &panels[0],
            format!("one head of rank r, mean ± sd over {rank_seeds} seeds"),
            0.5f64..(relation_n as f64 + 0.5),
            0.0f64..1.0,
        )?;
        mesh(
            &mut chart,
            "rank r of the head's logits (its dₖ)",
            "pattern error (mean total variation)",
        )
        .disable_mesh()
        .draw()?;
        let curves = [
            (Task::PositionAndContent, 0, "previous token", 0, false),
            (Task::PositionAndContent, 1, "same attribute", 2, false),
            (
                Task::PositionAndContent,
                2,
                "task: previous + same",
                1,
                true,
            ),
            (Task::TwoContents, 2, "task: same a + same b", 3, true),
        ];
        for (task, rel, label, c, dashed) in curves {
            let s: Vec<Summary> = (1..=relation_n).map(|r| f.rank(task, rel, r)).collect();
            line_with_band(&mut chart, &ranks, &s, color(c), dashed, label)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;

        let mut chart = axes(
            &panels[1],
            "same total width: one wide head vs two narrow heads",
            1.0f64..(relation_n as f64 + 1.0),
            0.0f64..0.8,
        )?;
        mesh(
            &mut chart,
            "total width D (wide: one head of D; narrow: two heads of D/2)",
            "task pattern error (mean total variation)",
        )
        .disable_mesh()
        .draw()?;
        for (k, task) in Task::ALL.iter().enumerate() {
            let (wide, narrow): (Vec<Summary>, Vec<Summary>) =
                (0..widths.len()).map(|w| f.width(*task, w)).unzip();
            let c = color([1, 3][k]);
            line_with_band(
                &mut chart,
                &wx,
                &wide,
                c,
                false,
                &format!("{}: one wide", task.name()),
            )?;
            line_with_band(
                &mut chart,
                &wx,
                &narrow,
                c,
                true,
                &format!("{}: two narrow", task.name()),
            )?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    })
}

fn ablation() -> Result<String, DrawError> {
    let f = ablation::book();
    let random_heads = ablation::BOOK.random_heads;
    let full = Summary::of(&f.full);
    let names = [
        "all",
        "L1 prev",
        "L1 same",
        "L1 rnd",
        "L1 rnd",
        "L2 induct",
        "L2 rnd",
        "L2 rnd",
        "L2 rnd",
    ];
    let bars: Vec<Summary> = std::iter::once(full)
        .chain((0..2 * H).map(|k| f.without(k)))
        .collect();
    let chance = 1.0 / (V - 1) as f64;
    let shares = f.drop_shares();
    let mut model_sorted: Vec<f64> = shares.iter().map(|s| s.mean).collect();
    model_sorted.sort_by(|a, b| b.total_cmp(a));
    let random: Vec<Summary> = (0..random_heads)
        .map(|k| Summary::over(f.random_shares.iter().map(|s| s[k])))
        .collect();
    svg(COLUMN, 760, |root| {
        let panels = root.split_evenly((2, 1));
        let mut chart = axes(
            &panels[0],
            format!("induction accuracy, one head removed ({SEEDS} seeds)"),
            -0.5f64..(bars.len() as f64 - 0.5),
            0.0f64..1.1,
        )?;
        mesh(
            &mut chart,
            "head removed",
            "accuracy on the repeat, mean ± sd",
        )
        .disable_x_mesh()
        .x_labels(bars.len())
        .x_label_formatter(&|x| {
            say({
                names
                    .get(x.round() as usize)
                    .map(|s| s.to_string())
                    .unwrap_or_default()
            })
        })
        .draw()?;
        for (k, s) in bars.iter().enumerate() {
            let x = k as f64;
            let c = if k == 0 {
                color(6)
            } else if k <= H {
                color(0)
            } else {
                color(1)
            };
            chart.draw_series([Rectangle::new(
                [(x - 0.3, 0.0), (x + 0.3, s.mean)],
                c.filled(),
            )])?;
            chart.draw_series(error_bar(
                x,
                (s.mean - s.sd).max(0.0),
                (s.mean + s.sd).min(1.0),
                0.1,
                BLACK.stroke_width(1),
            ))?;
        }
        marked_line(
            &mut chart,
            (-0.5, chance),
            (bars.len() as f64 - 0.5, chance),
            BLACK.stroke_width(1),
            "chance",
            (7.3, chance + 0.07),
            11,
        )?;

        let mut chart = axes(
            &panels[1],
            "share of the total ablation effect, heads sorted",
            0.5f64..(2 * H) as f64 + 0.5,
            0.0f64..0.6,
        )?;
        mesh(
            &mut chart,
            "head rank (largest effect first)",
            "share of total effect",
        )
        .disable_mesh()
        .draw()?;
        let xs: Vec<f64> = (1..=random_heads).map(|k| k as f64).collect();
        line_with_band(
            &mut chart,
            &xs,
            &random,
            palette::RANDOM,
            false,
            "random layer, 8 heads: ‖Δ output‖",
        )?;
        let c = palette::TRAINED;
        chart
            .draw_series(LineSeries::new(
                model_sorted
                    .iter()
                    .enumerate()
                    .map(|(k, &s)| ((k + 1) as f64, s)),
                c.stroke_width(2),
            ))?
            .label(say("induction model, 8 heads: accuracy drop"))
            .legend(line_key(c, 2));
        chart.draw_series(
            model_sorted
                .iter()
                .enumerate()
                .map(|(k, &s)| Circle::new(((k + 1) as f64, s), 3, c.filled())),
        )?;
        let u = 1.0 / random_heads as f64;
        marked_line(
            &mut chart,
            (0.5, u),
            ((2 * H) as f64 + 0.5, u),
            BLACK.stroke_width(1),
            "equal shares 1/8",
            (5.5, u + 0.02),
            11,
        )?;
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    })
}

fn trained_split() -> Result<String, DrawError> {
    let f = split::book();
    let (splits, task, schedule) = (split::BOOK.splits, split::BOOK.task, split::BOOK.schedule);
    let train_seeds = split::BOOK.seeds;
    let chance = 1.0 / task.context as f64;
    // x = log2(heads): the splits 1, 2, 4, 8 sit evenly along the axis.
    let xs: Vec<f64> = splits.iter().map(|&(h, _)| (h as f64).log2()).collect();
    let sums: Vec<Summary> = (0..splits.len()).map(|k| f.trained(k)).collect();
    let c = color(0);
    svg(750, 420, |root| {
        let mut chart = axes(
            root,
            format!(
                "match task, total width 8, to a plateau (cap {}), {train_seeds} seeds",
                schedule.steps
            ),
            (xs[0] - 0.3)..(xs[xs.len() - 1] + 0.3),
            0.0f64..1.0,
        )?;
        mesh(
            &mut chart,
            "heads H × width per head dₖ (total width 8)",
            "test accuracy at the plateau",
        )
        .disable_mesh()
        .x_labels(splits.len())
        .x_label_formatter(&|x| {
            say({
                xs.iter()
                    .position(|&v| (v - x).abs() < 1e-9)
                    .map(|k| format!("{} × {}", splits[k].0, splits[k].1))
                    .unwrap_or_default()
            })
        })
        .draw()?;
        let seed = c.mix(0.35).filled();
        for (k, curves) in f.curves.iter().enumerate() {
            let dots = chart.draw_series(
                curves
                    .iter()
                    .map(|r| Circle::new((xs[k], r[r.len() - 1]), 3, seed)),
            )?;
            if k == 0 {
                dots.label(say("one seed"))
                    .legend(move |(x, y)| Circle::new((x + 7, y), 3, seed));
            }
        }
        for (&x, s) in xs.iter().zip(&sums) {
            chart.draw_series(error_bar(
                x,
                s.mean - s.sd,
                s.mean + s.sd,
                0.05,
                c.stroke_width(2),
            ))?;
        }
        let means: Vec<(f64, f64)> = xs.iter().zip(&sums).map(|(&x, s)| (x, s.mean)).collect();
        chart
            .draw_series(LineSeries::new(means.clone(), c.stroke_width(2)))?
            .label(say("mean ± sd over seeds"))
            .legend(line_key(c, 2));
        chart.draw_series(means.iter().map(|&p| Circle::new(p, 5, c.filled())))?;
        marked_line(
            &mut chart,
            (xs[0] - 0.3, chance),
            (xs[xs.len() - 1] + 0.3, chance),
            BLACK.stroke_width(1),
            "chance: one of the context labels at random",
            (xs[0] - 0.25, chance + 0.03),
            12,
        )?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        Ok(())
    })
}

fn specialisation() -> Result<String, DrawError> {
    let f = specialisation::book();
    let d = specialisation::BOOK.task.d;
    svg(560, 520, |root| {
        let mut chart = axes(
            root,
            format!(
                "two relations at once, {} seeds: where each head attends",
                specialisation::BOOK.seeds
            ),
            0f64..1.05f64,
            0f64..1.05f64,
        )?;
        mesh(
            &mut chart,
            "attention on the query's key q (match)",
            "attention on q + 1 (successor)",
        )
        .disable_mesh()
        .draw()?;
        marked_line(
            &mut chart,
            (0.0, 1.0),
            (1.0, 0.0),
            BLACK.stroke_width(1),
            "all attention on the two answers",
            (0.5, 0.56),
            11,
        )?;
        let points = |runs: &[specialisation::Trained]| -> Vec<(f64, f64)> {
            runs.iter()
                .flat_map(|t| t.mass.iter().map(|m| (m[0], m[1])))
                .collect()
        };
        let one = color(0);
        chart
            .draw_series(
                points(&f.one)
                    .into_iter()
                    .map(|p| TriangleMarker::new(p, 6, one.filled())),
            )?
            .label(say(format!("one head of width {d}")))
            .legend(move |(x, y)| TriangleMarker::new((x + 5, y), 6, one.filled()));
        let two = color(1);
        chart
            .draw_series(
                points(&f.two)
                    .into_iter()
                    .map(|p| Circle::new(p, 4, two.filled())),
            )?
            .label(say(format!("two heads of width {}", d / 2)))
            .legend(move |(x, y)| Circle::new((x + 5, y), 4, two.filled()));
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}
