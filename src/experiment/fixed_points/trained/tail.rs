//! Chapter 5's range-free reading of the stream across depth: the mean step
//! of the last blocks over the mean step of the middle blocks, per sentence,
//! each model against its random twin on the same sentence. A least-squares
//! slope over layers changes sign with which layers it includes; this ratio
//! names its two ranges, and the claim varies them.
//!
//! ```text
//! U_s(l)  = mean over sentence s's tokens of update_l   (or the turn 1 − cosine_l)
//! tail_s  = mean_{l ∈ last k} U_s(l) / mean_{l ∈ middle} U_s(l)
//! gap_s   = tail_s(trained) − tail_s(random)              paired on sentence s
//! settles ⇔ the 95% interval of mean_s gap_s lies below 0
//! ```

use std::ops::Range;

use super::{ModelFindings, Series, Stream};
use crate::claim::Test;
use crate::measure::{Measure, fixed, table_of};
use crate::pretrained::corpus::ByModel;
use crate::stats::Summary;

/// `mean [lo, hi]`, the normal-approximation 95% interval of the mean.
pub fn interval(s: Summary, digits: usize) -> String {
    let (lo, hi) = s.ci95();
    format!(
        "{} [{}, {}]",
        fixed(s.mean, digits),
        fixed(lo, digits),
        fixed(hi, digits)
    )
}

/// The two series the claim reads, with their measure keys.
const READS: [(Series, &str); 2] = [(Series::Update, "update"), (Series::Cosine, "turn")];

/// Measures `{tag}_tail_…` of a stack of `blocks`: for the default window
/// (the first), each series' ratio trained and random; and a table
/// `{tag}_tail` of every window, with the gaps.
pub fn measures(
    tag: &str,
    f: &ByModel<ModelFindings>,
    windows: &[Window],
    blocks: usize,
    unit: &str,
) -> Vec<Measure> {
    let (t, r) = (&f.trained, &f.random);
    let mut m = Vec::new();
    for (series, key) in READS {
        let w = &windows[0];
        m.extend([
            Measure::new(
                format!("{tag}_tail_{key}_trained"),
                interval(w.ratio(t, series), 2),
            ),
            Measure::new(
                format!("{tag}_tail_{key}_random"),
                interval(w.ratio(r, series), 2),
            ),
        ]);
    }
    let rows = windows
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let cells = READS
                .iter()
                .flat_map(|&(series, key)| {
                    [
                        Measure::new(
                            format!("{tag}_tail_{i}_{key}_trained"),
                            fixed(w.ratio(t, series).mean, 2),
                        ),
                        Measure::new(
                            format!("{tag}_tail_{i}_{key}_random"),
                            fixed(w.ratio(r, series).mean, 2),
                        ),
                        Measure::new(
                            format!("{tag}_tail_{i}_{key}_gap"),
                            interval(w.gap(t, r, series), 2),
                        ),
                    ]
                })
                .collect();
            (w.label(blocks, unit), cells)
        })
        .collect();
    let header = [
        "window",
        "update, trained",
        "update, random",
        "update, trained − random [95%]",
        "turn, trained",
        "turn, random",
        "turn, trained − random [95%]",
    ];
    m.extend(table_of(&format!("{tag}_tail"), &header, rows));
    m
}

/// Which blocks are the tail and which the middle, and which tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    /// The last `last` blocks.
    pub last: usize,
    /// The middle blocks, 0-based.
    pub middle: Range<usize>,
    /// Every token but the first (the decoder's sink).
    pub later: bool,
}

impl Window {
    /// The tail blocks of a stack of `blocks`, 0-based.
    pub fn tail(&self, blocks: usize) -> Range<usize> {
        blocks - self.last..blocks
    }

    /// `"last 5 blocks (26–30) over blocks 11–20"`, 1-based.
    pub fn label(&self, blocks: usize, unit: &str) -> String {
        let t = self.tail(blocks);
        let tail = match self.last {
            1 => format!("the last {unit} ({blocks})"),
            k => format!("the last {k} {unit}s ({}–{blocks})", t.start + 1),
        };
        let sink = match (self.later, unit) {
            (true, _) => ", every token but the first (the sink)",
            (false, "block") => ", every token, the first (the sink) included",
            (false, _) => "",
        };
        format!(
            "{tail} over {unit}s {}–{}{sink}",
            self.middle.start + 1,
            self.middle.end
        )
    }

    fn stream<'a>(&self, f: &'a ModelFindings) -> &'a Stream {
        match self.later {
            true => &f.later,
            false => &f.all,
        }
    }

    /// `tail_s` of `series` for every sentence `s` (the cosine read as its turn `1 − cos`).
    pub fn ratios(&self, f: &ModelFindings, series: Series) -> Vec<f64> {
        let s = self.stream(f);
        let step = |l: usize| -> Vec<f64> {
            let xs = s.per_sentence(series, l);
            match series {
                Series::Update => xs,
                Series::Cosine => xs.into_iter().map(|c| 1.0 - c).collect(),
            }
        };
        let over = |r: Range<usize>| -> Vec<f64> {
            let n = r.len() as f64;
            let per: Vec<Vec<f64>> = r.map(step).collect();
            (0..s.lengths.len())
                .map(|i| per.iter().map(|p| p[i]).sum::<f64>() / n)
                .collect()
        };
        let (tail, mid) = (over(self.tail(s.update.len())), over(self.middle.clone()));
        tail.iter().zip(&mid).map(|(t, m)| t / m).collect()
    }

    /// Summary over sentences of `tail_s` of `series`.
    pub fn ratio(&self, f: &ModelFindings, series: Series) -> Summary {
        Summary::of(&self.ratios(f, series))
    }

    /// Summary over sentences of `gap_s`, trained `t` against random `r`.
    pub fn gap(&self, t: &ModelFindings, r: &ModelFindings, series: Series) -> Summary {
        let (a, b) = (self.ratios(t, series), self.ratios(r, series));
        Summary::over(a.iter().zip(&b).map(|(x, y)| x - y))
    }

    /// The claim's two core tests under this window: the upper end of each
    /// gap's 95% interval below 0.
    pub fn tests(&self, t: &ModelFindings, r: &ModelFindings) -> Vec<Test> {
        [
            (Series::Update, "relative update"),
            (Series::Cosine, "turn 1 − cos of consecutive states"),
        ]
        .into_iter()
        .map(|(series, what)| {
            Test::below(
                format!(
                    "upper end of the 95% interval over sentences: {what}, last blocks over middle blocks, trained − random"
                ),
                self.gap(t, r, series).ci95().1,
                0.0,
                2,
            )
        })
        .collect()
    }
}

/// The encoder's windows (6 layers): the default first.
pub fn minilm() -> Vec<Window> {
    vec![
        Window {
            last: 1,
            middle: 2..4,
            later: false,
        },
        Window {
            last: 2,
            middle: 2..4,
            later: false,
        },
        Window {
            last: 1,
            middle: 1..5,
            later: false,
        },
    ]
}

/// The decoder's windows (30 blocks), every token but the first (its
/// massive activation) unless said: the default first.
pub fn smollm2() -> Vec<Window> {
    let w = |last: usize, middle: Range<usize>, later: bool| Window {
        last,
        middle,
        later,
    };
    vec![
        w(5, 10..20, true),
        w(3, 10..20, true),
        w(10, 10..20, true),
        w(5, 5..25, true),
        w(5, 10..20, false),
    ]
}
