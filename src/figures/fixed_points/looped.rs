//! Chapter 5's figures of the looped block: its residual against iteration,
//! and each prompt's residual at the trained depth against past it.

use super::*;
use crate::figures::style::say;

/// The lowest residual the looped figures draw (the null's iterates reach 0).
const LOOPED_FLOOR: f64 = 1e-4;

pub fn looped_residual() -> Result<String, DrawError> {
    use crate::experiment::fixed_points::looped::{self, Run};
    use crate::looped::Injection;
    let f = looped::book();
    let (k, h) = (f.setup.iterations, f.setup.horizon());
    let xs: Vec<f64> = (0..=h).map(|i| i as f64).collect();
    // median over seeds of each seed's median over prompts, and the seeds' range
    let stat = |runs: &[Run], read: fn(&Run) -> &[f64], q: f64| -> Vec<f64> {
        (0..=h)
            .map(|i| {
                let v: Vec<f64> = runs.iter().map(|r| read(r)[i]).collect();
                crate::stats::quantile(&v, q).max(LOOPED_FLOOR)
            })
            .collect()
    };
    // name, injection, the curve read from a run, colour, dashed
    type Series = (&'static str, Injection, fn(&Run) -> &[f64], RGBColor, bool);
    let series: [Series; 4] = [
        (
            "trained, injected",
            Injection::Input,
            |r| &r.trained.curve,
            palette::TRAINED,
            false,
        ),
        (
            "initialisation, injected",
            Injection::Input,
            |r| &r.init.curve,
            palette::RANDOM,
            false,
        ),
        (
            "shuffled-label null, injected",
            Injection::Input,
            |r| &r.null.curve,
            palette::INJECTED,
            false,
        ),
        (
            "trained, not injected",
            Injection::None,
            |r| &r.trained.curve,
            palette::TIED,
            true,
        ),
    ];
    let entries: Vec<(Swatch, &str)> = series
        .iter()
        .map(|&(name, _, _, col, dashed)| (Swatch::model(col, dashed), name))
        .collect();
    svg(COLUMN, 440 + key::height(entries.len(), 2), |root| {
        let (top, strip) = root.split_vertically(440);
        key::key(&strip, &entries, 2, 60)?;
        let mut chart = ChartBuilder::on(&top)
            .caption(
                say(format!(
                    "looped block, two-hop task: median and range over {} seeds",
                    f.setup.seeds
                )),
                text(TITLE),
            )
            .margin(10)
            .margin_right(22)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..h as f64, (LOOPED_FLOOR * 0.8..4f64).log_scale())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(say("iteration k"))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc(say("rₖ = ‖f(Zₖ; X) − Zₖ‖ / ‖Zₖ‖ (median over prompts)"))
            .y_label_formatter(&tick)
            .label_style(text(SMALL))
            .axis_desc_style(text(LABEL))
            .draw()?;
        for (_, inj, read, col, dashed) in series {
            let runs = f.under(inj);
            let (lo, mid, hi) = (
                stat(runs, read, 0.0),
                stat(runs, read, 0.5),
                stat(runs, read, 1.0),
            );
            let pts: Vec<(f64, f64)> = xs.iter().cloned().zip(mid).collect();
            if dashed {
                chart.draw_series(DashedLineSeries::new(pts, 6, 4, col.stroke_width(2)))?;
                continue;
            }
            chart.draw_series([band(&xs, &lo, &hi, col)])?;
            chart.draw_series(LineSeries::new(pts, col.stroke_width(2)))?;
        }
        let depth = k as f64;
        chart.draw_series([PathElement::new(
            vec![(depth, LOOPED_FLOOR * 0.8), (depth, 4.0)],
            BLACK.stroke_width(1),
        )])?;
        chart.draw_series([Text::new(
            say(format!("trained depth K = {k}")),
            (depth + 0.15, 2.5),
            text(SMALL),
        )])?;
        Ok(())
    })
}

