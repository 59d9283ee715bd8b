//! Figures of chapter 3's section on the trained encoder (they read
//! [`crate::experiment::multi_head::trained::book`], never compute).

use nalgebra::DMatrix;
use plotters::prelude::*;

use super::key::{self, Swatch};
use super::style::{COLUMN, Shading, axes, color, heatmap, mesh, say, span, svg};
use super::{DrawError, Figure};
use crate::experiment::multi_head::trained::sinks::DEFAULT;
use crate::experiment::multi_head::trained::{book, importance};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::{HEADS, LAYERS};

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch03-minilm-self-repair",
        chapter: 3,
        about: "each head's direct effect against its total effect, trained vs random MiniLM, and which later sublayers do the compensating",
        draw: self_repair,
    },
    Figure {
        name: "ch03-minilm-heads",
        chapter: 3,
        about: "single-head importance and named patterns (sinks found from the data) per layer and head, and paraphrase retrieval and word sense as heads are pruned",
        draw: heads,
    },
];

fn self_repair() -> Result<String, DrawError> {
    let f = book();
    // two scatter panels, their key, the share bars
    svg(COLUMN, 800, |root| {
        let (top, rest) = root.split_vertically(360);
        let (strip, bottom) = rest.split_vertically(key::height(LAYERS + 1, 4));
        let panels = top.split_evenly((1, 2));
        for (p, model) in Model::BOTH.iter().enumerate() {
            let all = f.all(*model);
            let pts: Vec<(f64, f64)> = all.iter().map(|a| (a.direct, a.total)).collect();
            let top = pts.iter().map(|q| q.0.max(q.1.abs())).fold(0.0, f64::max) * 1.05;
            let mut chart = axes(
                &panels[p],
                format!("{} MiniLM: {} head ablations", model.name(), all.len()),
                0.0..top,
                span(pts.iter().map(|q| q.1).chain([0.0, top]), 0.03),
            )?;
            mesh(
                &mut chart,
                "direct effect's turn ‖(Δ_dir)⊥‖",
                "total effect along it",
            )
            .disable_mesh()
            .x_labels(4)
            .draw()?;
            chart.draw_series([PathElement::new(
                vec![(0.0, 0.0), (top, top)],
                BLACK.stroke_width(1),
            )])?;
            for l in 0..LAYERS {
                let c = color(l);
                chart.draw_series(
                    all.iter()
                        .filter(|a| a.layer == l)
                        .map(|a| Circle::new((a.direct, a.total), 2, c.filled())),
                )?;
            }
        }
        let layers: Vec<String> = (0..LAYERS).map(|l| format!("layer {l}")).collect();
        let entries: Vec<(Swatch, &str)> =
            std::iter::once((Swatch::Line(BLACK), "total = direct (no repair)"))
                .chain(
                    layers
                        .iter()
                        .enumerate()
                        .map(|(l, n)| (Swatch::Dot(color(l)), n.as_str())),
                )
                .collect();
        key::key(&strip, &entries, 4, 60)?;
        // mean share c_k of each later sublayer, trained, heads of layers 0–4
        let all: Vec<_> = f
            .all(Model::Trained)
            .into_iter()
            .filter(|a| a.layer + 1 < LAYERS)
            .collect();
        let shares: Vec<f64> = (0..2 * LAYERS)
            .map(|k| all.iter().map(|a| a.shares[k]).sum::<f64>() / all.len() as f64)
            .collect();
        let mut chart = axes(
            &bottom,
            "trained: who compensates (mean share c_k)",
            -0.5f64..(2 * LAYERS) as f64 - 0.5,
            span(shares.iter().cloned().chain([0.0]), 0.1),
        )?;
        mesh(
            &mut chart,
            "later sublayer (A = attention, F = FFN, of layer ℓ)",
            "share of the direct effect cancelled",
        )
        .disable_x_mesh()
        .x_labels(2 * LAYERS)
        .x_label_formatter(&|x| {
            say({
                let k = x.round() as usize;
                format!("{}{}", if k.is_multiple_of(2) { "A" } else { "F" }, k / 2)
            })
        })
        .draw()?;
        chart.draw_series(shares.iter().enumerate().map(|(k, &s)| {
            let x = k as f64;
            Rectangle::new([(x - 0.35, 0.0), (x + 0.35, s)], color(k % 2).filled())
        }))?;
        Ok(())
    })
}

