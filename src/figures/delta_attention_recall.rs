//! Figures of chapter 7's learned section: MQAR accuracy curves and the trained gates.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::palette;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{
    COLUMN, SMALL, TITLE, axes, band, color, line_key, marked_line, mesh, say, svg, text, tick,
};
use super::{DrawError, Figure};
use crate::experiment::delta_attention::recall::{Variant, book, curve, setup};
use crate::mixer::Mixer;

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch07-recall",
        chapter: 7,
        about: "MQAR accuracy of five trained mixers against stored pairs and against state size",
        draw: recall,
    },
    Figure {
        name: "ch07-recall-curves",
        chapter: 7,
        about: "held-out MQAR accuracy against training step, every run at the most pairs, with and without the layer variants",
        draw: curves,
    },
    Figure {
        name: "ch07-trained-gates",
        chapter: 7,
        about: "KDA's learned per-channel decay rates against Gated DeltaNet's one rate, and the learned β",
        draw: gates,
    },
];

/// A mixer's label in the legends.
fn label(m: Mixer) -> &'static str {
    crate::experiment::delta_attention::arm::title(m)
}

fn recall() -> Result<String, DrawError> {
    let (s, f) = (setup(), book());
    let entries = mixer_key();
    svg(COLUMN, 420 + key::height(entries.len(), 3), |root| {
        let (top, strip) = root.split_vertically(420);
        key::key(&strip, &entries, 3, 60)?;
        let panels = top.split_evenly((1, 2));
        let by_pairs: Vec<(usize, usize)> = s.pairs.iter().map(|&p| (p, s.state)).collect();
        let by_state: Vec<(usize, usize)> = s.states.iter().map(|&k| (s.fixed_pairs, k)).collect();
        let pair_xs: Vec<usize> = by_pairs.iter().map(|p| p.0).collect();
        let sweeps = [
            (
                by_pairs.clone(),
                pair_xs,
                format!("dₖ = dᵥ = {}: accuracy against stored pairs", s.state),
                "stored key–value pairs".to_string(),
                true,
            ),
            (
                by_state,
                s.states.clone(),
                format!("{} pairs: accuracy against state size", s.fixed_pairs),
                "dₖ = dᵥ (state dₖ × dᵥ)".to_string(),
                false,
            ),
        ];
        for (panel, (pts_at, xs, caption, x_desc, along_pairs)) in panels.iter().zip(sweeps) {
            let (lo, hi) = (xs[0] as f64, xs[xs.len() - 1] as f64);
            let mut chart = axes(panel, caption, (lo - 0.5)..(hi + 0.5), 0f64..1.05)?;
            mesh(
                &mut chart,
                x_desc,
                format!("query accuracy, mean ± sd over {} seeds", s.seeds),
            )
            .disable_mesh()
            .draw()?;
            let chance = 2.0 / s.vocab as f64;
            marked_line(
                &mut chart,
                (lo - 0.5, chance),
                (hi + 0.5, chance),
                BLACK.mix(0.5).stroke_width(1),
                "chance",
                (hi - 1.5, chance + 0.04),
                11,
            )?;
            for (m, mixer) in Mixer::ALL.into_iter().enumerate() {
                let pts = curve(f, Variant::Book, m, &pts_at, |(p, k)| match along_pairs {
                    true => p,
                    false => k,
                });
                let px: Vec<f64> = pts.iter().map(|p| p.0).collect();
                let low: Vec<f64> = pts.iter().map(|p| (p.1 - p.2).max(0.0)).collect();
                let high: Vec<f64> = pts.iter().map(|p| (p.1 + p.2).min(1.0)).collect();
                let c = color(m);
                chart.draw_series([band(&px, &low, &high, c)])?;
                chart
                    .draw_series(LineSeries::new(
                        pts.iter().map(|p| (p.0, p.1)),
                        c.stroke_width(2),
                    ))?
                    .label(say(label(mixer)))
                    .legend(line_key(c, 2));
                chart.draw_series(pts.iter().map(|p| Circle::new((p.0, p.1), 3, c.filled())))?;
            }
        }
        Ok(())
    })
}

/// A key of the five mixers in their colours.
fn mixer_key() -> Vec<(Swatch, &'static str)> {
    Mixer::ALL
        .into_iter()
        .map(|m| (Swatch::Line(palette::mixer(m)), label(m)))
        .collect()
}

