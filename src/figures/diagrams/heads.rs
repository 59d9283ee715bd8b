//! Chapter 3's diagram: a multi-head layer as blocks, each head with its
//! own projections and its own softmax (its own covering of the tokens),
//! concatenated and mixed by `W_O`.

use nalgebra::DMatrix;
use plotters::prelude::*;

use super::shapes::{Anchor, Px, arrow, block, covering, label};
use crate::attention::Mask;
use crate::figures::style::{COLUMN, Canvas, LABEL, SMALL, svg};
use crate::figures::{DrawError, Figure, palette};
use crate::multi_head::MultiHead;
use crate::random::{gaussian, seeded};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch03-idea-heads",
    chapter: 3,
    about: "a multi-head layer as blocks: per-head projections, per-head softmax coverings, concatenation, W_O",
    draw,
}];

/// Tokens, heads, and the query whose row of each `A_t` is drawn.
const N: usize = 6;
const H: usize = 3;
const QUERY: usize = 4;

/// A three-head layer on six tokens of width 4, its queries sharpened so
/// that the heads' patterns differ visibly, and its pass.
fn layer() -> (MultiHead, Vec<DMatrix<f64>>) {
    let mut rng = seeded(7);
    let mut layer = MultiHead::random(&mut rng, 4, H, 2, 2);
    layer.w_q *= 4.0;
    let x = gaussian(&mut rng, N, 4, 1.0);
    let weights = layer.forward(&x, Mask::Full).weights;
    (layer, weights)
}

/// Head `t`'s covering: the tokens in a row centred on `c`, numbered
/// below, each with a patch of area ∝ `a[(QUERY, j)]`, the query crossed.
fn head_covering(root: &Canvas, c: Px, a: &DMatrix<f64>, col: RGBColor) -> Result<(), DrawError> {
    let points: Vec<Px> = (0..N).map(|j| (c.0 - 85 + 34 * j as i32, c.1)).collect();
    let row: Vec<f64> = a.row(QUERY).iter().cloned().collect();
    covering(root, &points, &row, QUERY, 17.0, col)?;
    for (j, p) in points.iter().enumerate() {
        label(
            root,
            (p.0, p.1 + 30),
            &(j + 1).to_string(),
            SMALL,
            BLACK,
            Anchor::Centre,
        )?;
    }
    Ok(())
}

fn draw() -> Result<String, DrawError> {
    let (layer, weights) = layer();
    svg(COLUMN, 600, |root| {
        let grey = palette::RANDOM;
        let mid = COLUMN as i32 / 2;
        let centres = [130, mid, COLUMN as i32 - 130];
        block(root, (mid - 90, 8), (180, 36), &["tokens X  (n × d)"], grey)?;
        for (t, &cx) in centres.iter().enumerate() {
            let col = palette::HEADS[t];
            let sup = ['¹', '²', '³'][t];
            arrow(root, &[(mid, 44), (cx, 84)], grey, 2)?;
            let proj = format!("W_Q{sup}, W_K{sup}, W_V{sup}");
            block(
                root,
                (cx - 95, 84),
                (190, 48),
                &[&format!("head {}", t + 1), &proj],
                col,
            )?;
            arrow(root, &[(cx, 132), (cx, 160)], grey, 2)?;
            label(
                root,
                (cx, 172),
                &format!("A_{}: its own softmax", t + 1),
                SMALL,
                BLACK,
                Anchor::Centre,
            )?;
            head_covering(root, (cx, 212), &weights[t], col)?;
            arrow(root, &[(cx, 252), (cx, 280)], grey, 2)?;
            block(
                root,
                (cx - 70, 280),
                (140, 36),
                &[&format!("A_{} X W_V{sup}", t + 1)],
                col,
            )?;
        }
        // the concatenation: one segment per head
        let (bar_y, seg) = (370, 120);
        let left = mid - seg * H as i32 / 2;
        for (t, &cx) in centres.iter().enumerate() {
            let x0 = left + seg * t as i32;
            arrow(root, &[(cx, 316), (x0 + seg / 2, bar_y)], grey, 2)?;
            root.draw(&Rectangle::new(
                [(x0, bar_y), (x0 + seg, bar_y + 34)],
                palette::HEADS[t].mix(0.35).filled(),
            ))?;
            root.draw(&Rectangle::new(
                [(x0, bar_y), (x0 + seg, bar_y + 34)],
                BLACK.stroke_width(1),
            ))?;
            label(
                root,
                (x0 + seg / 2, bar_y + 17),
                &format!("head {}", t + 1),
                SMALL,
                BLACK,
                Anchor::Centre,
            )?;
        }
        label(
            root,
            (left - 12, bar_y + 17),
            "concatenate",
            SMALL,
            BLACK,
            Anchor::Right,
        )?;
        arrow(root, &[(mid, bar_y + 34), (mid, 432)], grey, 2)?;
        let w_o = format!("W_O  ({} d_v × d)", layer.h);
        block(root, (mid - 90, 432), (180, 36), &[w_o.as_str()], grey)?;
        arrow(root, &[(mid, 468), (mid, 496)], grey, 2)?;
        block(root, (mid - 90, 496), (180, 36), &["out  (n × d)"], grey)?;
        let formulas = [
            "A_h = softmax(X W_Qʰ (X W_Kʰ)ᵀ / √d_k): each head normalises its own covering",
            "out = [A_1 X W_V¹ ⋯ A_H X W_Vᴴ] W_O = Σ_h A_h X W_Vʰ W_Oʰ",
        ];
        for (i, s) in formulas.iter().enumerate() {
            label(
                root,
                (mid, 552 + 22 * i as i32),
                s,
                LABEL,
                BLACK,
                Anchor::Centre,
            )?;
        }
        Ok(())
    })
}
