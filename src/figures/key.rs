//! A key drawn in its own strip beside the panels, so that no legend covers
//! data: rows of `swatch label` entries, `per_row` to a row.

use plotters::prelude::*;

use super::DrawError;
use super::style::{Canvas, SMALL, color, say, text};
use crate::pretrained::corpus::Model;

/// How an entry of a key is marked.
#[derive(Clone, Copy, Debug)]
pub enum Swatch {
    /// A solid line.
    Line(RGBColor),
    /// A dashed line.
    Dashed(RGBColor),
    /// A filled square (bars, shaded regions).
    Square(RGBColor),
    /// A filled dot (scatter points).
    Dot(RGBColor),
    /// A cross (marked points).
    Cross(RGBColor),
    /// A filled triangle (triangle markers).
    Triangle(RGBColor),
    /// No mark: a note in the key's own line.
    Note,
}

impl Swatch {
    /// The swatch of a [`super::style::model_curve`] in `c`: dashed for the
    /// random-weight baseline, solid for the trained model.
    pub fn model(c: RGBColor, dashed: bool) -> Swatch {
        if dashed {
            Swatch::Dashed(c)
        } else {
            Swatch::Line(c)
        }
    }
}

/// A key of curves drawn by [`super::style::model_curve`] for both models,
/// the `k`th of `whats` in colour `k`: a row per model (trained solid, random
/// dashed), each entry `"{what}, {model}"`.
pub fn models(whats: &[&str]) -> Vec<(Swatch, String)> {
    Model::BOTH
        .iter()
        .flat_map(|&model| {
            whats.iter().enumerate().map(move |(k, what)| {
                let swatch = Swatch::model(color(k), model == Model::Random);
                (swatch, format!("{what}, {}", model.name()))
            })
        })
        .collect()
}

/// The entries of a key whose labels were written at run time, to pass to
/// [`key`].
pub fn borrowed(owned: &[(Swatch, String)]) -> Vec<(Swatch, &str)> {
    owned.iter().map(|(s, l)| (*s, l.as_str())).collect()
}

/// Height of one row of a key, px.
pub const ROW: u32 = 22;

/// The height a key of `n` entries in rows of `per_row` needs, px.
pub fn height(n: usize, per_row: usize) -> u32 {
    8 + ROW * n.div_ceil(per_row.max(1)) as u32
}

/// Draw `entries` on `area`, left to right in rows of `per_row`, each column
/// `area width / per_row` wide, starting `inset` px from the left.
pub fn key(
    area: &Canvas,
    entries: &[(Swatch, &str)],
    per_row: usize,
    inset: i32,
) -> Result<(), DrawError> {
    let per_row = per_row.max(1);
    let (w, _) = area.dim_in_pixel();
    let column = (w as i32 - inset) / per_row as i32;
    for (i, (swatch, label)) in entries.iter().enumerate() {
        // (x, y): the swatch's left end, on the row's middle line
        let x = inset + column * (i % per_row) as i32;
        let y = 4 + ROW as i32 * (i / per_row) as i32 + ROW as i32 / 2;
        let label_x = match swatch {
            Swatch::Note => x,
            _ => x + 26,
        };
        match *swatch {
            Swatch::Line(c) => area.draw(&PathElement::new(
                vec![(x, y), (x + 20, y)],
                c.stroke_width(3),
            ))?,
            Swatch::Dashed(c) => {
                for s in [0, 8, 16] {
                    area.draw(&PathElement::new(
                        vec![(x + s, y), (x + s + 4, y)],
                        c.stroke_width(3),
                    ))?;
                }
            }
            Swatch::Square(c) => area.draw(&Rectangle::new(
                [(x + 4, y - 6), (x + 16, y + 6)],
                c.filled(),
            ))?,
            Swatch::Dot(c) => area.draw(&Circle::new((x + 10, y), 4, c.filled()))?,
            Swatch::Cross(c) => area.draw(&Cross::new((x + 10, y), 5, c.stroke_width(2)))?,
            Swatch::Triangle(c) => area.draw(&TriangleMarker::new((x + 10, y), 5, c.filled()))?,
            Swatch::Note => {}
        }
        let style = text(SMALL).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ));
        area.draw(&Text::new(say(label), (label_x, y), style))?;
    }
    Ok(())
}
