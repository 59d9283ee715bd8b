//! Chapter 7's diagram: one step of KDA's delta rule on a small state,
//! decay, erase and write, each state drawn as a heat map.

use nalgebra::{DMatrix, DVector, dmatrix, dvector};
use plotters::prelude::*;

use super::shapes::{Anchor, Px, arrow, decimal, label};
use crate::delta::{kda, l2_normalize};
use crate::figures::style::{COLUMN, LABEL, SMALL, Shading, heatmap, svg};
use crate::figures::{DrawError, Figure, palette};

pub const FIGURES: &[Figure] = &[Figure {
    name: "ch07-idea-delta-rule",
    chapter: 7,
    about: "one KDA step on a 4 × 3 state: per-channel decay, the erase of the old answer for k_t, the write of v_t",
    draw,
}];

/// One step's inputs: the state before it, the key, the value, the
/// retention factors per key channel, the write strength.
pub struct Step {
    pub s: DMatrix<f64>,
    pub k: DMatrix<f64>,
    pub v: DMatrix<f64>,
    pub alpha: DVector<f64>,
    pub beta: f64,
}

/// The step the figure draws.
pub fn step() -> Step {
    Step {
        s: dmatrix![0.8, -0.3, 0.2; 0.1, 0.9, -0.5; -0.4, 0.2, 0.7; 0.5, 0.5, -0.2],
        k: l2_normalize(&dmatrix![1.0, 0.0, 1.0, 0.5]),
        v: dmatrix![1.0, -0.6, 0.5],
        alpha: dvector![0.9, 0.5, 1.0, 0.3],
        beta: 0.9,
    }
}

impl Step {
    /// The state after one KDA step whose value is `v` and write strength
    /// `beta` (the key and the decay as given).
    pub fn after(&self, v: &DMatrix<f64>, beta: f64) -> DMatrix<f64> {
        let g = DMatrix::from_row_slice(1, self.alpha.len(), self.alpha.map(f64::ln).as_slice());
        kda(&self.k, &self.k, v, &g, &dvector![beta], 1.0, Some(&self.s)).1
    }
}

/// A vector as `(a, b, …)` with two decimals.
fn tuple<'a>(v: impl IntoIterator<Item = &'a f64>) -> String {
    let parts: Vec<String> = v.into_iter().map(|x| decimal(*x, 2)).collect();
    format!("({})", parts.join(", "))
}

/// A label of two lines centred on `at`, above and below it.
fn two_lines(
    root: &crate::figures::style::Canvas,
    at: Px,
    top: &str,
    bottom: &str,
) -> Result<(), DrawError> {
    label(root, (at.0, at.1 - 14), top, LABEL, BLACK, Anchor::Centre)?;
    label(
        root,
        (at.0, at.1 + 16),
        bottom,
        SMALL,
        BLACK,
        Anchor::Centre,
    )
}

fn draw() -> Result<String, DrawError> {
    let x = step();
    let zero = DMatrix::zeros(1, x.v.ncols());
    // decay only (β = 0), decay then erase (v = 0), the whole step
    let decayed = x.after(&x.v, 0.0);
    let erased = x.after(&zero, x.beta);
    let written = x.after(&x.v, x.beta);
    let states = [&x.s, &decayed, &erased, &written];
    let top = states.iter().map(|m| m.amax()).fold(0.0, f64::max);
    let titles = [
        "S_{t−1}: the state before step t",
        "S'_t = Diag(α_t) S_{t−1}",
        "S'_t − β_t k_t (S'_tᵀ k_t)ᵀ",
        "S_t = … + β_t k_t v_tᵀ",
    ];
    let (w, gap, h, between) = (300, 150, 250, 80);
    svg(COLUMN, 2 * h as u32 + between as u32 + 70, |root| {
        let corner =
            |i: usize| -> Px { ((w + gap) * (i % 2) as i32, (h + between) * (i / 2) as i32) };
        for (i, (m, title)) in states.iter().zip(titles).enumerate() {
            let (x0, y0) = corner(i);
            let area = root.clone().shrink((x0, y0), (w as u32, h as u32));
            heatmap(
                &area,
                m,
                title,
                Shading::Diverging(top),
                "value channel",
                "key channel",
            )?;
        }
        let grey = palette::RANDOM;
        // decay: top left → top right; write: bottom left → bottom right
        let mid_y = [h / 2 - 10, h + between + h / 2 - 10];
        let steps = [("decay", "α_t per channel"), ("write", "+β_t k_t v_tᵀ")];
        for (y, (top, bottom)) in mid_y.iter().zip(steps) {
            arrow(root, &[(w + 4, *y), (w + gap + 4, *y)], grey, 3)?;
            two_lines(root, (w + gap / 2, *y), top, bottom)?;
        }
        // erase: from under the top right map, across, into the bottom left one
        let (xr, xl) = (w + gap + (w - 64) / 2, (w - 64) / 2 + 20);
        let y = h + between / 2;
        arrow(
            root,
            &[(xr, h + 2), (xr, y), (xl, y), (xl, h + between + 6)],
            grey,
            3,
        )?;
        label(
            root,
            ((xr + xl) / 2, y - 12),
            "erase the old answer for k_t:  −β_t k_t (S'_tᵀ k_t)ᵀ",
            LABEL,
            BLACK,
            Anchor::Centre,
        )?;
        let inputs = format!(
            "α_t = {},  β_t = {},  k_t = {},  v_t = {}",
            tuple(x.alpha.iter()),
            decimal(x.beta, 2),
            tuple(x.k.iter()),
            tuple(x.v.iter())
        );
        label(
            root,
            (COLUMN as i32 / 2, 2 * h + between + 40),
            &inputs,
            LABEL,
            BLACK,
            Anchor::Centre,
        )?;
        Ok(())
    })
}
