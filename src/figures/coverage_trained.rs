//! Figures of chapter 2's section on the trained encoder (they read
//! [`crate::experiment::coverage::trained::book`], never compute).

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::palette;
use super::style::{
    COLUMN, Chart, axes, band, bar, color, legend, line_key, mesh, model_curve, say, svg,
};
use super::{DrawError, Figure};
use crate::experiment::coverage::sensitivity::{Effect, Keys};
use crate::experiment::coverage::trained::{EPSILONS, HeadStats, book};
use crate::experiment::coverage::trained_report::{by_sentence, effects, short};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::{HEADS, LAYERS};

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch02-minilm-attribution",
        chapter: 2,
        about: "trained vs random MiniLM per layer: rank agreement of weight, carried norm and leave-one-out; weight and norm share of [CLS], [SEP], punctuation",
        draw: attribution,
    },
    Figure {
        name: "ch02-minilm-counterfactuals",
        chapter: 2,
        about: "trained MiniLM: the norm's lead over the weight, ρ(‖αf‖, ℰ) − ρ(α, ℰ), and over the same norms permuted across keys, under each counterfactual and target, with and without each head's sink",
        draw: counterfactuals,
    },
    Figure {
        name: "ch02-minilm-locality",
        chapter: 2,
        about: "error of one layer's first-order prediction against the actual change, by perturbation size, trained vs random",
        draw: locality,
    },
];

type Field = fn(&HeadStats) -> f64;

/// Axes over the layers (integer ticks) and `lo..1.05`.
fn layer_axes<'a, 'b>(
    area: &'a super::style::Canvas<'b>,
    title: &str,
    y: &str,
    lo: f64,
) -> Result<Chart<'a, 'b>, DrawError> {
    let mut chart = axes(area, title, -0.5f64..(LAYERS as f64 - 0.5), lo..1.05)?;
    mesh(&mut chart, "layer", y)
        .disable_x_mesh()
        .x_labels(LAYERS)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    Ok(chart)
}

fn attribution() -> Result<String, DrawError> {
    let f = book();
    let series: [(&str, Field); 3] = [
        ("ρ(α, leave-one-out)", |s| s.rho[1]),
        ("ρ(‖αf‖, leave-one-out)", |s| s.rho[2]),
        ("ρ(α, ‖αf‖)", |s| s.rho[0]),
    ];
    // two bar panels, their key, the share panel, its key
    svg(COLUMN, 780, |root| {
        let (bars, rest) = root.split_vertically(340);
        let (bar_key, rest) = rest.split_vertically(key::height(3, 3));
        let (share, share_key) = rest.split_vertically(356);
        let panels = bars.split_evenly((1, 2));
        for (p, model) in Model::BOTH.iter().enumerate() {
            let title = format!("{} MiniLM", model.name());
            let mut chart = layer_axes(&panels[p], &title, "Spearman ρ over keys", 0.0)?;
            for (k, (_, field)) in series.iter().enumerate() {
                for l in 0..LAYERS {
                    let x = l as f64 + (k as f64 - 1.0) * 0.27;
                    bar(
                        &mut chart,
                        x,
                        0.12,
                        f.summary(*model, Some(l), *field),
                        color(k),
                    )?;
                }
            }
        }
        let entries: Vec<(Swatch, &str)> = series
            .iter()
            .enumerate()
            .map(|(k, (label, _))| (Swatch::Square(color(k)), *label))
            .collect();
        key::key(&bar_key, &entries, 3, 60)?;
        let mut chart = layer_axes(
            &share,
            "[CLS], [SEP], punctuation: share received",
            "share",
            0.0,
        )?;
        let shares: [(&str, Field); 2] = [
            ("weight", |s| s.special_weight),
            ("carried norm", |s| s.special_norm),
        ];
        let tokens = f.summary(Model::Trained, None, |s| s.special_tokens).mean;
        chart.draw_series([PathElement::new(
            vec![(-0.5, tokens), (LAYERS as f64 - 0.5, tokens)],
            BLACK.stroke_width(1),
        )])?;
        // colour by what is shared, dashes for the random weights (key::models),
        // over the tokens' share they sit near
        for model in Model::BOTH {
            for (k, (_, field)) in shares.iter().enumerate() {
                let pts: Vec<(f64, f64)> = (0..LAYERS)
                    .map(|l| (l as f64, f.summary(model, Some(l), *field).mean))
                    .collect();
                model_curve(&mut chart, pts, color(k), model == Model::Random)?;
            }
        }
        let whats: Vec<&str> = shares.iter().map(|(w, _)| *w).collect();
        let owned = key::models(&whats);
        let mut entries = key::borrowed(&owned);
        entries.push((Swatch::Line(BLACK), "their share of tokens"));
        key::key(&share_key, &entries, 3, 60)?;
        Ok(())
    })
}

