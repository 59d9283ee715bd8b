//! Chapter 1's diagram: the same tokens in the three coordinate systems of
//! `W_Q`, `W_K` and `W_V`.

use nalgebra::{DMatrix, dmatrix};
use plotters::prelude::*;

use super::shapes::{Anchor, arrow, at, decimal, dot, label, plane};
use crate::attention::{Head, scores};
use crate::figures::style::{COLUMN, Canvas, LABEL, SMALL, svg};
use crate::figures::{DrawError, Figure, palette};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch01-idea-coordinates",
    chapter: 1,
    about: "four tokens and the frames W_Q, W_K and W_V move them into: q_i·k_j is not x_i·x_j",
    draw,
}];

/// Four tokens in the plane, one per row.
pub fn tokens() -> DMatrix<f64> {
    dmatrix![0.9, -0.5; 0.6, 0.9; -0.9, 0.4; -0.4, -0.9]
}

/// A head on the plane whose three projections differ visibly.
pub fn head() -> Head {
    Head {
        w_q: dmatrix![1.0, 0.5; -0.6, 0.9],
        w_k: dmatrix![0.3, -1.0; 1.1, 0.2],
        w_v: dmatrix![0.8, 0.3; 0.2, -0.7],
    }
}

/// One coordinate system: a projection `w`, the names of its basis
/// vectors, the tokens it holds (already projected), their letter.
struct Frame<'a> {
    title: &'a str,
    w: &'a DMatrix<f64>,
    basis: [&'a str; 2],
    points: &'a DMatrix<f64>,
    name: &'a str,
    colour: RGBColor,
}

/// Draw `f` on `area`: the token plane's grid and basis mapped by `f.w`,
/// and the tokens, named with subscripts 1, 2, …
fn frame(root: &Canvas, area: &Canvas, f: Frame) -> Result<(), DrawError> {
    let Frame {
        title,
        w,
        basis,
        points,
        name,
        colour: c,
    } = f;
    let mut chart = plane(area, title, (0.0, 0.0), 1.45)?;
    let map = |x: f64, y: f64| (x * w[(0, 0)] + y * w[(1, 0)], x * w[(0, 1)] + y * w[(1, 1)]);
    // the lines x₁ = s and x₂ = s of the token plane, as the frame sees them
    let steps: Vec<f64> = (-4..=4).map(|s| s as f64 * 0.25).collect();
    let (lo, hi) = (-1.0, 1.0);
    let grid = steps.iter().flat_map(|&s| {
        [
            PathElement::new(vec![map(s, lo), map(s, hi)], c.mix(0.25).stroke_width(1)),
            PathElement::new(vec![map(lo, s), map(hi, s)], c.mix(0.25).stroke_width(1)),
        ]
    });
    chart.draw_series(grid)?;
    let origin = at(&chart, (0.0, 0.0));
    let tips = [map(1.0, 0.0), map(0.0, 1.0)];
    for (i, (tip, name)) in tips.iter().zip(basis).enumerate() {
        let end = at(&chart, *tip);
        arrow(root, &[origin, end], c, 3)?;
        // the name beside the arrow's middle, on the side away from the other arrow
        let other = at(&chart, tips[1 - i]);
        let (dx, dy) = ((end.0 - origin.0) as f64, (end.1 - origin.1) as f64);
        let len = dx.hypot(dy).max(1.0);
        let (mut nx, mut ny) = (-dy / len, dx / len);
        if nx * (other.0 - origin.0) as f64 + ny * (other.1 - origin.1) as f64 > 0.0 {
            (nx, ny) = (-nx, -ny);
        }
        let mid = (origin.0 as f64 + dx * 0.55, origin.1 as f64 + dy * 0.55);
        let anchor = if nx > 0.3 {
            Anchor::Left
        } else if nx < -0.3 {
            Anchor::Right
        } else {
            Anchor::Centre
        };
        let place = ((mid.0 + nx * 12.0) as i32, (mid.1 + ny * 12.0) as i32);
        label(root, place, name, SMALL, c, anchor)?;
    }
    for i in 0..points.nrows() {
        let p = at(&chart, (points[(i, 0)], points[(i, 1)]));
        dot(root, p, 5, BLACK)?;
        let sub = ['₁', '₂', '₃', '₄'][i];
        // the name on the dot's outer side, away from the basis arrows
        let (dx, anchor) = if p.0 < origin.0 {
            (-8, Anchor::Right)
        } else {
            (8, Anchor::Left)
        };
        let name = format!("{name}{sub}");
        label(root, (p.0 + dx, p.1 - 10), &name, SMALL, BLACK, anchor)?;
    }
    Ok(())
}

fn draw() -> Result<String, DrawError> {
    let (x, head) = (tokens(), head());
    let (q, k, v) = (&x * &head.w_q, &x * &head.w_k, &x * &head.w_v);
    // raw similarity x_i·x_j and score q_i·k_j (before the 1/√d_k)
    let (raw, score) = (scores(&x, &x, 1.0), scores(&q, &k, 1.0));
    svg(COLUMN, 640, |root| {
        let (panels, strip) = root.split_vertically(572);
        let areas = panels.split_evenly((2, 2));
        let id = DMatrix::identity(2, 2);
        let frame_of = |title, w, basis, points, name, colour| Frame {
            title,
            w,
            basis,
            points,
            name,
            colour,
        };
        let frames = [
            frame_of(
                "tokens x_i (the plane's own basis)",
                &id,
                ["e₁", "e₂"],
                &x,
                "x",
                palette::IDENTITY,
            ),
            frame_of(
                "queries q_i = x_i W_Q",
                &head.w_q,
                ["e₁W_Q", "e₂W_Q"],
                &q,
                "q",
                palette::QUERY,
            ),
            frame_of(
                "keys k_j = x_j W_K",
                &head.w_k,
                ["e₁W_K", "e₂W_K"],
                &k,
                "k",
                palette::KEY,
            ),
            frame_of(
                "values v_j = x_j W_V",
                &head.w_v,
                ["e₁W_V", "e₂W_V"],
                &v,
                "v",
                palette::VALUE,
            ),
        ];
        for (area, f) in areas.iter().zip(frames) {
            frame(root, area, f)?;
        }
        // token 1 against every token j: a row per similarity, a column per j
        let (_, y0) = strip.get_base_pixel();
        let rows: [(&str, Option<&DMatrix<f64>>); 3] = [
            ("token 1 against token j =", None),
            ("raw similarity x₁·x_j", Some(&raw)),
            ("score q₁·k_j", Some(&score)),
        ];
        for (r, (name, m)) in rows.iter().enumerate() {
            let y = y0 + 10 + 20 * r as i32;
            label(root, (300, y), name, LABEL, BLACK, Anchor::Right)?;
            for j in 0..x.nrows() {
                let cell = m.map_or((j + 1).to_string(), |m| decimal(m[(0, j)], 2));
                label(
                    root,
                    (360 + 80 * j as i32, y),
                    &cell,
                    LABEL,
                    BLACK,
                    Anchor::Right,
                )?;
            }
        }
        Ok(())
    })
}
