//! Why a claim's verdict follows from its rows, in one line: which rule
//! decided it, and which row (numbered as in the card: core rows, then
//! scope rows), or which trained arm's runs, was decisive.

use super::plateau::Ending;
use super::{Claim, Test, Verdict};
use crate::edition::words::{Words, fill};

/// The 1-based number of the first row of `tests` that fails, counting from `first`.
fn failing(tests: &[Test], first: usize) -> Option<usize> {
    tests
        .iter()
        .position(|t| !t.passes())
        .map(|i| first + i + 1)
}

/// One sentence: the rule that gives `c` its verdict, and the decisive row.
///
/// ```
/// use attention_geometry::claim::{Claim, Test, reason};
/// use attention_geometry::edition::words::EN;
/// let c = Claim::empirical("x", "s")
///     .core(Test::holds("a", true))
///     .core(Test::holds("b", true))
///     .under("target: block", vec![Test::holds("a", true), Test::holds("b", false)]);
/// assert_eq!(reason(&c, &EN), "the core held under the default or some choice, but row 2 failed under “target: block”.");
/// ```
pub fn reason(c: &Claim, w: &Words) -> String {
    let row = |n: Option<usize>| n.map_or(String::new(), |n| n.to_string());
    let core = c.core.len();
    match c.verdict() {
        Verdict::Supported => w.why_supported.to_string(),
        Verdict::Checked => w.why_checked.to_string(),
        Verdict::Undecided => {
            let arm = c.plateau.iter().find(|r| !r.decides());
            let template = match arm.map_or(Ending::Capped, |r| r.ending) {
                Ending::Capped => w.why_undecided[0],
                Ending::Stalled => w.why_undecided[1],
                Ending::Rising => w.why_undecided[2],
            };
            fill(template, &[arm.map_or("", |r| r.arm.as_str())])
        }
        Verdict::Contradicted => fill(w.why_contradicted, &[&row(failing(&c.core, 0))]),
        Verdict::Failed => {
            let all: Vec<Test> = c.core.iter().chain(&c.scope).cloned().collect();
            let choice = c.choices.iter().find(|ch| !ch.holds());
            let n = failing(&all, 0).or_else(|| choice.and_then(|ch| failing(&ch.core, 0)));
            fill(w.why_failed, &[&row(n)])
        }
        Verdict::Qualified => match failing(&c.scope, core) {
            Some(n) if c.core_everywhere() => fill(w.why_scope, &[&n.to_string()]),
            _ => {
                // the first failing core row, under the default or the first choice that fails it
                let (n, name) = match failing(&c.core, 0) {
                    Some(n) => (Some(n), the_default(c, w)),
                    None => c
                        .choices
                        .iter()
                        .find(|ch| !ch.holds())
                        .map_or((None, String::new()), |ch| {
                            (failing(&ch.core, 0), fill(w.quoted, &[&ch.name]))
                        }),
                };
                fill(w.why_flips, &[&row(n), &name])
            }
        },
    }
}

/// The default choice's name, quoted, or the edition's "the default".
fn the_default(c: &Claim, w: &Words) -> String {
    match c.default_choice.as_str() {
        "" => w.the_default.to_string(),
        d => fill(w.quoted, &[d]),
    }
}
