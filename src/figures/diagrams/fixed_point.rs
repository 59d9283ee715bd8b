//! Chapter 5's diagram: the weight-tied input-injected layer iterated,
//! `Z_{k+1} = f(Z_k)`, each token closing in on its row of `Z*` while the
//! residual shrinks geometrically at the contraction rate `c`.

use nalgebra::{DMatrix, dmatrix};
use plotters::prelude::*;

use super::shapes::{Anchor, at, decimal, dot, label, plane};
use crate::attention::Head;
use crate::figures::style::{COLUMN, LABEL, SMALL, TITLE, say, span, svg, text, tick};
use crate::figures::{DrawError, Figure, palette};
use crate::fixed_point::{TiedLayer, Variant, residual, solve};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch05-idea-fixed-point",
    chapter: 5,
    about: "the input-injected layer iterated from Z_0 = X: the tokens spiral into Z*, the residual falls like c^k",
    draw,
}];

/// Iterations drawn.
const STEPS: usize = 24;

/// Three tokens in the plane.
fn tokens() -> DMatrix<f64> {
    dmatrix![1.2, 0.6; 0.4, 1.3; 0.9, -0.1]
}

/// A tied layer on the plane whose `W_V` turns by 45° and whose `η` (`gamma`) sets
/// the contraction `c = η ‖W_V‖₂`.
fn layer() -> TiedLayer {
    let (cos, sin) = (0.5f64.sqrt(), 0.5f64.sqrt());
    TiedLayer {
        head: Head {
            w_q: dmatrix![1.5, 0.3; -0.4, 1.2],
            w_k: dmatrix![1.1, -0.5; 0.6, 0.9],
            w_v: dmatrix![cos, sin; -sin, cos],
        },
        gamma: 0.85,
    }
}

fn draw() -> Result<String, DrawError> {
    let (x, layer) = (tokens(), layer());
    let zs = layer.iterate(Variant::Injected, &x, STEPS);
    let (star, _) = solve(&layer, Variant::Injected, &x, 1e-12, 500);
    let r: Vec<f64> = zs.windows(2).map(|w| residual(&w[1], &w[0])).collect();
    let c = layer.contraction();
    svg(COLUMN, 400, |root| {
        let (left, right) = root.split_horizontally(375);
        // the plane around every iterate
        let coordinate = |c: usize| {
            span(
                zs.iter()
                    .flat_map(|z| z.column(c).iter().cloned().collect::<Vec<_>>()),
                0.1,
            )
        };
        let (xs, ys) = (coordinate(0), coordinate(1));
        let centre = ((xs.start + xs.end) / 2.0, (ys.start + ys.end) / 2.0);
        let half = (xs.end - xs.start).max(ys.end - ys.start) / 2.0;
        let title = "Z_{k+1} = X + η A(X) Z_k W_V, Z_0 = X";
        let chart = plane(&left, title, centre, half)?;
        for i in 0..x.nrows() {
            let pts: Vec<_> = zs
                .iter()
                .map(|z| at(&chart, (z[(i, 0)], z[(i, 1)])))
                .collect();
            root.draw(&PathElement::new(
                pts.clone(),
                palette::INJECTED.stroke_width(2),
            ))?;
            for p in &pts {
                dot(root, *p, 3, palette::INJECTED)?;
            }
            dot(root, pts[0], 5, BLACK)?;
            let sub = ['₁', '₂', '₃'][i];
            label(
                root,
                (pts[0].0 + 8, pts[0].1 - 10),
                &format!("x{sub}"),
                SMALL,
                BLACK,
                Anchor::Left,
            )?;
            let s = at(&chart, (star[(i, 0)], star[(i, 1)]));
            root.draw(&Cross::new(s, 7, BLACK.stroke_width(3)))?;
            label(
                root,
                (s.0 + 10, s.1 + 12),
                &format!("z*{sub}"),
                SMALL,
                BLACK,
                Anchor::Left,
            )?;
        }
        let lo = r.iter().cloned().fold(f64::INFINITY, f64::min) * 0.5;
        let hi = r[0] * 2.0;
        let mut chart = ChartBuilder::on(&right)
            .caption(say("residual r_k = ‖f(Z_k) − Z_k‖ / ‖Z_k‖"), text(TITLE))
            .margin(10)
            .margin_right(22)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..STEPS as f64, (lo..hi).log_scale())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(say("iteration k"))
            .y_desc(say("r_k (log scale)"))
            .label_style(text(SMALL))
            .axis_desc_style(text(LABEL))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .draw()?;
        let ks = (0..r.len()).map(|k| k as f64);
        chart.draw_series(LineSeries::new(
            ks.clone().zip(r.iter().cloned()),
            palette::INJECTED.stroke_width(2),
        ))?;
        chart.draw_series(
            ks.clone()
                .zip(r.iter().cloned())
                .map(|p| Circle::new(p, 3, palette::INJECTED.filled())),
        )?;
        // the contraction's bound on the rate: r_0 c^k
        let bound = ks.map(|k| (k, r[0] * c.powf(k)));
        chart.draw_series(DashedLineSeries::new(bound, 6, 4, BLACK.stroke_width(1)))?;
        let note = format!("dashed: r_0 cᵏ, rate c = η ‖W_V‖₂ = {}", decimal(c, 2));
        let (x0, y0) = right.get_base_pixel();
        label(root, (x0 + 90, y0 + 60), &note, SMALL, BLACK, Anchor::Left)?;
        Ok(())
    })
}
