//! The shared look of every figure: the embedded font, the palette, the
//! canvas, and the few chart shapes the chapters reuse.

use std::ops::Range;
use std::sync::Once;

use plotters::chart::MeshStyle;
use plotters::coord::CoordTranslate;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::DrawError;
pub use super::edition::{FAMILY, say};
use super::edition::{FAMILY_ZH, family};
pub use super::heatmap::{BAR, Shading, heatmap};
use crate::stats::Summary;

/// DejaVu Sans, embedded so that text is measured the same on every machine.
static FONT: &[u8] = include_bytes!("font/DejaVuSans.ttf");

/// Noto Sans CJK SC cut to the characters the Chinese figures draw
/// (`scripts/subset-cjk-font.py`), to measure their text.
pub static FONT_ZH: &[u8] = include_bytes!("font/NotoSansCJKsc-subset.otf");

/// Okabe–Ito colours: distinguishable with any colour vision.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // green
    RGBColor(204, 121, 167), // purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky
    RGBColor(120, 120, 120), // grey
];

/// The colour of series `i` (cycling through the palette).
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A canvas drawing area over an SVG string.
pub type Canvas<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_err() {
            panic!("the embedded DejaVu Sans font is not a valid font file");
        }
        if plotters::style::register_font(FAMILY_ZH, FontStyle::Normal, FONT_ZH).is_err() {
            panic!("the embedded Noto Sans CJK SC subset is not a valid font file");
        }
    });
}

/// The width of the book's text column, px: every figure is drawn at most
/// this wide, so that it is shown at the size it was drawn.
pub const COLUMN: u32 = 750;

/// The smallest text size a figure uses: tick labels, legends, cell labels.
/// plotters writes `font-size = size / 1.24`, so 14 reads as 11.3 px.
pub const SMALL: u32 = 14;

/// Axis descriptions.
pub const LABEL: u32 = 15;

/// Panel titles.
pub const TITLE: u32 = 16;

/// Text style of `size` (plotters units), never smaller than [`SMALL`], in
/// the font of the edition being drawn.
pub fn text(size: u32) -> TextStyle<'static> {
    (family(), size.max(SMALL)).into_font().into()
}

/// Text style of `size` in the English font in either edition: for data
/// drawn as it is, such as a model's input tokens.
pub fn verbatim(size: u32) -> TextStyle<'static> {
    (FAMILY, size.max(SMALL)).into_font().into()
}

/// Draw on a white `width × height` SVG canvas and return the SVG; a canvas
/// wider than the [`COLUMN`] is an error.
pub fn svg(
    width: u32,
    height: u32,
    draw: impl FnOnce(&Canvas) -> Result<(), DrawError>,
) -> Result<String, DrawError> {
    if width > COLUMN {
        return Err(format!("a {width}-px canvas is wider than the {COLUMN}-px column").into());
    }
    register_font();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
    }
    Ok(out)
}

/// A range `[lo, hi]` covering `values` with a margin of `pad` of its width.
pub fn span(values: impl IntoIterator<Item = f64>, pad: f64) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .into_iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
    let w = if hi > lo { hi - lo } else { 1.0 };
    (lo - pad * w)..(hi + pad * w)
}

/// A vertical error bar from `lo` to `hi` at `x`, with caps of half-width `cap`.
pub fn error_bar(
    x: f64,
    lo: f64,
    hi: f64,
    cap: f64,
    style: ShapeStyle,
) -> Vec<PathElement<(f64, f64)>> {
    vec![
        PathElement::new(vec![(x, lo), (x, hi)], style),
        PathElement::new(vec![(x - cap, lo), (x + cap, lo)], style),
        PathElement::new(vec![(x - cap, hi), (x + cap, hi)], style),
    ]
}

/// A mean line with a shaded band `[lo, hi]` over `xs`.
pub fn band(xs: &[f64], lo: &[f64], hi: &[f64], color: RGBColor) -> Polygon<(f64, f64)> {
    let upper = xs.iter().zip(hi).map(|(&x, &y)| (x, y));
    let lower = xs.iter().zip(lo).rev().map(|(&x, &y)| (x, y));
    Polygon::new(
        upper.chain(lower).collect::<Vec<_>>(),
        color.mix(0.2).filled(),
    )
}

/// A straight reference line from `from` to `to` (a chance level, a bound, a
/// marked step) in `style`, labelled `label` at `at` in `size`-px text, on a
/// chart with any axes.
pub fn marked_line<'a, 'b: 'a, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, CT>,
    from: (f64, f64),
    to: (f64, f64),
    style: ShapeStyle,
    label: &str,
    at: (f64, f64),
    size: u32,
) -> Result<(), DrawError> {
    chart.draw_series([PathElement::new(vec![from, to], style)])?;
    chart.draw_series([Text::new(say(label), at, text(size))])?;
    Ok(())
}