pub fn looped_prompts() -> Result<String, DrawError> {
    use crate::experiment::fixed_points::looped;
    use crate::looped::Injection;
    let f = looped::book();
    // the first prompts of every seed, so that the points stay few
    let shown = 40;
    let runs = f.under(Injection::Input);
    let (lo, hi) = (LOOPED_FLOOR, 4.0);
    let clamp = |v: f64| v.clamp(lo, hi);
    svg(COLUMN, 520, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                say(format!(
                    "each prompt's residual, past the trained depth against at it ({shown} prompts × {} seeds)",
                    f.setup.seeds
                )),
                text(TITLE),
            )
            .margin(10)
            .margin_right(22)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((lo * 0.8..hi).log_scale(), (lo * 0.8..hi).log_scale())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(say(format!(
                "r at the trained depth K = {}",
                f.setup.iterations
            )))
            .y_desc(say(format!("r at 4K = {}", f.setup.horizon())))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .label_style(text(SMALL))
            .axis_desc_style(text(LABEL))
            .draw()?;
        chart.draw_series([PathElement::new(
            vec![(lo, lo), (hi, hi)],
            BLACK.stroke_width(1),
        )])?;
        // each point with whether an axis clipped it (drawn at the edge, marked)
        let points = |arm: fn(&looped::Run) -> &looped::Reading, want: Option<bool>| {
            runs.iter()
                .flat_map(move |r| {
                    let read = arm(r);
                    (0..shown.min(read.past.len()))
                        .filter(move |&i| want.is_none_or(|w| read.correct[i] == w))
                        .map(move |i| {
                            let (x, y) = (read.at_depth[i], read.past[i]);
                            ((clamp(x), clamp(y)), clamp(x) != x || clamp(y) != y)
                        })
                })
                .collect::<Vec<_>>()
        };
        // each set once: initialisation, trained and answered, trained and missed
        let (init, hit, miss) = (
            points(|r| &r.init, None),
            points(|r| &r.trained, Some(true)),
            points(|r| &r.trained, Some(false)),
        );
        let clipped: Vec<(f64, f64)> = [&init, &hit, &miss]
            .into_iter()
            .flatten()
            .filter_map(|&(p, c)| c.then_some(p))
            .collect();
        let inside =
            |v: &[((f64, f64), bool)]| v.iter().filter(|p| !p.1).map(|p| p.0).collect::<Vec<_>>();
        let grey = palette::RANDOM;
        chart
            .draw_series(
                inside(&init)
                    .into_iter()
                    .map(|p| Circle::new(p, 2, grey.mix(0.6).filled())),
            )?
            .label(say("initialisation"))
            .legend(move |(x, y)| Circle::new((x + 7, y), 3, grey.filled()));
        let blue = palette::TRAINED;
        chart
            .draw_series(
                inside(&hit)
                    .into_iter()
                    .map(|p| Circle::new(p, 3, blue.filled())),
            )?
            .label(say("trained, answered at K"))
            .legend(move |(x, y)| Circle::new((x + 7, y), 3, blue.filled()));
        // a miss is the trained model's too: its colour, as a ring on white
        chart.draw_series(
            inside(&miss)
                .into_iter()
                .map(|p| Circle::new(p, 5, WHITE.filled())),
        )?;
        chart
            .draw_series(
                inside(&miss)
                    .into_iter()
                    .map(|p| Circle::new(p, 5, blue.stroke_width(2))),
            )?
            .label(say("trained, missed at K"))
            .legend(move |(x, y)| Circle::new((x + 7, y), 5, blue.stroke_width(2)));
        if !clipped.is_empty() {
            let n = clipped.len();
            chart
                .draw_series(
                    clipped
                        .into_iter()
                        .map(|p| TriangleMarker::new(p, 5, BLACK.stroke_width(1))),
                )?
                .label(say(format!("{n} beyond an axis: drawn at its edge")))
                .legend(|(x, y)| TriangleMarker::new((x + 7, y), 5, BLACK.stroke_width(1)));
        }
        chart.draw_series([Text::new(say("r(4K) = r(K)"), (1.5e-3, 3e-3), text(SMALL))])?;
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}
