//! No legend covers data (issue 38).
//! In every committed figure of both editions, no
//! legend box (plotters' series labels: a white rectangle, then a black
//! border in the same place) meets a mark drawn before it: a coloured or
//! black line, a dot, or a filled bar. Light grey grid lines may pass
//! under a legend.

use std::fs;

/// The drawing elements of an SVG, in document order.
fn elements(svg: &str) -> Vec<&str> {
    svg.split('<')
        .filter(|t| {
            ["rect ", "polyline ", "circle "]
                .iter()
                .any(|n| t.starts_with(n))
        })
        .map(|t| t.split('>').next().unwrap_or(t))
        .collect()
}

/// The value of attribute `name` of an element.
pub(crate) fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = element.find(&key)? + key.len();
    element[at..].split('"').next()
}

pub(crate) fn number(element: &str, name: &str) -> f64 {
    attr(element, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

/// `[x, y, width, height]` of a `rect`.
fn rect(element: &str) -> [f64; 4] {
    ["x", "y", "width", "height"].map(|k| number(element, k))
}

/// No paint, or a light grey (the grid's).
fn faint(colour: Option<&str>) -> bool {
    let Some(hex) = colour.and_then(|c| c.strip_prefix('#')) else {
        return true;
    };
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    let (r, g, b) = (channel(0), channel(2), channel(4));
    r.max(g).max(b) - r.min(g).min(b) < 12 && r > 150
}

/// Whether the segment from `a` to `b` meets the rectangle `r`
/// (Liang–Barsky clipping).
fn meets(a: (f64, f64), b: (f64, f64), r: [f64; 4]) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - r[0]),
        (dx, r[0] + r[2] - a.0),
        (-dy, a.1 - r[1]),
        (dy, r[1] + r[3] - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// Whether mark `element` meets the rectangle `r`.
fn covers(element: &str, r: [f64; 4]) -> bool {
    if element.starts_with("polyline") {
        if faint(attr(element, "stroke")) {
            return false;
        }
        let values: Vec<f64> = attr(element, "points")
            .unwrap_or("")
            .split([' ', ','])
            .filter_map(|v| v.parse().ok())
            .collect();
        let points: Vec<(f64, f64)> = values.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        match points.as_slice() {
            [p] => meets(*p, *p, r),
            _ => points.windows(2).any(|w| meets(w[0], w[1], r)),
        }
    } else if element.starts_with("circle") {
        let (x, y, radius) = (
            number(element, "cx"),
            number(element, "cy"),
            number(element, "r"),
        );
        meets(
            (x, y),
            (x, y),
            [
                r[0] - radius,
                r[1] - radius,
                r[2] + 2.0 * radius,
                r[3] + 2.0 * radius,
            ],
        )
    } else {
        let [x, y, w, h] = rect(element);
        let painted = !faint(attr(element, "fill")) || !faint(attr(element, "stroke"));
        painted && x < r[0] + r[2] && r[0] < x + w && y < r[1] + r[3] && r[1] < y + h
    }
}

/// Each legend box of `svg` that meets a mark drawn before it.
fn legends_over_data(svg: &str) -> Vec<[f64; 4]> {
    let all = elements(svg);
    let mut found = Vec::new();
    for (i, border) in all.iter().enumerate() {
        let boxed = border.starts_with("rect")
            && attr(border, "fill") == Some("none")
            && attr(border, "stroke") == Some("#000000");
        if !boxed {
            continue;
        }
        let r = rect(border);
        let background = all[..i].iter().rposition(|e| {
            e.starts_with("rect") && attr(e, "fill") == Some("#FFFFFF") && rect(e) == r
        });
        if background.is_some_and(|b| all[..b].iter().any(|e| covers(e, r))) {
            found.push(r);
        }
    }
    found
}

#[test]
fn a_legend_over_a_line_or_a_bar_is_found_and_one_over_the_grid_is_not() {
    let legend = "<rect x=\"10\" y=\"10\" width=\"20\" height=\"10\" fill=\"#FFFFFF\" stroke=\"none\"/>\
                  <rect x=\"10\" y=\"10\" width=\"20\" height=\"10\" fill=\"none\" stroke=\"#000000\"/>";
    let grid = "<polyline fill=\"none\" stroke=\"#EBEBEB\" points=\"0,15 100,15 \"/>";
    let line = "<polyline fill=\"none\" stroke=\"#0072B2\" points=\"0,0 40,30 \"/>";
    let bar =
        "<rect x=\"25\" y=\"18\" width=\"4\" height=\"40\" fill=\"#E69F00\" stroke=\"none\"/>";
    assert!(legends_over_data(&format!("{grid}{legend}")).is_empty());
    assert_eq!(legends_over_data(&format!("{line}{legend}")).len(), 1);
    assert_eq!(legends_over_data(&format!("{bar}{legend}")).len(), 1);
    // the legend's own keys, drawn after its box, are not data
    assert!(legends_over_data(&format!("{legend}{line}")).is_empty());
}

/// No legend box of the committed figures (both editions) covers data
/// (issue 38). Where the data fills every corner, the key goes into its own
/// strip below the panels (`src/figures/key.rs`).
#[test]
fn no_legend_covers_data() {
    let mut covered = Vec::new();
    for dir in ["figures", "figures/zh"] {
        for path in super::legibility::svgs(std::path::Path::new(dir)) {
            for r in legends_over_data(&fs::read_to_string(&path).unwrap()) {
                covered.push(format!("{}: the legend at {r:?}", path.display()));
            }
        }
    }
    assert!(
        covered.is_empty(),
        "{} legends over data (move each to a corner this test finds empty \
         in both editions, or into a key strip):\n{}",
        covered.len(),
        covered.join("\n")
    );
}
