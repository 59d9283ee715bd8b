//! The `attend` command's figure: attention weights of a reader's sentence as heat maps
//! labelled with the tokens (queries down the left, keys across the top), one panel
//! per head in a grid of three columns, as bertviz's head view shows them, under
//! a colour bar.
//!
//! Not a registered figure (its sentence is the reader's); it draws an
//! [`AttentionMap`] that the library computed.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::DrawError;
use super::style::{self, Canvas, say};
use crate::pretrained::attention_map::AttentionMap;

/// Panels per row of the grid.
const COLUMNS: usize = 3;

/// Pixel sizes of one panel.
struct Layout {
    /// Side of one cell.
    cell: i32,
    /// Whether the cells are large enough (12 px) to carry token labels.
    labelled: bool,
    /// Room for the longest label, left and top.
    label: i32,
}

impl Layout {
    /// Cells that fill a panel `width` px wide, at most `max_cell` each; labels
    /// in [`style::SMALL`] text where a cell is at least 12 px.
    fn new(map: &AttentionMap, width: i32, max_cell: i32) -> Self {
        let n = map.tokens.len() as i32;
        let longest = map
            .tokens
            .iter()
            .map(|t| t.chars().count())
            .max()
            .unwrap_or(1) as i32;
        // a DejaVu Sans glyph is about 0.6 em wide; plotters' em is size / 1.24
        let label = longest * style::SMALL as i32 / 2 + 8;
        let cell = ((width - label - 16) / n).clamp(1, max_cell);
        if cell >= 12 {
            return Layout {
                cell,
                labelled: true,
                label,
            };
        }
        Layout {
            cell: ((width - 16) / n).clamp(1, max_cell),
            labelled: false,
            label: 0,
        }
    }

    /// Width and height of one panel, title included.
    fn panel(&self, n: usize) -> (i32, i32) {
        let grid = self.cell * n as i32;
        (self.label + grid + 16, TITLE + self.label + grid + 16)
    }
}

/// Height of a panel's title.
const TITLE: i32 = 22;
/// Height of the figure's header: title, note and colour bar.
const HEADER: i32 = 84;

/// Draw `map` at most [`style::COLUMN`] wide: one large panel for a single
/// head, else a grid of smaller ones, under a colour bar for the weights.
///
/// # Errors
/// If plotters fails to draw.
pub fn draw(map: &AttentionMap) -> Result<String, DrawError> {
    let single = map.heads.len() == 1;
    let cols = map.heads.len().min(COLUMNS) as i32;
    let budget = (style::COLUMN as i32 - 20) / cols;
    let layout = match single {
        true => Layout::new(map, budget, 28),
        false => Layout::new(map, budget, 20),
    };
    let n = map.tokens.len();
    let (pw, ph) = layout.panel(n);
    let rows = map.heads.len().div_ceil(COLUMNS) as i32;
    let width = (cols * pw + 20).clamp(560, style::COLUMN as i32) as u32;
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
        root.draw(&Text::new(say(title), (10, 8), style::text(style::TITLE)))?;
        let note = "rows: queries, columns: keys; layers and heads 0-based";
        root.draw(&Text::new(say(note), (10, 30), style::text(style::SMALL)))?;
        weight_bar(root, (10, 56))?;
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

/// The weights' colour bar, white (0) to blue (1), 240 px wide, its left end
/// at `at` (the bar's middle line).
fn weight_bar(root: &Canvas, at: (i32, i32)) -> Result<(), DrawError> {
    let (x0, y) = (at.0 + 60, at.1);
    let left = style::text(style::SMALL).pos(Pos::new(HPos::Left, VPos::Center));
    root.draw(&Text::new(say("weight"), (at.0, y), left.clone()))?;
    let blue = style::color(0);
    for k in 0..240 {
        let w = (k as f64 + 0.5) / 240.0;
        root.draw(&Rectangle::new(
            [(x0 + k, y - 7), (x0 + k + 1, y + 7)],
            blue.mix(w).filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(x0, y - 7), (x0 + 240, y + 7)],
        BLACK.mix(0.4),
    ))?;
    let below = style::text(style::SMALL).pos(Pos::new(HPos::Center, VPos::Top));
    for (t, label) in [(0.0, "0"), (0.5, "0.5"), (1.0, "1")] {
        let x = x0 + (240.0 * t) as i32;
        root.draw(&PathElement::new(vec![(x, y + 7), (x, y + 10)], BLACK))?;
        root.draw(&Text::new(label, (x, y + 11), below.clone()))?;
    }
    Ok(())
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
        say(title),
        (x0 + c * n / 2, origin.1),
        style::text(style::SMALL).pos(centre),
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
    if !layout.labelled {
        return Ok(());
    }
    // the tokens are data: drawn as they are, in either edition
    let left = style::verbatim(style::SMALL).pos(Pos::new(HPos::Right, VPos::Center));
    let up = style::verbatim(style::SMALL)
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, t) in tokens.iter().enumerate() {
        let mid = i as i32 * c + c / 2;
        root.draw(&Text::new(t.clone(), (x0 - 3, y0 + mid), left.clone()))?;
        root.draw(&Text::new(t.clone(), (x0 + mid, y0 - 3), up.clone()))?;
    }
    Ok(())
}
