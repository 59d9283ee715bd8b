//! Figures of chapter 2: mathematical and physical coverage.

use plotters::prelude::*;

use super::key::{self, Swatch};
use super::style::{
    COLUMN, Shading, axes, band, bar, box_key, color, error_bar, heatmap, legend, line_key, mesh,
    say, span, svg,
};
use super::{DrawError, Figure};
use crate::experiment::coverage::attribution::{
    self, TrialField, attribution_pairs, equivalent_example,
};
use crate::experiment::coverage::drift::{self, epsilons};
use crate::experiment::coverage::head::{BOOK, SMALL, Tokens};
use crate::experiment::coverage::pieces::{self, net_name};
use crate::experiment::coverage::{SEEDS, prompts::two_prompts};
use crate::stats::{Summary, quantile};

pub const FIGURES: &[Figure] = &[
    Figure {
        name: "ch02-linear-pieces",
        chapter: 2,
        about: "the linear pieces of two ReLU networks on the plane, and piece counts over seeds",
        draw: linear_pieces,
    },
    Figure {
        name: "ch02-physical-coverage",
        chapter: 2,
        about: "one head, fixed weights, two prompts: attention pattern and Jacobian influence of each pass",
        draw: physical_coverage,
    },
    Figure {
        name: "ch02-jacobian-drift",
        chapter: 2,
        about: "how the local linear map changes with a small input change: ReLU network vs attention head",
        draw: jacobian_drift,
    },
    Figure {
        name: "ch02-attribution",
        chapter: 2,
        about: "attention weight vs carried norm vs leave-one-out effect: scatter and rank correlations over seeds",
        draw: attribution,
    },
    Figure {
        name: "ch02-equivalent-patterns",
        chapter: 2,
        about: "two different attention distributions over the same tokens with the same output",
        draw: equivalent_patterns,
    },
];

fn piece_color(label: usize) -> RGBColor {
    // golden-ratio hues, pale enough for black boundaries to read
    let h = (label as f64 * 0.618_033_988_75).fract();
    let rgb = HSLColor(h, 0.55, 0.72).to_rgba();
    RGBColor(rgb.0, rgb.1, rgb.2)
}

fn linear_pieces() -> Result<String, DrawError> {
    let f = pieces::book();
    let setup = pieces::BOOK;
    let (nets, piece_seeds, lattice) = (setup.nets, setup.seeds, setup.grid);
    let shown = [1usize, 3];
    let grid = 96;
    svg(COLUMN, 680, |root| {
        let (maps, bars) = root.split_vertically(370);
        let panels = maps.split_evenly((1, 2));
        for (area, &k) in panels.iter().zip(&shown) {
            let p = pieces::pieces(pieces::Setup { grid, ..setup }, nets[k], 0);
            let step = (p.hi - p.lo) / (grid - 1) as f64;
            let mut chart = axes(
                area,
                format!("[2, {}, 1]: {} pieces (seed 0)", net_name(nets[k]), p.count),
                p.lo - step / 2.0..p.hi + step / 2.0,
                p.lo - step / 2.0..p.hi + step / 2.0,
            )?;
            mesh(&mut chart, "input x₁", "input x₂")
                .disable_mesh()
                .draw()?;
            // one rectangle per run of equal labels along a lattice row
            let mut runs = Vec::new();
            for r in 0..grid {
                let mut c0 = 0;
                for c in 1..=grid {
                    if c == grid || p.labels[r * grid + c] != p.labels[r * grid + c0] {
                        let (x0, x1) = (
                            p.lo + (c0 as f64 - 0.5) * step,
                            p.lo + (c as f64 - 0.5) * step,
                        );
                        let y = p.lo + r as f64 * step;
                        runs.push(Rectangle::new(
                            [(x0, y - step / 2.0), (x1, y + step / 2.0)],
                            piece_color(p.labels[r * grid + c0]).filled(),
                        ));
                        c0 = c;
                    }
                }
            }
            chart.draw_series(runs)?;
        }
        let counts: Vec<Summary> = (0..nets.len()).map(|k| f.count(k)).collect();
        let top = counts.iter().map(|s| s.mean + s.sd).fold(0.0, f64::max) * 1.1;
        let mut chart = axes(
            &bars,
            format!("pieces in [-3, 3]², mean ± sd, {piece_seeds} seeds"),
            -0.5f64..(nets.len() as f64 - 0.5),
            0.0..top,
        )?;
        mesh(
            &mut chart,
            "hidden widths",
            format!("linear pieces ({lattice}×{lattice} lattice)"),
        )
        .disable_x_mesh()
        .x_labels(nets.len())
        .x_label_formatter(&|x| {
            say({
                nets.get(x.round() as usize)
                    .map(|h| net_name(h))
                    .unwrap_or_default()
            })
        })
        .draw()?;
        for (k, s) in counts.iter().enumerate() {
            let x = k as f64;
            bar(&mut chart, x, 0.3, *s, color(k))?;
        }
        Ok(())
    })
}

