//! Chapter 2's diagram: one pass of a head as a local covering of the
//! token field, where Q and K place weight beside what V carries.

use nalgebra::{DMatrix, dmatrix};
use plotters::prelude::*;

use super::shapes::{Anchor, Px, at, covering, decimal, label, plane};
use crate::attention::{Head, Mask};
use crate::attribution::carried_norms;
use crate::figures::key::{self, Swatch};
use crate::figures::style::{COLUMN, Canvas, SMALL, svg};
use crate::figures::{DrawError, Figure, palette};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch02-idea-covering",
    chapter: 2,
    about: "one query's covering of the tokens: the weights α_ij beside the norms ‖α_ij v_j‖ they carry",
    draw,
}];

/// The query token's row.
pub const QUERY: usize = 0;

/// Largest patch radius, px.
const RADIUS: f64 = 34.0;

/// Seven tokens in the plane, the query first.
pub fn tokens() -> DMatrix<f64> {
    dmatrix![
        0.6, 0.4; 1.2, 0.9; -0.5, 1.0; 1.4, -0.6; -1.1, -0.4; 0.2, -1.2; -0.3, 0.2
    ]
}

/// A head whose values shrink the direction (0.8, 0.6), along which the
/// query's most-weighted key lies, and stretch the one across it.
pub fn head() -> Head {
    Head {
        w_q: dmatrix![2.0, 0.5; 0.3, 1.8],
        w_k: dmatrix![1.5, -0.6; 0.8, 1.2],
        w_v: dmatrix![0.6, -0.67; -0.67, 1.0],
    }
}

/// Draw the query's row of `m` on `area` as patches of area ∝ `m[(QUERY, j)]`
/// around each token, the largest of radius [`RADIUS`].
fn patches(
    root: &Canvas,
    area: &Canvas,
    title: &str,
    x: &DMatrix<f64>,
    m: &DMatrix<f64>,
    c: RGBColor,
) -> Result<(), DrawError> {
    let chart = plane(area, title, (0.15, -0.05), 1.65)?;
    let points: Vec<Px> = (0..x.nrows())
        .map(|j| at(&chart, (x[(j, 0)], x[(j, 1)])))
        .collect();
    let row: Vec<f64> = m.row(QUERY).iter().cloned().collect();
    covering(root, &points, &row, QUERY, RADIUS, c)?;
    for (p, w) in points.iter().zip(&row) {
        let place = (p.0 + 6, p.1 + 16);
        label(root, place, &decimal(*w, 2), SMALL, BLACK, Anchor::Left)?;
    }
    Ok(())
}

fn draw() -> Result<String, DrawError> {
    let (x, head) = (tokens(), head());
    let pass = head.forward(&x, Mask::Full);
    let carried = carried_norms(&pass.weights, &(&x * &head.w_v));
    svg(COLUMN, 420, |root| {
        let (panels, strip) = root.split_vertically(390);
        let halves = panels.split_evenly((1, 2));
        let sides = [
            (
                "where Q and K place weight: α_ij",
                &pass.weights,
                palette::WEIGHT,
            ),
            ("what V carries: ‖α_ij v_j‖", &carried, palette::VALUE),
        ];
        for (area, (title, m, c)) in halves.iter().zip(sides) {
            patches(root, area, title, &x, m, c)?;
        }
        key::key(
            &strip,
            &[
                (Swatch::Cross(palette::QUERY), "the query token x_i"),
                (Swatch::Dot(BLACK), "the other tokens x_j"),
                (Swatch::Note, "patch area ∝ the number beside it"),
            ],
            3,
            20,
        )
    })
}
