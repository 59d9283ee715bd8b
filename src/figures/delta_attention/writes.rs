//! Chapter 7's figures of what a write stores: the weights linear attention
//! and DeltaNet put on past tokens, and the retrieval error as pairs are
//! stored.

use plotters::prelude::*;

use crate::experiment::delta_attention::SEEDS;
use crate::experiment::delta_attention::capacity::{self, Write};
use crate::experiment::delta_attention::token_weights::{self, token_weights};
use crate::figures::DrawError;
use crate::figures::key::{self, Swatch};
use crate::figures::palette;
use crate::figures::style::{
    COLUMN, Shading, axes, band, color, heatmap, marked_line, mesh, say, span, svg, text,
};
use crate::stats::Summary;

pub fn token_weights_figure() -> Result<String, DrawError> {
    let setup = token_weights::BOOK;
    let w = token_weights(token_weights::Setup { t: 16, ..setup }, 0);
    let range = w.similarity.amax().max(w.delta.amax());
    let (mut s, mut d) = (Vec::new(), Vec::new());
    for seed in 0..setup.picture_seeds {
        let (a, b) = token_weights(setup, seed).pairs();
        s.extend(a);
        d.extend(b);
    }
    svg(COLUMN, 700, |root| {
        let (maps, scatter) = root.split_vertically(360);
        let panels = maps.split_evenly((1, 2));
        heatmap(
            &panels[0],
            &w.similarity,
            "linear attention: qₜ·kⱼ",
            Shading::Diverging(range),
            "j",
            "t",
        )?;
        heatmap(
            &panels[1],
            &w.delta,
            "DeltaNet: effective weight W[t, j]",
            Shading::Diverging(range),
            "j",
            "t",
        )?;
        let mut chart = axes(
            &scatter,
            format!("every causal pair, {} seeds", setup.picture_seeds),
            span(s.iter().cloned(), 0.05),
            span(d.iter().cloned(), 0.05),
        )?;
        mesh(&mut chart, "similarity qₜ·kⱼ", "DeltaNet weight wₜⱼ")
            .disable_mesh()
            .draw()?;
        let flip = |a: f64, b: f64| a.signum() != b.signum();
        chart.draw_series(s.iter().zip(&d).step_by(2).map(|(&a, &b)| {
            let c = if flip(a, b) { color(1) } else { color(6) };
            Circle::new((a, b), 1, c.mix(0.6).filled())
        }))?;
        chart.draw_series([Text::new(
            say("vermillion: opposite sign"),
            (s[0].min(-0.9), d.iter().cloned().fold(0.0, f64::max)),
            text(11),
        )])?;
        Ok(())
    })
}

pub fn capacity() -> Result<String, DrawError> {
    let f = capacity::book();
    let (capacity_d, capacity_n) = (capacity::BOOK.d, capacity::BOOK.pairs);
    let xs: Vec<f64> = capacity_n.iter().map(|&n| n as f64).collect();
    let top = f.at(Write::Additive, *capacity_n.last().unwrap_or(&1));
    let label = |w: &Write| match w {
        Write::Additive => "additive (linear attention)",
        Write::Delta => "delta rule, β = 1",
    };
    let colour = |i: usize| [palette::LINEAR, palette::DELTANET][i];
    let entries: Vec<(Swatch, &str)> = Write::ALL
        .iter()
        .enumerate()
        .map(|(i, w)| (Swatch::Line(colour(i)), label(w)))
        .collect();
    svg(COLUMN, 400 + key::height(entries.len(), 2), |root| {
        let (plot, strip) = root.split_vertically(400);
        key::key(&strip, &entries, 2, 60)?;
        let mut chart = axes(
            &plot,
            format!(
                "retrieval error after storing n pairs, dₖ = dᵥ = {capacity_d}, mean ± sd over {SEEDS} seeds"
            ),
            0f64..xs[xs.len() - 1] * 1.02,
            0f64..(top.mean + top.sd) * 1.05,
        )?;
        mesh(
            &mut chart,
            "stored key–value pairs n",
            "Σ‖Sᵀkᵢ − vᵢ‖² / Σ‖vᵢ‖²",
        )
        .disable_mesh()
        .draw()?;
        let k = capacity_d as f64;
        marked_line(
            &mut chart,
            (k, 0.0),
            (k, (top.mean + top.sd) * 1.05),
            BLACK.stroke_width(1),
            "n = dₖ",
            (k + 1.0, 0.1),
            12,
        )?;
        for (i, w) in Write::ALL.iter().enumerate() {
            let sums: Vec<Summary> = capacity_n.iter().map(|&n| f.at(*w, n)).collect();
            let lo: Vec<f64> = sums.iter().map(|s| s.mean - s.sd).collect();
            let hi: Vec<f64> = sums.iter().map(|s| s.mean + s.sd).collect();
            let c = colour(i);
            chart.draw_series([band(&xs, &lo, &hi, c)])?;
            chart.draw_series(LineSeries::new(
                xs.iter().zip(&sums).map(|(&x, s)| (x, s.mean)),
                c.stroke_width(2),
            ))?;
        }
        Ok(())
    })
}