fn heads() -> Result<String, DrawError> {
    let f = book();
    let imp = importance(&f.sides.trained);
    let grid = |v: &[f64]| DMatrix::from_fn(LAYERS, HEADS, |l, h| v[l * HEADS + h]);
    let p = &f.sides.trained.patterns;
    let kinds = f.sinks(Model::Trained, DEFAULT);
    let sink_title = format!(
        "sink weight; heads above {}: {}",
        DEFAULT.short(),
        ["CLS", "SEP", "punct.", "word"]
            .iter()
            .zip(kinds)
            .filter(|(_, c)| *c > 0)
            .map(|(k, c)| format!("{k} {c}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let curves = [
        "paraphrase top-1 accuracy",
        "paraphrase mean margin",
        "word-sense accuracy (chance 0.5)",
    ];
    let mut entries: Vec<(Swatch, &str)> = curves
        .iter()
        .enumerate()
        .map(|(k, label)| (Swatch::Line(color(k)), *label))
        .collect();
    entries.push((Swatch::Line(color(6)), "chance, paraphrase top-1"));
    svg(COLUMN, 900 + key::height(entries.len(), 2), |root| {
        let (figure, strip) = root.split_vertically(900);
        key::key(&strip, &entries, 2, 60)?;
        let (top, bottom) = figure.split_vertically(560);
        let cells = top.split_evenly((2, 2));
        let maps = [
            ("importance: mean 1 − cos", &imp),
            ("previous token: mean αᵢ,ᵢ₋₁", &p.previous),
            ("next token: mean αᵢ,ᵢ₊₁", &p.next),
            (sink_title.as_str(), &p.sink),
        ];
        for (k, (title, v)) in maps.iter().enumerate() {
            heatmap(
                &cells[k],
                &grid(v),
                title,
                Shading::Sequential(color(k.min(1))),
                "head",
                "layer",
            )?;
        }
        let pts: Vec<(f64, f64)> = f.pruning.iter().map(|(k, r)| (*k as f64, r.top1)).collect();
        let margin: Vec<(f64, f64)> = f
            .pruning
            .iter()
            .map(|(k, r)| (*k as f64, r.margin))
            .collect();
        let mut chart = axes(
            &bottom,
            format!(
                "trained MiniLM as heads are pruned, least important first: paraphrase retrieval ({} pairs) and word sense ({} trials)",
                f.setup.prune_pairs,
                4 * crate::experiment::multi_head::trained::senses::quads().len()
            ),
            -1.0f64..(LAYERS * HEADS) as f64 + 1.0,
            span(margin.iter().map(|q| q.1).chain([0.0, 1.05]), 0.03),
        )?;
        mesh(&mut chart, "heads removed", "top-1 accuracy, margin")
            .disable_mesh()
            .draw()?;
        let senses: Vec<(f64, f64)> = f
            .senses
            .iter()
            .map(|(k, s)| (*k as f64, s.accuracy))
            .collect();
        for (k, s) in [&pts, &margin, &senses].iter().enumerate() {
            let c = color(k);
            chart.draw_series(LineSeries::new(s.to_vec(), c.stroke_width(2)))?;
            chart.draw_series(s.iter().map(|&q| Circle::new(q, 3, c.filled())))?;
        }
        let chance = 1.0 / (2 * f.setup.prune_pairs - 1) as f64;
        chart.draw_series([PathElement::new(
            vec![(-1.0, chance), ((LAYERS * HEADS) as f64 + 1.0, chance)],
            color(6).stroke_width(1),
        )])?;
        Ok(())
    })
}
