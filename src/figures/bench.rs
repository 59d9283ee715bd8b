//! The benchmark appendix figure: measured time against sequence length.
//! Not registered: it is drawn from a run of `cargo run --release -- bench`
//! and differs run to run.

use plotters::prelude::*;

use super::DrawError;
use super::style::{color, legend, svg, text};
use crate::bench::Row;

/// Median time per call against `T` (log–log), one line per mixer and width,
/// with the achieved GFLOP/s against the matrix-multiply `peak` in the title.
pub fn draw(rows: &[Row], peak: f64) -> Result<String, DrawError> {
    let mixers = ["softmax", "kda", "kda_chunked"];
    let mut ds: Vec<usize> = rows.iter().map(|r| r.d).collect();
    ds.dedup();
    let (t_lo, t_hi) = rows.iter().fold((f64::INFINITY, 0.0f64), |(l, h), r| {
        (l.min(r.t as f64), h.max(r.t as f64))
    });
    let (s_lo, s_hi) = rows.iter().fold((f64::INFINITY, 0.0f64), |(l, h), r| {
        (l.min(r.seconds), h.max(r.seconds))
    });
    svg(820, 440, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("measured time per call (matrix multiply: {peak:.1} GFLOP/s)"),
                text(16),
            )
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(60)
            .build_cartesian_2d(
                (t_lo * 0.8..t_hi * 1.25).log_scale(),
                (s_lo * 1e3 * 0.5..s_hi * 1e3 * 2.0).log_scale(),
            )?;
        chart
            .configure_mesh()
            .x_desc("sequence length T")
            .y_desc("median time (ms)")
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for (mi, m) in mixers.iter().enumerate() {
            for (di, &d) in ds.iter().enumerate() {
                let pts: Vec<(f64, f64)> = rows
                    .iter()
                    .filter(|r| r.mixer == *m && r.d == d)
                    .map(|r| (r.t as f64, r.seconds * 1e3))
                    .collect();
                let style = if di == 0 {
                    color(mi).stroke_width(1)
                } else {
                    color(mi).stroke_width(3)
                };
                chart
                    .draw_series(LineSeries::new(pts.clone(), style))?
                    .label(format!("{m}, K = V = {d}"))
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color(mi).filled())))?;
            }
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        Ok(())
    })
}
