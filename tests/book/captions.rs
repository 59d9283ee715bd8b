//! Captions name only the colours their figures draw: every colour word in
//! a figure's alt text or caption, in either edition, is drawn in that
//! figure, as the palette's colour itself or a tint of it towards white (a
//! heat map's shades); "grey" is any neutral between black and white.

use std::fs;

use attention_geometry::figures::style::PALETTE;

/// A colour word and the palette entry it names (`None`: any grey). Longer
/// words first, so that "sky blue" is not read as "blue".
const EN: [(&str, Option<usize>); 11] = [
    ("sky blue", Some(5)),
    ("sky-blue", Some(5)),
    ("sky", Some(5)),
    ("vermillion", Some(1)),
    ("blue", Some(0)),
    ("green", Some(2)),
    ("reddish purple", Some(3)),
    ("purple", Some(3)),
    ("orange", Some(4)),
    ("grey", None),
    ("gray", None),
];
const ZH: [(&str, Option<usize>); 7] = [
    ("天蓝", Some(5)),
    ("朱红", Some(1)),
    ("蓝", Some(0)),
    ("绿", Some(2)),
    ("紫", Some(3)),
    ("橙", Some(4)),
    ("灰", None),
];

/// The colours an SVG draws (`fill` and `stroke`, `#RRGGBB`).
fn drawn(svg: &str) -> Vec<[u8; 3]> {
    let mut out = Vec::new();
    for attr in ["fill=\"#", "stroke=\"#"] {
        for (at, _) in svg.match_indices(attr) {
            let hex = &svg[at + attr.len()..];
            let channel = |i: usize| {
                hex.get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            };
            if let (Some(r), Some(g), Some(b)) = (channel(0), channel(2), channel(4)) {
                out.push([r, g, b]);
            }
        }
    }
    out
}

/// Whether `c` is `base` or a tint of it towards white: `c = base + t (255 − base)`
/// for one `t` in [0, 0.9] on every channel (to 3 levels).
fn tint_of(c: [u8; 3], base: [u8; 3]) -> bool {
    let t: Vec<f64> = (0..3)
        .filter(|&i| base[i] < 250)
        .map(|i| (c[i] as f64 - base[i] as f64) / (255.0 - base[i] as f64))
        .collect();
    let lo = t.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = t.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    lo > -0.02 && hi <= 0.9 && hi - lo < 0.03
}

/// Whether a figure drawing `colours` shows the colour a word names.
fn shows(colours: &[[u8; 3]], named: Option<usize>) -> bool {
    colours.iter().any(|&c| match named {
        Some(i) => tint_of(c, [PALETTE[i].0, PALETTE[i].1, PALETTE[i].2]),
        None => c[0] == c[1] && c[1] == c[2] && c[0] > 0 && c[0] < 255,
    })
}

/// Every figure a page shows, with its alt text and caption: `(name, text)`.
fn described(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in page.lines().filter(|l| l.starts_with("![")) {
        if let Some(at) = line.rfind("](figures/") {
            let name = line[at + 10..].trim_end_matches(".svg)").to_string();
            out.push((name, line[2..at].to_string()));
        }
    }
    for paragraph in page.split("\n\n") {
        let Some(rest) = paragraph.trim_start().strip_prefix("**{{figure ") else {
            continue;
        };
        if let Some((name, caption)) = rest.split_once("}}.**") {
            out.push((name.to_string(), caption.to_string()));
        }
    }
    out
}

/// The colour words of `text` that `colours` does not show.
fn unshown(text: &str, words: &[(&str, Option<usize>)], colours: &[[u8; 3]]) -> Vec<String> {
    let mut text = text.to_lowercase();
    let mut out = Vec::new();
    for &(word, named) in words {
        if text.contains(word) {
            text = text.replace(word, " ");
            if !shows(colours, named) {
                out.push(word.to_string());
            }
        }
    }
    out
}

#[test]
fn a_tint_is_read_as_its_colour_and_a_word_needs_its_colour() {
    let vermillion = [213, 94, 0];
    assert!(tint_of([248, 227, 210], vermillion));
    assert!(!tint_of([230, 159, 0], vermillion)); // orange is not a tint of vermillion
    let svg = "<rect fill=\"#EAAD7D\"/><line stroke=\"#969696\"/>";
    assert_eq!(
        unshown("vermillion and grey", &EN, &drawn(svg)),
        Vec::<String>::new()
    );
    assert_eq!(unshown("orange", &EN, &drawn(svg)), ["orange"]);
    assert_eq!(unshown("天蓝与蓝", &ZH, &drawn(svg)), ["天蓝", "蓝"]);
}

#[test]
fn captions_name_only_colours_their_figures_draw() {
    let mut wrong = Vec::new();
    for (dir, words) in [("chapters", &EN[..]), ("chapters/zh", &ZH[..])] {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "md") {
                continue;
            }
            for (name, text) in described(&fs::read_to_string(&path).unwrap()) {
                let own = format!("figures/zh/{name}.svg");
                let file = match dir == "chapters/zh" && fs::metadata(&own).is_ok() {
                    true => own,
                    false => format!("figures/{name}.svg"),
                };
                let colours = drawn(&fs::read_to_string(&file).unwrap());
                for word in unshown(&text, words, &colours) {
                    wrong.push(format!("{}: {name} names {word:?}", path.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "colours the figures do not draw:\n{}",
        wrong.join("\n")
    );
}
