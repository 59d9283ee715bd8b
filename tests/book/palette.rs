//! One colour per concept (issue 38): wherever a figure's key names a
//! concept the book compares — the random-weight baseline, tied, untied,
//! identity and mimetic projections, each token mixer, each of chapter 5's
//! architectures — the key's swatch is drawn in that concept's colour from
//! `figures::palette`.
//!
//! One crossing is allowed, and only one: a key that crosses a measure with
//! the model's weights colours the measure and dashes the random-weight
//! baseline (`key::models`, `style::model_line`), so there "random" may be
//! any colour if its swatch is dashed. The colours are the code's, so the
//! English figures decide for both editions.

use attention_geometry::experiment::fixed_points::trained_absorption::{BOOK, architectures};
use attention_geometry::figures::palette;
use plotters::style::RGBColor;

use super::legends::{attr, number};

/// A coloured mark: its box `[x0, x1, y0, y1]` and its colour.
#[derive(Clone, Copy, Debug)]
struct Mark {
    x: [f64; 2],
    y: [f64; 2],
    colour: [u8; 3],
}

fn hex(colour: &str) -> Option<[u8; 3]> {
    let h = colour.strip_prefix('#')?;
    let c = |i: usize| u8::from_str_radix(h.get(i..i + 2)?, 16).ok();
    Some([c(0)?, c(2)?, c(4)?])
}

fn rgb(c: RGBColor) -> [u8; 3] {
    [c.0, c.1, c.2]
}

/// The lines, boxes and dots of `svg` drawn in a colour of the palette.
fn marks(svg: &str) -> Vec<Mark> {
    let palette: Vec<[u8; 3]> = attention_geometry::figures::style::PALETTE
        .iter()
        .map(|&c| rgb(c))
        .collect();
    let mut out = Vec::new();
    for tag in svg.split('<').map(|t| t.split('>').next().unwrap_or(t)) {
        let Some(colour) = ["stroke", "fill"]
            .iter()
            .filter_map(|k| attr(tag, k).and_then(hex))
            .find(|c| palette.contains(c))
        else {
            continue;
        };
        let (x, y) = if tag.starts_with("polyline ") || tag.starts_with("polygon ") {
            let v: Vec<f64> = attr(tag, "points")
                .unwrap_or("")
                .split([' ', ','])
                .filter_map(|v| v.parse().ok())
                .collect();
            let (xs, ys): (Vec<f64>, Vec<f64>) = v.chunks_exact(2).map(|p| (p[0], p[1])).unzip();
            let span = |s: &[f64]| {
                [
                    s.iter().copied().fold(f64::INFINITY, f64::min),
                    s.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ]
            };
            (span(&xs), span(&ys))
        } else if tag.starts_with("rect ") {
            let (x, y) = (number(tag, "x"), number(tag, "y"));
            (
                [x, x + number(tag, "width")],
                [y, y + number(tag, "height")],
            )
        } else if tag.starts_with("circle ") {
            let (x, y) = (number(tag, "cx"), number(tag, "cy"));
            ([x, x], [y, y])
        } else {
            continue;
        };
        out.push(Mark { x, y, colour });
    }
    out
}

/// Each text of `svg`: the middle of its line's left end, and its words.
fn texts(svg: &str) -> Vec<((f64, f64), String)> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|t| {
            let (open, rest) = t.split_once('>')?;
            let open = format!(" {open}");
            let open = open.as_str();
            let words = rest.split("</text>").next()?.trim();
            let (x, y, size) = (
                number(open, "x"),
                number(open, "y"),
                number(open, "font-size"),
            );
            // plotters writes a top-anchored line as `dy="0.76em"`
            let middle = match attr(open, "dy") {
                Some("0.76em") => y + size / 2.0,
                _ => y,
            };
            let words = words
                .replace("&apos;", "'")
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">");
            Some(((x, middle), words))
        })
        .collect()
}

/// A key's swatch for the text at `at`: the rightmost flat mark ending at
/// most 40 px to its left on its line, and whether that swatch is dashed
/// (two or more pieces of its colour with a gap between them).
fn swatch(marks: &[Mark], at: (f64, f64)) -> Option<(Mark, bool)> {
    let on_line = |m: &&Mark| {
        m.x[1] <= at.0 + 1.0
            && m.x[1] >= at.0 - 40.0
            && m.y[0] - 3.0 <= at.1
            && at.1 <= m.y[1] + 3.0
            && m.y[1] - m.y[0] < 16.0
    };
    let near: Vec<&Mark> = marks.iter().filter(on_line).collect();
    let s = **near.iter().max_by(|a, b| a.x[1].total_cmp(&b.x[1]))?;
    let mut pieces: Vec<&&Mark> = near
        .iter()
        .filter(|m| m.colour == s.colour && m.y[1] - m.y[0] < 2.0)
        .collect();
    pieces.sort_by(|a, b| a.x[0].total_cmp(&b.x[0]));
    let dashed = pieces.windows(2).any(|w| w[1].x[0] - w[0].x[1] > 1.0);
    Some((s, dashed))
}

