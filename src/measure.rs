//! Measured numbers for the prose, and how they are written. A chapter writes
//! `{{measure ch01.rho_untied}}` and the renderer puts in the value its
//! experiment computed, so no number in the book is typed by hand; the
//! registry of every chapter's measures is [`crate::experiment::measures`].
//! Introduced in chapter 1.

use crate::stats::{Summary, median, quantile};

/// One quoted number: its key, its text, and the table it is a cell of, if
/// any. Every measure reaches the reader: quoted in the prose, or shown in a
/// table the prose quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measure {
    pub key: String,
    pub value: String,
    /// The key of the table measure that shows this one (see [`table_of`]).
    pub table: Option<String>,
}

impl Measure {
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> Measure {
        Measure {
            key: key.into(),
            value: value.into(),
            table: None,
        }
    }
}

/// `x` with `digits` decimals; `-0.00` is written `0.00`.
///
/// ```
/// use attention_geometry::measure::fixed;
/// assert_eq!(fixed(-0.001, 2), "0.00");
/// assert_eq!(fixed(1.0 / 3.0, 3), "0.333");
/// ```
pub fn fixed(x: f64, digits: usize) -> String {
    let s = format!("{x:.digits$}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// `x` with `digits + 1` significant digits: in scientific notation when it
/// is tiny or huge, as a plain decimal between 0.001 and 10,000 (and 0 as
/// `0`), so that prose never reads "1.3e-1".
///
/// ```
/// use attention_geometry::measure::sci;
/// assert_eq!(sci(3.24e-15, 1), "3.2e-15");
/// assert_eq!(sci(1e-12, 1), "1.0e-12");
/// assert_eq!(sci(4.6e-16, 0), "5e-16");
/// assert_eq!(sci(0.134, 1), "0.13");
/// assert_eq!(sci(0.00183, 1), "0.0018");
/// assert_eq!(sci(0.0, 1), "0");
/// ```
pub fn sci(x: f64, digits: usize) -> String {
    match x.abs() {
        0.0 => "0".into(),
        a if (1e-3..1e4).contains(&a) => {
            let decimals = digits as i32 - a.log10().floor() as i32;
            fixed(x, decimals.max(0) as usize)
        }
        _ => format!("{x:.digits$e}"),
    }
}

/// `x` with `digits` decimals, or in scientific notation (one decimal) when
/// that would print a nonzero `x` as zero.
///
/// ```
/// use attention_geometry::measure::number;
/// assert_eq!(number(0.123, 2), "0.12");
/// assert_eq!(number(3e-15, 2), "3.0e-15");
/// assert_eq!(number(0.0, 2), "0.00");
/// ```
pub fn number(x: f64, digits: usize) -> String {
    match x != 0.0 && x.abs() < 0.5 * 10f64.powi(-(digits as i32)) {
        true => sci(x, 1),
        false => fixed(x, digits),
    }
}

/// A grid of settings tried, in brackets: `[0.001, 0.003, 0.01]`. One
/// quantity to the reader, however many values it lists.
///
/// ```
/// use attention_geometry::measure::grid;
/// assert_eq!(grid([0.001, 0.01]), "[0.001, 0.01]");
/// assert_eq!(grid(["0.3", "1"]), "[0.3, 1]");
/// ```
pub fn grid<T: std::fmt::Display>(values: impl IntoIterator<Item = T>) -> String {
    let values: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    format!("[{}]", values.join(", "))
}

/// A markdown table: a header row, then `rows`, for a sweep the prose shows
/// whole. Quote it on a line of its own.
///
/// ```
/// use attention_geometry::measure::table;
/// let t = table(&["layer", "ρ"], &[vec!["1".into(), "0.5".into()]]);
/// assert_eq!(t, "| layer | ρ |\n|---|---|\n| 1 | 0.5 |\n");
/// ```
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
    let mut out = line(header.iter().map(|h| h.to_string()).collect());
    out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for row in rows {
        out.push_str(&line(row.iter().map(|c| c.replace('|', "\\|")).collect()));
    }
    out
}

/// A table measure `key` whose rows are a label and cells, and the cells
/// themselves, each quotable on its own and marked as shown in the table.
///
/// ```
/// use attention_geometry::measure::{Measure, table_of};
/// let rows = vec![("layer 1".to_string(), vec![Measure::new("rho_l1", "0.5")])];
/// let ms = table_of("rho_table", &["layer", "ρ"], rows);
/// assert_eq!(ms[0].table.as_deref(), Some("rho_table"));
/// assert_eq!(ms[1].value, "| layer | ρ |\n|---|---|\n| layer 1 | 0.5 |\n");
/// ```
pub fn table_of(key: &str, header: &[&str], rows: Vec<(String, Vec<Measure>)>) -> Vec<Measure> {
    let text: Vec<Vec<String>> = rows
        .iter()
        .map(|(label, cells)| {
            let mut row = vec![label.clone()];
            row.extend(cells.iter().map(|c| c.value.clone()));
            row
        })
        .collect();
    let mut out: Vec<Measure> = rows
        .into_iter()
        .flat_map(|(_, cells)| cells)
        .map(|c| Measure {
            table: Some(key.to_string()),
            ..c
        })
        .collect();
    out.push(Measure::new(key, table(header, &text)));
    out
}

/// `mean ± sd` with `digits` decimals.
///
/// ```
/// use attention_geometry::measure::pm;
/// use attention_geometry::stats::Summary;
/// assert_eq!(pm(Summary::of(&[1.0, 2.0, 3.0]), 1), "2.0 ± 1.0");
/// ```
pub fn pm(s: Summary, digits: usize) -> String {
    format!("{} ± {}", fixed(s.mean, digits), fixed(s.sd, digits))
}

/// `n` of `total` `things` as a reader says it: `none of the 80 runs`,
/// `all 80 runs`, else `3 of the 80 runs`; `no runs` when there are none.
/// One helper, so that no page prints "0 of" or "only 0".
///
/// ```
/// use attention_geometry::measure::of_total;
/// assert_eq!(of_total(0, 80, "runs"), "none of the 80 runs");
/// assert_eq!(of_total(80, 80, "runs"), "all 80 runs");
/// assert_eq!(of_total(3, 80, "runs"), "3 of the 80 runs");
/// assert_eq!(of_total(0, 0, "sinks"), "no sinks");
/// ```
pub fn of_total(n: usize, total: usize, things: &str) -> String {
    match n {
        0 if total == 0 => format!("no {things}"),
        0 => format!("none of the {total} {things}"),
        n if n == total => format!("all {total} {things}"),
        n => format!("{n} of the {total} {things}"),
    }
}

/// A share `x` of some `things` as a reader says it: `all seeds`,
/// `no seeds`, `nearly all seeds` (rounds to 1.00), else `a share 0.92 of
/// seeds`, so that no page prints "a share 1.00".
///
/// ```
/// use attention_geometry::measure::share_of;
/// assert_eq!(share_of(1.0, "seeds"), "all seeds");
/// assert_eq!(share_of(0.0, "seeds"), "no seeds");
/// assert_eq!(share_of(0.999, "seeds"), "nearly all seeds");
/// assert_eq!(share_of(0.25, "seeds"), "a share 0.25 of seeds");
/// ```
pub fn share_of(x: f64, things: &str) -> String {
    match fixed(x, 2).as_str() {
        _ if x >= 1.0 => format!("all {things}"),
        _ if x <= 0.0 => format!("no {things}"),
        "1.00" => format!("nearly all {things}"),
        "0.00" => format!("almost no {things}"),
        share => format!("a share {share} of {things}"),
    }
}

/// A sample's centre and spread: `mean ± sd`, or, where the sample is
/// skewed (one sign, and its sd larger than its mean), `median m
/// (quartiles q1–q3)`, which a long tail cannot carry off.
///
/// ```
/// use attention_geometry::measure::centre;
/// assert_eq!(centre(&[1.0, 2.0, 3.0], 1), "2.0 ± 1.0");
/// assert_eq!(centre(&[0.0, 0.5, 1.0, 90.0], 1), "median 0.8 (quartiles 0.4–23.2)");
/// assert_eq!(centre(&[-1.0, 0.0, 1.0], 1), "0.0 ± 1.0");
/// ```
pub fn centre(xs: &[f64], digits: usize) -> String {
    let s = Summary::of(xs);
    let one_sign = xs.iter().all(|&x| x >= 0.0) || xs.iter().all(|&x| x <= 0.0);
    match one_sign && s.sd > s.mean.abs() {
        true => format!(
            "median {} (quartiles {}–{})",
            fixed(median(xs), digits),
            fixed(quantile(xs, 0.25), digits),
            fixed(quantile(xs, 0.75), digits)
        ),
        false => pm(s, digits),
    }
}

/// A share over runs, `mean ± sd` of some `things`, as a reader says it:
/// [`share_of`]'s words where every run gave the same share, else
/// `a share 0.40 ± 0.05 of rows`.
///
/// ```
/// use attention_geometry::measure::share_over;
/// use attention_geometry::stats::Summary;
/// assert_eq!(share_over(Summary::of(&[1.0, 1.0]), "rows"), "all rows");
/// assert_eq!(share_over(Summary::of(&[0.4, 0.5]), "rows"), "a share 0.45 ± 0.07 of rows");
/// ```
pub fn share_over(s: Summary, things: &str) -> String {
    match s.sd == 0.0 {
        true => share_of(s.mean, things),
        false => format!("a share {} of {things}", pm(s, 2)),
    }
}

/// A range from `lo` to `hi`, written `lo – hi`, or `no spread` when the
/// two read the same.
///
/// ```
/// use attention_geometry::measure::between;
/// assert_eq!(between("8.3e-5".into(), "0.34".into()), "8.3e-5 – 0.34");
/// assert_eq!(between("1.0e-15".into(), "1.0e-15".into()), "no spread");
/// ```
pub fn between(lo: String, hi: String) -> String {
    match lo == hi {
        true => "no spread".to_string(),
        false => format!("{lo} – {hi}"),
    }
}

/// A step count as text, `"> cap"` beyond the budget `cap`: a run that
/// never reached its threshold.
///
/// ```
/// use attention_geometry::measure::steps;
/// assert_eq!((steps(420.4, 3000), steps(f64::INFINITY, 3000)), ("420".into(), "> 3000".into()));
/// ```
pub fn steps(s: f64, cap: usize) -> String {
    match s > cap as f64 {
        true => format!("> {cap}"),
        false => format!("{s:.0}"),
    }
}

/// The number a measure's text starts with (`0.58 ± 0.07` → 0.58), if it
/// starts with one; tables and words have none.
///
/// ```
/// use attention_geometry::measure::leading_number;
/// assert_eq!(leading_number("0.58 ± 0.07"), Some(0.58));
/// assert_eq!(leading_number("−0.03"), Some(-0.03));
/// assert_eq!(leading_number("3.2e-15"), Some(3.2e-15));
/// assert_eq!(leading_number("| layer | ρ |"), None);
/// ```
pub fn leading_number(text: &str) -> Option<f64> {
    let text = text.replace('−', "-");
    let head = text.split_whitespace().next()?;
    let head = head.trim_end_matches(['%', ',', ';']).replace(',', "");
    head.parse().ok().filter(|x: &f64| x.is_finite())
}

/// Every measure as a listing: `key  value  text` aligned for a terminal,
/// or, with `tsv`, under the header `key\tvalue\ttable\ttext` (the value is
/// empty where the text is not a number; newlines in a text become `\n`).
///
/// ```
/// use attention_geometry::measure::{Measure, listing};
/// let ms = [Measure::new("ch01.rho", "0.56 ± 0.02")];
/// assert_eq!(listing(&ms, true), "key\tvalue\ttable\ttext\nch01.rho\t0.56\t\t0.56 ± 0.02\n");
/// ```
pub fn listing(measures: &[Measure], tsv: bool) -> String {
    let clean = |s: &str| s.replace('\t', " ").replace('\n', "\\n");
    let value = |m: &Measure| leading_number(&m.value).map_or(String::new(), |x| x.to_string());
    let mut out = String::new();
    if tsv {
        out.push_str("key\tvalue\ttable\ttext\n");
    }
    let width = measures.iter().map(|m| m.key.len()).max().unwrap_or(0);
    for m in measures {
        match tsv {
            true => out.push_str(&format!(
                "{}\t{}\t{}\t{}\n",
                m.key,
                value(m),
                m.table.as_deref().unwrap_or(""),
                clean(&m.value)
            )),
            false => {
                let first = m.value.lines().next().unwrap_or("");
                let more = if m.value.lines().count() > 1 {
                    " …"
                } else {
                    ""
                };
                out.push_str(&format!("{:<width$}  {first}{more}\n", m.key));
            }
        }
    }
    out
}