fn locality() -> Result<String, DrawError> {
    let f = book();
    let xs: Vec<f64> = EPSILONS.iter().map(|e| e.log10()).collect();
    svg(620, 420, |root| {
        let mut chart = axes(
            root,
            format!(
                "one layer's first-order error, {} sentences × {LAYERS} layers, mean ± sd",
                f.setup.local
            ),
            -3.2f64..0.2,
            -3.5f64..0.3,
        )?;
        mesh(
            &mut chart,
            "log₁₀ ε (perturbation εz, ‖z‖ = ‖x‖)",
            "log₁₀ ‖F(x+εz) − F(x) − εJz‖ / ‖F(x+εz) − F(x)‖",
        )
        .disable_mesh()
        .draw()?;
        for (m, model) in Model::BOTH.iter().enumerate() {
            let c = palette::MODELS[m];
            let s: Vec<_> = (0..EPSILONS.len())
                .map(|k| f.error(*model, None, k))
                .collect();
            let lo: Vec<f64> = s
                .iter()
                .map(|s| (s.mean - s.sd).max(1e-4).log10())
                .collect();
            let hi: Vec<f64> = s.iter().map(|s| (s.mean + s.sd).log10()).collect();
            chart.draw_series([band(&xs, &lo, &hi, c)])?;
            let pts: Vec<(f64, f64)> = xs
                .iter()
                .zip(&s)
                .map(|(&x, s)| (x, s.mean.log10()))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))?
                .label(say(format!("{} MiniLM", model.name())))
                .legend(line_key(c, 2));
            chart.draw_series(pts.iter().map(|&q| Circle::new(q, 3, c.filled())))?;
        }
        chart
            .draw_series([PathElement::new(
                vec![(-3.2, -3.2), (0.2, 0.2)],
                BLACK.stroke_width(1),
            )])?
            .label(say("error = ε"))
            .legend(line_key(BLACK, 1));
        legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        Ok(())
    })
}

/// Short label of an effect on the x axis (the caption spells them out).
fn label(e: Effect) -> String {
    let (cf, target) = short(e);
    let cf = match cf {
        "knockout" => "KO",
        "mean-value" => "MV",
        "value zeroing" => "VZ",
        _ => "VZ*",
    };
    format!("{cf}·{}", &target[..1])
}

/// A series of bars: its label, what it reads of a cell
/// `[ρ(α, E), ρ(‖αf‖, E), ρ(α‖f_π‖, E)]`, its colour.
type Series = (&'static str, fn([f64; 3]) -> f64, RGBColor);

fn counterfactuals() -> Result<String, DrawError> {
    let heads = &book().side(Model::Trained).heads;
    let per = LAYERS * HEADS;
    let list = effects();
    let series: [Series; 2] = [
        ("ρ(‖αf‖, ℰ) − ρ(α, ℰ)", |[w, n, _]| n - w, palette::TRAINED),
        (
            "ρ(‖αf‖, ℰ) − ρ(α‖f_π‖, ℰ)",
            |[_, n, p]| n - p,
            palette::RANDOM,
        ),
    ];
    let right = list.len() as f64 - 0.5;
    let entries: Vec<(Swatch, &str)> = series
        .iter()
        .map(|(name, _, c)| (Swatch::Square(*c), *name))
        .collect();
    svg(750, 360 + key::height(entries.len(), 2), |root| {
        let (top, strip) = root.split_vertically(360);
        key::key(&strip, &entries, 2, 60)?;
        let panels = top.split_evenly((1, 2));
        for (p, keys) in Keys::ALL.iter().enumerate() {
            let title = match keys {
                Keys::All => "every key ranked",
                _ => "each head's sink left out",
            };
            let mut chart = axes(&panels[p], title, -0.5f64..right, -0.3f64..0.6)?;
            mesh(&mut chart, "counterfactual · target", "gap in mean ρ")
                .disable_x_mesh()
                .x_labels(list.len())
                .x_label_formatter(&|x| {
                    say({
                        let k = x.round().clamp(0.0, right) as usize;
                        label(list[k])
                    })
                })
                .draw()?;
            chart.draw_series([PathElement::new(
                vec![(-0.5, 0.0), (right, 0.0)],
                BLACK.stroke_width(1),
            )])?;
            for (m, (_, g, c)) in series.iter().enumerate() {
                for (i, e) in list.iter().enumerate() {
                    let x = i as f64 + (m as f64 - 0.5) * 0.36;
                    bar(
                        &mut chart,
                        x,
                        0.16,
                        by_sentence(heads, per, *g, *e, *keys),
                        *c,
                    )?;
                }
            }
        }
        Ok(())
    })
}