/// What a key's words name, and its colour: `None` for the random-weight
/// baseline, which may instead be dashed. The first rule that matches
/// decides; words that name no concept give no rule.
fn concept(words: &str) -> Option<(&'static str, Option<RGBColor>)> {
    let has = |w: &str| {
        words.match_indices(w).any(|(at, _)| {
            let before = words[..at].chars().next_back();
            let after = words[at + w.len()..].chars().next();
            !before.is_some_and(char::is_alphabetic) && !after.is_some_and(char::is_alphabetic)
        })
    };
    if has("random direction") || has("random directions") || has("at random") {
        return None;
    }
    if has("random") || has("initialisation") {
        return Some(("random", None));
    }
    let architecture = architectures(BOOK.task)
        .iter()
        .position(|(name, _)| words.starts_with(name));
    if let Some(a) = architecture {
        return Some((
            "an architecture of chapter 5",
            Some(palette::ARCHITECTURES[a]),
        ));
    }
    let rules: [(&str, RGBColor); 10] = [
        (
            "Zoology",
            palette::mixer(attention_geometry::mixer::Mixer::Normalised),
        ),
        ("Gated DeltaNet", palette::GATED_DELTANET),
        ("DeltaNet", palette::DELTANET),
        ("KDA", palette::KDA),
        ("softmax", palette::SOFTMAX),
        ("linear", palette::LINEAR),
        ("untied", palette::UNTIED),
        ("tied", palette::TIED),
        ("identity", palette::IDENTITY),
        ("mimetic", palette::MIMETIC),
    ];
    rules
        .into_iter()
        .find(|(w, _)| has(w))
        .map(|(w, c)| (w, Some(c)))
}

/// The keys of `svg` that name a concept: their words, the concept, and
/// whether the swatch is in its colour.
fn keys(svg: &str) -> Vec<(String, &'static str, bool, [u8; 3])> {
    let marks = marks(svg);
    texts(svg)
        .into_iter()
        .filter_map(|(at, words)| {
            let (name, want) = concept(&words)?;
            let (mark, dashed) = swatch(&marks, at)?;
            let ok = match want {
                Some(c) => mark.colour == rgb(c),
                None => dashed || mark.colour == rgb(palette::RANDOM),
            };
            Some((words, name, ok, mark.colour))
        })
        .collect()
}

/// The keys of `svg` whose swatch is not their concept's colour.
fn miscoloured(svg: &str) -> Vec<String> {
    keys(svg)
        .into_iter()
        .filter(|k| !k.2)
        .map(|(words, name, _, colour)| format!("“{words}” ({name}) drawn in {colour:?}"))
        .collect()
}

#[test]
fn a_key_in_another_concepts_colour_is_found() {
    let key = |colour: &str, words: &str| {
        format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" points=\"60,100 80,100 \"/>\
             <text x=\"86\" y=\"100\" dy=\"0.5ex\" font-size=\"14\">{words}</text>"
        )
    };
    assert!(miscoloured(&key("#D55E00", "tied")).is_empty());
    assert_eq!(miscoloured(&key("#0072B2", "tied")).len(), 1);
    assert_eq!(miscoloured(&key("#0072B2", "random weights")).len(), 1);
    assert!(miscoloured(&key("#787878", "random weights")).is_empty());
    assert!(miscoloured(&key("#0072B2", "trained")).is_empty());
    // a dashed swatch marks the random-weight baseline in any colour
    let dashed = "<polyline fill=\"none\" stroke=\"#0072B2\" points=\"60,100 64,100 \"/>\
                  <polyline fill=\"none\" stroke=\"#0072B2\" points=\"68,100 72,100 \"/>\
                  <text x=\"86\" y=\"100\" dy=\"0.5ex\" font-size=\"14\">weight, random</text>";
    assert!(miscoloured(dashed).is_empty());
}

#[test]
fn every_key_draws_its_concept_in_its_colour() {
    let (mut found, mut checked) = (Vec::new(), 0);
    for path in super::legibility::svgs(std::path::Path::new("figures")) {
        let svg = std::fs::read_to_string(&path).unwrap();
        checked += keys(&svg).len();
        for m in miscoloured(&svg) {
            found.push(format!("{}: {m}", path.display()));
        }
    }
    // the check reads the keys it should: most of the book's figures have one
    assert!(
        checked > 60,
        "only {checked} keys name a concept: is the SVG parsed?"
    );
    assert!(
        found.is_empty(),
        "keys in another colour than their concept's (src/figures/palette.rs):\n{}",
        found.join("\n")
    );
}