/// A trained model's curve solid with a dot per point, or the random-weight
/// baseline's dashed without, in `c`, keyed in the legend as `label`.
pub fn model_line<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    pts: Vec<(f64, f64)>,
    c: RGBColor,
    dashed: bool,
    label: String,
) -> Result<(), DrawError> {
    let style = c.stroke_width(2);
    let drawn = if dashed {
        chart.draw_series(DashedLineSeries::new(pts.clone(), 6, 4, style))?
    } else {
        chart.draw_series(LineSeries::new(pts.clone(), style))?
    };
    let gap = if dashed { 4 } else { 0 };
    drawn.label(say(label)).legend(move |(x, y)| {
        EmptyElement::at((x, y))
            + PathElement::new(vec![(0, 0), (8 - gap, 0)], style)
            + PathElement::new(vec![(8 + gap, 0), (16, 0)], style)
    });
    if !dashed {
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
    }
    Ok(())
}

/// [`model_line`] without a legend entry, for a figure whose key is drawn in
/// its own strip ([`super::key`], [`super::key::Swatch::model`]).
pub fn model_curve(
    chart: &mut Chart<'_, '_>,
    pts: Vec<(f64, f64)>,
    c: RGBColor,
    dashed: bool,
) -> Result<(), DrawError> {
    let style = c.stroke_width(2);
    if dashed {
        chart.draw_series(DashedLineSeries::new(pts, 6, 4, style))?;
    } else {
        chart.draw_series(LineSeries::new(pts.clone(), style))?;
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
    }
    Ok(())
}

/// A chart with two continuous axes on an SVG canvas.
pub type Chart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The mesh of a [`Chart`], to be finished with `.draw()`.
pub type Mesh<'a, 'c, 'b> = MeshStyle<'a, 'c, RangedCoordf64, RangedCoordf64, SVGBackend<'b>>;

/// A chart on `area` over `x × y` in the book's style: `caption` in 16-px
/// text, a 10-px margin, room for tick labels and axis descriptions.
pub fn axes<'a, 'b>(
    area: &'a Canvas<'b>,
    caption: impl AsRef<str>,
    x: Range<f64>,
    y: Range<f64>,
) -> Result<Chart<'a, 'b>, DrawError> {
    Ok(ChartBuilder::on(area)
        .caption(say(caption), text(TITLE))
        .margin(10)
        // room for the last x tick label, centred on the frame's right edge
        .margin_right(22)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x, y)?)
}

/// Superscript digits and minus for a power of ten.
fn superscript(e: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let sign = if e < 0 { "⁻" } else { "" };
    let digits: String = e
        .unsigned_abs()
        .to_string()
        .bytes()
        .map(|b| DIGITS[(b - b'0') as usize])
        .collect();
    format!("{sign}{digits}")
}

/// A tick value as a reader writes it: the shortest decimal between 0.001
/// and 10⁶ (`50`, `0.25`, `1000`, never `-0` or `50.0`), a power of ten
/// (`10⁻⁵`) or `m×10ᵏ` outside it.
pub fn tick(v: &f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    let e = a.log10().floor() as i32;
    let m = v / 10f64.powi(e);
    let power = (m.abs() - 1.0).abs() < 1e-6;
    // a linear axis's zero may come out as float noise (5.6e-17)
    if a < 1e-12 && !power {
        return "0".into();
    }
    if (1e-3..1e6).contains(&a) {
        // six significant digits hide float noise (0.30000000000000004)
        let decimals = (5 - a.log10().floor() as i32).clamp(0, 9) as usize;
        let s = format!("{v:.decimals$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.')
        } else {
            &s
        };
        return s.replace('-', "−");
    }
    let sign = if *v < 0.0 { "−" } else { "" };
    if power {
        format!("{sign}10{}", superscript(e))
    } else {
        format!("{}×10{}", tick(&m), superscript(e))
    }
}

/// The mesh of `chart` in the book's style: the axis descriptions, [`SMALL`]
/// tick labels written by [`tick`], [`LABEL`] descriptions. Add to it, then
/// `.draw()`.
pub fn mesh<'a, 'c, 'b>(
    chart: &'c mut Chart<'a, 'b>,
    x_desc: impl Into<String>,
    y_desc: impl Into<String>,
) -> Mesh<'a, 'c, 'b> {
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(say(x_desc.into()))
        .y_desc(say(y_desc.into()))
        .label_style(text(SMALL))
        .axis_desc_style(text(LABEL))
        .x_label_formatter(&tick)
        .y_label_formatter(&tick);
    mesh
}

/// A legend key: a 14-px line in `color`, `width` px wide.
pub fn line_key(color: impl Color, width: u32) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    let style = color.stroke_width(width);
    move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], style)
}

/// A legend key: a filled 10-px square in `color`.
pub fn box_key(color: impl Color) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    let style = color.filled();
    move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], style)
}

/// Draw the series labels in the book's style (boxed, white, 12 px) at
/// `position`, on a chart with any axes.
pub fn legend<'a, 'b: 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, CT>,
    position: SeriesLabelPosition,
) -> Result<(), DrawError> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font(text(SMALL))
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    Ok(())
}

/// A bar of height `s.mean` at `x`, `±half` wide, with a `± sd` error bar.
pub fn bar(chart: &mut Chart, x: f64, half: f64, s: Summary, c: RGBColor) -> Result<(), DrawError> {
    chart.draw_series([Rectangle::new(
        [(x - half, 0.0), (x + half, s.mean)],
        c.filled(),
    )])?;
    chart.draw_series(error_bar(
        x,
        s.mean - s.sd,
        s.mean + s.sd,
        half / 3.0,
        BLACK.stroke_width(1),
    ))?;
    Ok(())
}
