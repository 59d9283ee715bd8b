//! Chapter 4's diagram: attention as arrows between the positions of
//! successive layers, one composed path, and the composite `R`.

use nalgebra::DMatrix;
use plotters::prelude::*;

use super::shapes::{Anchor, Px, arrow, decimal, label};
use crate::figures::style::{COLUMN, Canvas, LABEL, SMALL, Shading, heatmap, svg};
use crate::figures::{DrawError, Figure, palette};
use crate::random::{gaussian, seeded};
use crate::relation::{Stack, residual_mix, rollout, strongest};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch04-idea-composition",
    chapter: 4,
    about: "tokens per layer, each layer's M_l as arrows between columns, one composed path, and R = M_3 M_2 M_1",
    draw,
}];

/// Tokens, layers, and the last-layer token whose path is followed.
const N: usize = 4;
const L: usize = 3;
const END: usize = 3;

/// Where token `i` of column `l` (0: the prompt) sits, px.
fn node(l: usize, i: usize) -> Px {
    (50 + 125 * l as i32, 80 + 68 * i as i32)
}

/// Where the path from `END` goes: the token each layer's attention reads
/// most from, last layer first; `path[l]` is the token in column `l`.
fn path(a: &[DMatrix<f64>]) -> Vec<usize> {
    let mut path = vec![END];
    for l in (0..L).rev() {
        let i = *path.last().expect("starts with END");
        path.push(strongest(&a[l], 0..N)[i]);
    }
    path.reverse();
    path
}

fn columns(root: &Canvas, m: &[DMatrix<f64>], path: &[usize]) -> Result<(), DrawError> {
    let grey = palette::RANDOM;
    for (l, m_l) in m.iter().enumerate() {
        // M_l: row i (column l + 1) reads from token j (column l)
        for i in 0..N {
            for j in 0..N {
                let w = m_l[(i, j)];
                let style = grey
                    .mix(0.15 + 0.85 * w)
                    .stroke_width(1 + (8.0 * w).round() as u32);
                root.draw(&PathElement::new(vec![node(l + 1, i), node(l, j)], style))?;
            }
        }
        let x = (node(l, 0).0 + node(l + 1, 0).0) / 2;
        label(
            root,
            (x, 34),
            &format!("M_{}", l + 1),
            LABEL,
            BLACK,
            Anchor::Centre,
        )?;
    }
    // the composed path, drawn as arrows from each layer's token to the one it reads
    for l in (0..L).rev() {
        let (from, to) = (node(l + 1, path[l + 1]), node(l, path[l]));
        let short = (
            to.0 + 14,
            to.1 + ((from.1 - to.1) as f64 * 14.0 / 125.0) as i32,
        );
        arrow(root, &[from, short], palette::PATH, 3)?;
        let w = m[l][(path[l + 1], path[l])];
        // the weight above the arrow's middle, on a white patch
        let mid = ((from.0 + to.0) / 2, (from.1 + to.1) / 2 - 14);
        let patch = [(mid.0 - 17, mid.1 - 9), (mid.0 + 17, mid.1 + 9)];
        root.draw(&Rectangle::new(patch, WHITE.filled()))?;
        label(
            root,
            mid,
            &decimal(w, 2),
            SMALL,
            palette::PATH,
            Anchor::Centre,
        )?;
    }
    for (l, &on_path) in path.iter().enumerate() {
        for i in 0..N {
            let p = node(l, i);
            let on = on_path == i;
            root.draw(&Circle::new(p, 13, WHITE.filled()))?;
            let edge = if on { palette::PATH } else { BLACK };
            root.draw(&Circle::new(p, 13, edge.stroke_width(2)))?;
            label(root, p, &i.to_string(), SMALL, BLACK, Anchor::Centre)?;
        }
        let name = if l == 0 {
            "X_0 (prompt)".to_string()
        } else {
            format!("X_{l}")
        };
        label(
            root,
            (node(l, 0).0, 56),
            &name,
            SMALL,
            BLACK,
            Anchor::Centre,
        )?;
    }
    Ok(())
}

fn draw() -> Result<String, DrawError> {
    let mut rng = seeded(3);
    let stack = Stack::random(&mut rng, L, 4, 3.0);
    let a = stack.forward(&gaussian(&mut rng, N, 4, 1.0)).weights;
    let m: Vec<DMatrix<f64>> = a.iter().map(residual_mix).collect();
    let r = rollout(&a);
    let path = path(&a);
    svg(COLUMN, 390, |root| {
        let (graph, right) = root.split_horizontally(450);
        columns(root, &m, &path)?;
        let (map, _) = right.split_vertically(320);
        heatmap(
            &map,
            &r,
            "composite R = M_3 M_2 M_1",
            Shading::Sequential(palette::PATH),
            "input token m",
            "token i of X_3",
        )?;
        let (_, y0) = graph.get_base_pixel();
        let lines = [
            "M_l = ½ I + ½ A_l; row i says where token i reads from (line width ∝ weight)."
                .to_string(),
            format!(
                "The path {} → {} → {} → {} is one term of R[{}, {}] = {}; R sums every path.",
                path[3],
                path[2],
                path[1],
                path[0],
                END,
                path[0],
                decimal(r[(END, path[0])], 2)
            ),
        ];
        for (i, s) in lines.iter().enumerate() {
            label(
                root,
                (16, y0 + 336 + 24 * i as i32),
                s,
                SMALL,
                BLACK,
                Anchor::Left,
            )?;
        }
        Ok(())
    })
}
