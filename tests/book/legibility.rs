//! Every committed figure reads at the column's width: an SVG wider than the
//! column is shrunk into it, so a text of `font-size` s in a figure `w` px wide
//! reads at `s · min(1, COLUMN / w)` px, and none may read under `FLOOR` px.

use std::fs;
use std::path::{Path, PathBuf};

/// The book's text column, in CSS px.
const COLUMN: f64 = 750.0;

/// The smallest text a figure may show at the column's width, in px.
const FLOOR: f64 = 10.0;

/// The value of attribute `name` in the tag that starts `tag` (up to its `>`).
fn attribute(tag: &str, name: &str) -> Option<f64> {
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    tag[start..start + len].parse().ok()
}

/// What one SVG shows: its width and the font size of every non-empty text.
#[derive(Debug, PartialEq)]
struct Drawn {
    width: f64,
    sizes: Vec<f64>,
}

/// Parse the `<svg width>` and each `<text font-size>` whose content is not blank.
fn parse(svg: &str) -> Result<Drawn, String> {
    let root = svg.find("<svg").ok_or("no <svg> element")?;
    let width = attribute(&svg[root..], "width").ok_or("<svg> has no numeric width")?;
    let mut sizes = Vec::new();
    for piece in svg.split("<text").skip(1) {
        let open = piece.find('>').ok_or("an unclosed <text> tag")?;
        let close = piece.find("</text>").ok_or("a <text> without </text>")?;
        if piece[open + 1..close].trim().is_empty() {
            continue;
        }
        let size = attribute(piece, "font-size").ok_or("a <text> without font-size")?;
        sizes.push(size);
    }
    Ok(Drawn { width, sizes })
}

impl Drawn {
    /// The smallest text at the column's width, px (infinite when there is none).
    fn smallest_read(&self) -> f64 {
        let shrink = (COLUMN / self.width).min(1.0);
        self.sizes
            .iter()
            .fold(f64::INFINITY, |m, &s| m.min(s * shrink))
    }
}

#[test]
fn the_parser_reads_width_and_sizes_and_skips_blank_text() {
    let fixture = r##"<svg width="1500" height="300" viewBox="0 0 1500 300">
<text x="1" y="2" font-family="sans-serif" font-size="12.5" fill="#000">
title
</text>
<text x="1" y="2" font-size="4" >
  </text>
<text font-size="20" x="0">a &lt; b</text>
</svg>"##;
    let drawn = parse(fixture).unwrap();
    assert_eq!(
        drawn,
        Drawn {
            width: 1500.0,
            sizes: vec![12.5, 20.0]
        }
    );
    assert_eq!(drawn.smallest_read(), 6.25);
    let narrow = parse(r#"<svg width="600"><text font-size="11">x</text></svg>"#).unwrap();
    assert_eq!(narrow.smallest_read(), 11.0);
    assert!(parse(r#"<svg><text font-size="11">x</text></svg>"#).is_err());
    assert!(parse(r#"<svg width="600"><text>x</text></svg>"#).is_err());
}

/// The SVG files in `dir`, sorted by name.
pub(crate) fn svgs(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn every_figure_reads_at_the_column_width() {
    let mut rows = Vec::new();
    for path in svgs(Path::new("figures")) {
        let svg = fs::read_to_string(&path).unwrap();
        let drawn = parse(&svg).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        rows.push((name, drawn.width, drawn.smallest_read()));
    }
    println!("figure, width (px), smallest text at {COLUMN} px (px)");
    for (name, width, px) in &rows {
        println!("{name}\t{width}\t{px:.1}");
    }
    let small: Vec<String> = rows
        .iter()
        .filter(|(_, _, px)| *px < FLOOR)
        .map(|(name, _, px)| format!("{name} ({px:.1} px)"))
        .collect();
    assert!(
        small.is_empty(),
        "text under {FLOOR} px at the column's width in: {}",
        small.join(", ")
    );
}
