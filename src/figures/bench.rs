//! The benchmark appendix figure: measured time against sequence length, and
//! the share of its roofline bound each kernel reaches. Not registered: it is
//! drawn from a run of `cargo run --release -- bench` and differs run to run.

use plotters::prelude::*;

use super::DrawError;
use super::key::{self, Swatch};
use super::palette;
use super::style::{COLUMN, say, svg, text, tick};
use crate::bench::{Machine, Mixer, Row};

/// How a kernel is drawn: its mixer's colour (the three KDA kernels share
/// KDA's), a mark that tells the kernels apart, and its key's words.
fn look(m: Mixer) -> (RGBColor, fn(RGBColor) -> Swatch, &'static str) {
    match m {
        Mixer::Softmax => (palette::SOFTMAX, Swatch::Dot, "softmax"),
        Mixer::Kda => (palette::KDA, Swatch::Dot, "KDA, recurrence (kda)"),
        Mixer::KdaFused => (palette::KDA, Swatch::Triangle, "KDA, fused (kda_fused)"),
        Mixer::KdaChunked => (palette::KDA, Swatch::Square, "KDA, chunked (kda_chunked)"),
    }
}

/// Draw the mark of `swatch` at each of `pts`.
fn marks<'a, 'b: 'a, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, CT>,
    swatch: Swatch,
    pts: &[(f64, f64)],
) -> Result<(), DrawError> {
    let p = pts.iter().copied();
    match swatch {
        Swatch::Triangle(c) => {
            chart.draw_series(p.map(|p| TriangleMarker::new(p, 5, c.filled())))?
        }
        Swatch::Square(c) => chart.draw_series(
            p.map(|p| EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], c.filled())),
        )?,
        Swatch::Dot(c) => chart.draw_series(p.map(|p| Circle::new(p, 3, c.filled())))?,
        _ => unreachable!("a kernel is drawn with a dot, a triangle or a square"),
    };
    Ok(())
}

/// Left: median time per call against `T` (log–log), one line per mixer and
/// width (thin `K = V = 64`, thick 128). Right: the share of its bound
/// ([`Machine::bound`]) each reaches, against `T`.
pub fn draw(rows: &[Row], machine: &Machine) -> Result<String, DrawError> {
    let mut ds: Vec<usize> = rows.iter().map(|r| r.d).collect();
    ds.dedup();
    let (t_lo, t_hi) = rows.iter().fold((f64::INFINITY, 0.0f64), |(l, h), r| {
        (l.min(r.t as f64), h.max(r.t as f64))
    });
    let (s_lo, s_hi) = rows.iter().fold((f64::INFINITY, 0.0f64), |(l, h), r| {
        (l.min(r.seconds), h.max(r.seconds))
    });
    let share_hi = rows
        .iter()
        .map(|r| 100.0 * machine.share(r))
        .fold(100.0f64, f64::max);
    // (x, y) of each mixer and width, with its mark and line style
    let series = |y: &dyn Fn(&Row) -> f64| {
        let mut out = Vec::new();
        for m in Mixer::ALL {
            let (c, mark, _) = look(m);
            let swatch = mark(c);
            for (di, &d) in ds.iter().enumerate() {
                let pts: Vec<(f64, f64)> = rows
                    .iter()
                    .filter(|r| r.mixer == m && r.d == d)
                    .map(|r| (r.t as f64, y(r)))
                    .collect();
                let style = c.stroke_width(if di == 0 { 1 } else { 3 });
                out.push((swatch, style, pts));
            }
        }
        out
    };
    let widths = format!(
        "thin: K = V = {}, thick: {}",
        ds.first().copied().unwrap_or(0),
        ds.last().copied().unwrap_or(0)
    );
    let mut entries: Vec<(Swatch, &str)> = Mixer::ALL
        .into_iter()
        .map(|m| {
            let (c, mark, words) = look(m);
            (mark(c), words)
        })
        .collect();
    entries.push((Swatch::Note, widths.as_str()));
    svg(COLUMN, 860 + key::height(entries.len(), 2), |root| {
        let (panels, strip) = root.split_vertically(860);
        key::key(&strip, &entries, 2, 60)?;
        let (left, right) = panels.split_vertically(430);
        let mut chart = ChartBuilder::on(&left)
            .caption(
                say(format!(
                    "time per call (matrix product: {:.1} GFLOP/s)",
                    machine.gemm_gflops
                )),
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
            .x_desc(say("sequence length T"))
            .y_desc(say("median time (ms)"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for (swatch, style, pts) in series(&|r| r.seconds * 1e3) {
            chart.draw_series(LineSeries::new(pts.clone(), style))?;
            marks(&mut chart, swatch, &pts)?;
        }
        let mut chart = ChartBuilder::on(&right)
            .caption(say("share of the kernel's roofline bound"), text(16))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(50)
            .build_cartesian_2d((t_lo * 0.8..t_hi * 1.25).log_scale(), 0.0..share_hi * 1.1)?;
        chart
            .configure_mesh()
            .x_desc(say("sequence length T"))
            .y_desc(say("bound / measured time (%)"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .label_style(text(12))
            .axis_desc_style(text(13))
            .draw()?;
        for (swatch, style, pts) in series(&|r| 100.0 * machine.share(r)) {
            chart.draw_series(LineSeries::new(pts.clone(), style))?;
            marks(&mut chart, swatch, &pts)?;
        }
        Ok(())
    })
}

/// The rows and the machine that a bench report (`figures/bench-delta.txt`,
/// [`crate::bench::report()`]) prints, read back from its text: its first line
/// ends in the matrix-product rate, the next lines list `K = V = d (…): b GB/s`,
/// and its table has one row `mixer T K=V median-ms …` per run. `None` if the
/// text is not such a report.
pub fn read_report(text: &str) -> Option<(Vec<Row>, Machine)> {
    let mut lines = text.lines();
    let number = |s: &str| s.trim().parse::<f64>().ok();
    let gemm = number(
        lines
            .next()?
            .strip_suffix(" GFLOP/s")?
            .rsplit(": ")
            .next()?,
    )?;
    // "state read-modify-write (…):" then one "  K = V = 64 (32 KiB): 184.8 GB/s" per width
    let mut rates = String::new();
    for line in lines.by_ref() {
        if line.starts_with("vector units") {
            break;
        }
        rates.push_str(line);
        rates.push(' ');
    }
    let bandwidth = rates
        .split("K = V = ")
        .skip(1)
        .map(|piece| {
            let d = piece.split_whitespace().next()?.parse().ok()?;
            let gbs = piece.rsplit(": ").next()?.split(" GB/s").next()?;
            Some((d, number(gbs)?))
        })
        .collect::<Option<Vec<(usize, f64)>>>()?;
    let rows: Vec<Row> = lines
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let mixer = Mixer::ALL
                .into_iter()
                .find(|m| Some(&m.name()) == f.first())?;
            let (t, d) = (f.get(1)?.parse().ok()?, f.get(2)?.parse().ok()?);
            let seconds = number(f.get(3)?)? / 1e3;
            let flops = mixer.flops(t, d);
            Some(Row {
                mixer,
                t,
                d,
                seconds,
                flops,
            })
        })
        .collect();
    if rows.is_empty() || bandwidth.is_empty() {
        return None;
    }
    let machine = Machine {
        gemm_gflops: gemm,
        bandwidth,
    };
    Some((rows, machine))
}
