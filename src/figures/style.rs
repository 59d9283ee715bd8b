//! The shared look of every figure: the embedded font, the palette, the
//! canvas, and the few chart shapes the chapters reuse.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::DrawError;

/// DejaVu Sans, embedded so that text is measured the same on every machine.
static FONT: &[u8] = include_bytes!("font/DejaVuSans.ttf");

/// The font family every figure uses.
pub const FAMILY: &str = "sans-serif";

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
    });
}

/// Text style of `size` pixels.
pub fn text(size: u32) -> TextStyle<'static> {
    (FAMILY, size).into_font().into()
}

/// Draw on a white `width × height` SVG canvas and return the SVG.
pub fn svg(
    width: u32,
    height: u32,
    draw: impl FnOnce(&Canvas) -> Result<(), DrawError>,
) -> Result<String, DrawError> {
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

/// A chart with two continuous axes on an SVG canvas.
pub type Chart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draw the series labels in the book's style (boxed, white, 12 px) at `position`.
pub fn legend<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    position: SeriesLabelPosition,
) -> Result<(), DrawError> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font(text(12))
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    Ok(())
}