fn physical_coverage() -> Result<String, DrawError> {
    let t = two_prompts(SMALL, 0);
    svg(COLUMN, 700, |root| {
        let cells = root.split_evenly((2, 2));
        for p in 0..2 {
            let name = ["prompt A", "prompt B"][p];
            heatmap(
                &cells[p],
                &t.weights[p],
                &format!("{name}: attention αᵢⱼ"),
                Shading::Sequential(color(0)),
                "key j",
                "query i",
            )?;
            heatmap(
                &cells[2 + p],
                &t.influence[p],
                &format!("{name}: ‖∂oᵢ/∂xₘ‖"),
                Shading::Sequential(color(1)),
                "input token m",
                "output i",
            )?;
        }
        Ok(())
    })
}

fn jacobian_drift() -> Result<String, DrawError> {
    let f = drift::book();
    let eps = epsilons();
    let xs: Vec<f64> = eps.iter().map(|e| e.log10()).collect();
    let changed: Vec<(f64, f64)> = (0..eps.len()).map(|e| f.changed(e)).collect();
    // (lower quartile, median, upper quartile) of log₁₀ of the change, floored at 10⁻⁶
    let log_quartiles = |runs: &Vec<Vec<f64>>, e: usize| {
        let v: Vec<f64> = runs.iter().map(|r| r[e].max(1e-6).log10()).collect();
        (quantile(&v, 0.25), quantile(&v, 0.5), quantile(&v, 0.75))
    };
    svg(COLUMN, 380, |root| {
        let panels = root.split_evenly((1, 2));
        let mut chart = axes(
            &panels[0],
            format!("seeds whose local linear map changed ({SEEDS} seeds)"),
            -3.1f64..0.1,
            0.0f64..1.05,
        )?;
        mesh(
            &mut chart,
            "log₁₀ ε (input moved by ε·z)",
            "fraction of seeds with J(x + εz) ≠ J(x)",
        )
        .disable_mesh()
        .draw()?;
        for (k, label) in ["ReLU net [2, 16, 16, 1]", "attention head"]
            .iter()
            .enumerate()
        {
            let c = color(k);
            let pts: Vec<(f64, f64)> = xs
                .iter()
                .zip(&changed)
                .map(|(&x, ch)| (x, if k == 0 { ch.0 } else { ch.1 }))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))?
                .label(say(*label))
                .legend(line_key(c, 2));
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
        }
        // under the attention head's line, left of the ReLU curve
        legend(&mut chart, SeriesLabelPosition::Coordinate(12, 50))?;

        let runs = [&f.relu, &f.head];
        let sums: Vec<Vec<(f64, f64, f64)>> = runs
            .iter()
            .map(|r| (0..eps.len()).map(|e| log_quartiles(r, e)).collect())
            .collect();
        let ys = sums.iter().flatten().flat_map(|s| [s.0, s.2]);
        let mut chart = axes(
            &panels[1],
            "relative change ‖J(x + εz) − J(x)‖ / ‖J(x)‖",
            -3.1f64..0.1,
            span(ys, 0.05),
        )?;
        mesh(
            &mut chart,
            "log₁₀ ε",
            "log₁₀ relative change (floor 10⁻⁶): median, quartiles",
        )
        .disable_mesh()
        .draw()?;
        for (k, s) in sums.iter().enumerate() {
            let c = color(k);
            let lo: Vec<f64> = s.iter().map(|v| v.0).collect();
            let hi: Vec<f64> = s.iter().map(|v| v.2).collect();
            chart.draw_series([band(&xs, &lo, &hi, c)])?;
            chart.draw_series(LineSeries::new(
                xs.iter().zip(s).map(|(&x, v)| (x, v.1)),
                c.stroke_width(2),
            ))?;
        }
        Ok(())
    })
}