/// Every run's held-out accuracy curve at the most pairs, as small
/// multiples: a row per mixer, a column per layer variant, every seed a thin
/// line in the mixer's colour, a cross where a run hit the cap.
fn curves() -> Result<String, DrawError> {
    let (s, f) = (setup(), book());
    let last = s.pairs[s.pairs.len() - 1];
    let mixers: Vec<usize> = (0..Mixer::ALL.len())
        .filter(|&m| Variant::ALL.iter().any(|v| v.mixers().contains(&m)))
        .collect();
    let (head, row) = (36, 150);
    svg(COLUMN, head + row * mixers.len() as u32, |root| {
        let (top, body) = root.split_vertically(head);
        let columns = top.split_evenly((1, Variant::ALL.len()));
        for (column, v) in columns.iter().zip(Variant::ALL) {
            let caption = match v {
                Variant::Book => "book layers",
                Variant::GatesNearOne => "gates initialised near 1",
                Variant::OutputNorm => "output RMSNorm",
            };
            let style = text(TITLE).pos(Pos::new(HPos::Center, VPos::Top));
            let (w, _) = column.dim_in_pixel();
            column.draw(&Text::new(
                say(format!("{caption}, {last} pairs")),
                (w as i32 / 2, 8),
                style,
            ))?;
        }
        let panels = body.split_evenly((mixers.len(), Variant::ALL.len()));
        for (i, &m) in mixers.iter().enumerate() {
            for (j, v) in Variant::ALL.into_iter().enumerate() {
                let panel = &panels[i * Variant::ALL.len() + j];
                if !v.mixers().contains(&m) {
                    // a variant that changes nothing in this mixer was not run
                    let (w, h) = panel.dim_in_pixel();
                    let style = text(SMALL).pos(Pos::new(HPos::Center, VPos::Center));
                    panel.draw(&Text::new(
                        say("not run"),
                        (w as i32 / 2, h as i32 / 2),
                        style,
                    ))?;
                    continue;
                }
                let mut chart = axes(
                    panel,
                    label(Mixer::ALL[m]),
                    0f64..s.schedule.steps as f64,
                    0f64..1.05,
                )?;
                let step = if i + 1 == mixers.len() {
                    "training step"
                } else {
                    ""
                };
                mesh(&mut chart, step, "accuracy")
                    .disable_mesh()
                    .x_labels(3)
                    .y_labels(3)
                    .draw()?;
                let c = palette::mixer(Mixer::ALL[m]);
                for run in f.at(v, m, last, s.state) {
                    let pts: Vec<(f64, f64)> =
                        run.curve.iter().map(|&(t, a)| (t as f64, a)).collect();
                    chart.draw_series(LineSeries::new(pts.clone(), c.stroke_width(1)))?;
                    if let (true, Some(&end)) = (run.stop.capped(), pts.last()) {
                        chart.draw_series([Cross::new(end, 4, c.stroke_width(2))])?;
                    }
                }
            }
        }
        Ok(())
    })
}

fn gates() -> Result<String, DrawError> {
    let (s, f) = (setup(), book());
    let kda = Mixer::ALL
        .iter()
        .position(|&m| m == Mixer::Kda)
        .unwrap_or(4);
    let gdn = Mixer::ALL
        .iter()
        .position(|&m| m == Mixer::GatedDeltaNet)
        .unwrap_or(3);
    let floor = 1e-5;
    let cg = color(gdn);
    // the key sits below the panels: the lines fill the left panel's corners
    let entries = [
        (Swatch::Line(color(kda)), "KDA trained"),
        (Swatch::Line(color(6)), "KDA at initialisation"),
        (Swatch::Line(cg), "Gated DeltaNet trained (one rate)"),
    ];
    svg(COLUMN, 420 + key::height(entries.len(), 2), |root| {
        let (top, strip) = root.split_vertically(420);
        key::key(&strip, &entries, 2, 60)?;
        let panels = top.split_evenly((1, 2));
        let mut chart = ChartBuilder::on(&panels[0])
            .caption(say("decay −g per channel, one line per seed"), text(15))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..(s.state as f64 - 0.5), (floor..30.0).log_scale())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(say("key channel, slowest to fastest"))
            .y_desc(say("−g  (per-step retention e^g)"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for (j, (trained, c)) in [(true, color(kda)), (false, color(6))]
            .into_iter()
            .enumerate()
        {
            for inside in f.inside(Variant::Book, kda) {
                let mut r = if trained {
                    inside.decay.clone()
                } else {
                    inside.decay_init.clone()
                };
                r.sort_by(f64::total_cmp);
                chart.draw_series(LineSeries::new(
                    r.iter().enumerate().map(|(i, &x)| (i as f64, x.max(floor))),
                    c.mix(if j == 0 { 0.9 } else { 0.5 }).stroke_width(2),
                ))?;
            }
        }
        for inside in f.inside(Variant::Book, gdn) {
            let r = inside.decay[0].max(floor);
            chart.draw_series([PathElement::new(
                vec![(-0.5, r), (s.state as f64 - 0.5, r)],
                cg.stroke_width(1),
            )])?;
        }
        let delta: Vec<usize> = (0..Mixer::ALL.len())
            .filter(|&m| Mixer::ALL[m].writes_delta())
            .collect();
        let mut bars = ChartBuilder::on(&panels[1])
            .caption(
                say("learned write strength β, mean ± sd over seeds"),
                text(15),
            )
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0f64..delta.len() as f64, 0f64..1.0)?;
        let names: Vec<&str> = delta.iter().map(|&m| label(Mixer::ALL[m])).collect();
        bars.configure_mesh()
            .disable_mesh()
            .x_labels(delta.len() * 2 + 1)
            .x_label_formatter(&|x| {
                say({
                    let i = x.floor() as usize;
                    if (x - x.floor() - 0.5).abs() < 0.3 {
                        names.get(i).map(|n| n.to_string()).unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
            })
            .y_desc(say("β"))
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for (i, &m) in delta.iter().enumerate() {
            let ins = f.inside(Variant::Book, m);
            let summary =
                |x: fn(&crate::experiment::delta_attention::recall::inside::Inside) -> f64| {
                    crate::stats::Summary::over(ins.iter().map(|i| x(i)))
                };
            let at = i as f64;
            super::style::bar(
                &mut bars,
                at + 0.3,
                0.15,
                summary(|x| x.beta_values),
                color(1),
            )?;
            super::style::bar(
                &mut bars,
                at + 0.7,
                0.15,
                summary(|x| x.beta_other),
                color(6),
            )?;
        }
        bars.draw_series([
            Text::new(
                say("vermillion: value positions (pairs written)"),
                (0.05, 0.97),
                text(11),
            ),
            Text::new(say("grey: every other position"), (0.05, 0.92), text(11)),
        ])?;
        Ok(())
    })
}
