//! The `attend` command's figure: attention weights of a reader's sentence as heat maps
//! labelled with the tokens (queries down the left, keys across the top), one panel
//! per head in a grid of four columns, as bertviz's head view shows them.
//!
//! Not a registered figure (its sentence is the reader's); it draws an
//! [`AttentionMap`] that the library computed.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::DrawError;
use super::style::{self, Canvas};
use crate::pretrained::attention_map::AttentionMap;

/// Panels per row of the grid.
const COLUMNS: usize = 4;

/// Pixel sizes of one panel.
struct Layout {
    /// Side of one cell.
    cell: i32,
    /// Font size of the token labels (0: no labels, the cells are too small).
    font: u32,
    /// Room for the longest label, left and top.
    label: i32,
}

impl Layout {
    /// Cells that fill about `side` pixels, at most `max_cell`; up to 60 tokens the
    /// cells stay large enough (7 pixels) to carry labels.
    fn new(map: &AttentionMap, side: i32, max_cell: i32) -> Self {
        let n = map.tokens.len() as i32;
        let min_cell = if n <= 60 { 7 } else { 1 };
        let cell = (side / n).clamp(min_cell, max_cell);
        let font = if cell >= 7 {
            (cell as u32 - 1).min(13)
        } else {
            0
        };
        let longest = map
            .tokens
            .iter()
            .map(|t| t.chars().count())
            .max()
            .unwrap_or(1) as i32;
        let label = if font > 0 {
            longest * font as i32 * 6 / 10 + 6
        } else {
            0
        };
        Layout { cell, font, label }
    }

    /// Width and height of one panel, title included.
    fn panel(&self, n: usize) -> (i32, i32) {
        let grid = self.cell * n as i32;
        (self.label + grid + 16, TITLE + self.label + grid + 16)
    }
}

/// Height of a panel's title.
const TITLE: i32 = 20;
/// Height of the figure's header.
const HEADER: i32 = 44;

/// Draw `map`: one large panel for a single head, else a grid of small ones.
///
/// # Errors
/// If plotters fails to draw.
pub fn draw(map: &AttentionMap) -> Result<String, DrawError> {
    let single = map.heads.len() == 1;
    let layout = match single {
        true => Layout::new(map, 560, 28),
        false => Layout::new(map, 220, 14),
    };
    let n = map.tokens.len();
    let (pw, ph) = layout.panel(n);
    let cols = map.heads.len().min(COLUMNS) as i32;
    let rows = map.heads.len().div_ceil(COLUMNS) as i32;
    let width = (cols * pw + 20).max(560) as u32;
    let height = (HEADER + rows * ph + 10) as u32;
    style::svg(width, height, |root| {
        let heads = match single {
            true => format!("head {}", map.heads[0].0),
            false => format!(
                "heads {}–{}",
                map.heads[0].0,
                map.heads[map.heads.len() - 1].0
            ),
        };
        let title = format!(
            "{}, layer {}, {heads}: attention weights",
            map.model, map.layer
        );
        root.draw(&Text::new(title, (10, 8), style::text(15)))?;
        let note = "rows: queries, columns: keys; colour from white (0) to blue (1); layers and heads 0-based";
        root.draw(&Text::new(note, (10, 27), style::text(11)))?;
        for (i, (head, weights)) in map.heads.iter().enumerate() {
            let x = 10 + (i % COLUMNS) as i32 * pw;
            let y = HEADER + (i / COLUMNS) as i32 * ph;
            panel(
                root,
                &layout,
                (x, y),
                &format!("head {head}"),
                &map.tokens,
                weights,
            )?;
        }
        Ok(())
    })
}

/// One head's heat map with its title and token labels, top-left corner at `origin`.
fn panel(
    root: &Canvas,
    layout: &Layout,
    origin: (i32, i32),
    title: &str,
    tokens: &[String],
    weights: &nalgebra::DMatrix<f64>,
) -> Result<(), DrawError> {
    let (c, n) = (layout.cell, tokens.len() as i32);
    // top-left corner of the cells
    let (x0, y0) = (origin.0 + layout.label, origin.1 + TITLE + layout.label);
    let centre = Pos::new(HPos::Center, VPos::Top);
    root.draw(&Text::new(
        title.to_string(),
        (x0 + c * n / 2, origin.1),
        style::text(13).pos(centre),
    ))?;
    let blue = style::color(0);
    for i in 0..n {
        for j in 0..n {
            let w = weights[(i as usize, j as usize)].clamp(0.0, 1.0);
            let (x, y) = (x0 + j * c, y0 + i * c);
            root.draw(&Rectangle::new(
                [(x, y), (x + c, y + c)],
                blue.mix(w).filled(),
            ))?;
        }
    }
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + c * n, y0 + c * n)],
        BLACK.mix(0.4),
    ))?;
    if layout.font == 0 {
        return Ok(());
    }
    let left = style::text(layout.font).pos(Pos::new(HPos::Right, VPos::Center));
    let up = style::text(layout.font)
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, t) in tokens.iter().enumerate() {
        let mid = i as i32 * c + c / 2;
        root.draw(&Text::new(t.clone(), (x0 - 3, y0 + mid), left.clone()))?;
        root.draw(&Text::new(t.clone(), (x0 + mid, y0 - 3), up.clone()))?;
    }
    Ok(())
}