fn attribution() -> Result<String, DrawError> {
    let f = attribution::book();
    let (w, _, loo) = attribution_pairs(BOOK, Tokens::Varied, 0);
    let metrics: [(&str, TrialField); 4] = [
        ("ρ(α, ‖αv‖)", |t| t.weight_norm),
        ("ρ(α, LOO)", |t| t.weight_loo),
        ("ρ(‖αv‖, LOO)", |t| t.norm_loo),
        ("same top", |t| t.top_agree),
    ];
    svg(COLUMN, 400 + key::height(2, 2), |root| {
        let (top, strip) = root.split_vertically(400);
        let panels = top.split_evenly((1, 2));
        let mut chart = axes(
            &panels[0],
            "one head, varied token norms (seed 0): every pair (i, j)",
            span(w.iter().cloned(), 0.03),
            span(loo.iter().cloned(), 0.03),
        )?;
        mesh(
            &mut chart,
            "attention weight αᵢⱼ",
            "leave-one-out effect ‖oᵢ − oᵢ⁽⁻ʲ⁾‖",
        )
        .disable_mesh()
        .draw()?;
        chart.draw_series(
            w.iter()
                .zip(&loo)
                .map(|(&a, &b)| Circle::new((a, b), 2, color(0).mix(0.5).filled())),
        )?;

        let mut chart = axes(
            &panels[1],
            format!(
                "mean ± sd over {SEEDS} seeds (n = {}, dᵥ = {})",
                BOOK.n, BOOK.d_head
            ),
            -0.5f64..3.5,
            0.0f64..1.1,
        )?;
        mesh(&mut chart, "", "rank correlation over keys / agreement")
            .disable_x_mesh()
            .x_labels(4)
            .x_label_formatter(&|x| {
                say({
                    metrics
                        .get(x.round() as usize)
                        .map(|m| m.0.to_string())
                        .unwrap_or_default()
                })
            })
            .draw()?;
        for (ti, tokens) in Tokens::ALL.iter().enumerate() {
            for (mi, (_, field)) in metrics.iter().enumerate() {
                let s = f.summary(*tokens, *field);
                let x = mi as f64 + ti as f64 * 0.3 - 0.15;
                chart.draw_series([Rectangle::new(
                    [(x - 0.13, 0.0), (x + 0.13, s.mean)],
                    color(ti).filled(),
                )])?;
                chart.draw_series(error_bar(
                    x,
                    s.mean - s.sd,
                    (s.mean + s.sd).min(1.0),
                    0.05,
                    BLACK.stroke_width(1),
                ))?;
            }
        }
        let names: Vec<String> = Tokens::ALL
            .iter()
            .map(|t| format!("{} tokens", t.name()))
            .collect();
        let entries: Vec<(Swatch, &str)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (Swatch::Square(color(i)), n.as_str()))
            .collect();
        key::key(&strip, &entries, 2, 60)?;
        Ok(())
    })
}

fn equivalent_patterns() -> Result<String, DrawError> {
    let (a, b, oa, ob) = equivalent_example(BOOK, 0, 0);
    let n = a.len();
    let top = a.iter().chain(&b).cloned().fold(0.0, f64::max) * 1.15;
    svg(COLUMN, 380, |root| {
        let panels = root.split_evenly((1, 2));
        let mut chart = axes(
            &panels[0],
            "query 0 of seed 0: two attention distributions",
            -0.5f64..(n as f64 - 0.5),
            0.0..top,
        )?;
        mesh(&mut chart, "key j", "weight")
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        for (k, (ws, label)) in [(&a, "α (the head's pattern)"), (&b, "α' = α + tδ, Vᵀδ = 0")]
            .iter()
            .enumerate()
        {
            let c = color(k);
            chart
                .draw_series(ws.iter().enumerate().map(|(j, &w)| {
                    let x = j as f64 + k as f64 * 0.38 - 0.19;
                    Rectangle::new([(x - 0.18, 0.0), (x + 0.18, w)], c.filled())
                }))?
                .label(say(*label))
                .legend(box_key(c));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;

        let d_v = oa.len();
        let mut chart = axes(
            &panels[1],
            "their outputs αᵀV and α'ᵀV",
            -0.5f64..(d_v as f64 - 0.5),
            span(oa.iter().chain(&ob).cloned().chain([0.0]), 0.15),
        )?;
        mesh(&mut chart, "output coordinate", "value")
            .disable_x_mesh()
            .x_labels(d_v)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        for (k, os) in [&oa, &ob].iter().enumerate() {
            chart.draw_series(os.iter().enumerate().map(|(j, &o)| {
                let x = j as f64 + k as f64 * 0.3 - 0.15;
                Rectangle::new([(x - 0.14, 0.0), (x + 0.14, o)], color(k).filled())
            }))?;
        }
        Ok(())
    })
}
