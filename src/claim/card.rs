//! One claim as the book shows it: a card that judges itself. Its verdict as
//! a coloured badge, the sentence under test set apart (the essay's, or the
//! book's own), one row per prediction, what was varied and replicated, and
//! one plain sentence saying what the verdict means.
//!
//! ```text
//! [verdict] chNN.slug · kind · evidence · registry ↗
//! THE ESSAY  the sentence under test
//! | role | prediction | measured | margin | held |      one row per core and scope test
//! setting, varied, replications, plateau               (as a list, where present)
//! What it means: …                                     (computed from the tests)
//! ```
//!
//! The card is Markdown inside an HTML `div` whose `id` is the claim's, so
//! a link `page.md#chNN.slug` lands on it; the colours are `chapters/book.css`'s.

use super::{Claim, Kind, Relation, Source, Test, Verdict};
use crate::measure::{number, table};

/// Where the book shows each claim, for the cards' and the registry's links.
pub trait Pages {
    /// The page (`01-coordinate-mismatch.md`) whose card is claim `id`'s.
    fn card(&self, id: &str) -> Option<&str>;
    /// The page of the registry of every claim.
    fn registry(&self) -> Option<&str>;
}

/// The anchor of claim `id`'s row in the registry.
pub fn registry_anchor(id: &str) -> String {
    format!("registry-{id}")
}

/// A verdict as a coloured badge.
pub fn badge(v: Verdict) -> String {
    format!("<span class=\"verdict verdict-{v}\">{v}</span>")
}

/// `quantity relation bound`'s margin: how far the value is inside (+) or
/// outside (−) its bound; empty for a statement.
pub fn margin(t: &Test) -> String {
    let m = match t.relation {
        Relation::Below => t.bound - t.value,
        Relation::Above => t.value - t.bound,
        Relation::Near(tol) => tol - (t.value - t.bound).abs(),
        Relation::Holds => return String::new(),
    };
    match minus(number(m, t.digits)) {
        text if m > 0.0 => format!("+{text}"),
        text => text,
    }
}

/// A number's text with a true minus sign.
fn minus(text: String) -> String {
    match text.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => text,
    }
}

/// The measured value alone: the number, or yes/no for a statement.
fn value(t: &Test) -> String {
    match t.relation {
        Relation::Holds if t.passes() => "yes".into(),
        Relation::Holds => "no".into(),
        _ => minus(number(t.value, t.digits)),
    }
}

fn mark(held: bool) -> &'static str {
    match held {
        true => "<span class=\"held\">✓</span>",
        false => "<span class=\"missed\">✗</span>",
    }
}

/// The card's table: one row per core and scope test.
fn predictions(c: &Claim) -> String {
    let row = |role: &str, t: &Test| {
        vec![
            role.to_string(),
            t.prediction(),
            value(t),
            margin(t),
            mark(t.passes()).to_string(),
        ]
    };
    let rows: Vec<Vec<String>> = c
        .core
        .iter()
        .map(|t| row("core", t))
        .chain(c.scope.iter().map(|t| row("scope", t)))
        .collect();
    table(&["", "prediction", "measured", "margin", "held"], &rows)
}

/// Names of the choices whose core holds (`true`) or fails (`false`),
/// the default first, each in quotes (a name may itself contain `;`).
fn choices_where(c: &Claim, holds: bool) -> Vec<String> {
    let default = match c.default_choice.as_str() {
        "" => "the default".to_string(),
        d => format!("“{d}”"),
    };
    let mut out = Vec::new();
    if c.core_holds() == holds {
        out.push(default);
    }
    out.extend(
        c.choices
            .iter()
            .filter(|ch| ch.holds() == holds)
            .map(|ch| format!("“{}”", ch.name)),
    );
    out
}

/// Names as a list a sentence can hold: joined by commas and a final "and".
fn named(names: &[String]) -> String {
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One plain sentence saying what the verdict means, from the tests alone.
pub fn meaning(c: &Claim) -> String {
    let varied = !c.choices.is_empty();
    match c.verdict() {
        Verdict::Supported if varied => {
            "Every prediction held, under the default and under every choice varied.".into()
        }
        Verdict::Supported => "Every prediction held.".into(),
        Verdict::Contradicted if varied => {
            "The core prediction failed, under the default and under every choice varied.".into()
        }
        Verdict::Contradicted => "The core prediction failed.".into(),
        Verdict::Qualified if !c.capped.iter().all(Test::passes) => {
            "Most runs of a trained arm hit the step cap or never left chance: the measurement cannot decide the claim.".into()
        }
        Verdict::Qualified if !c.core_everywhere() => {
            let (holds, fails) = (choices_where(c, true), choices_where(c, false));
            match holds.len() + fails.len() {
                // a long list reads as a count; the card's list marks each
                n if n > 4 => format!(
                    "The core prediction holds under {} of the {n} settings tried (the default and every choice varied; ✓ marks a choice where it holds) and fails under {}: the answer depends on that choice.",
                    holds.len(),
                    fails.len()
                ),
                _ => format!(
                    "The core prediction holds under {} and fails under {}: the answer depends on that choice.",
                    named(&holds),
                    named(&fails)
                ),
            }
        }
        Verdict::Qualified => {
            let failed: Vec<String> = c
                .scope
                .iter()
                .filter(|t| !t.passes())
                .map(|t| t.quantity.clone())
                .collect();
            format!(
                "The core prediction held, but not within the scope tested: {} failed.",
                failed.join("; ")
            )
        }
        Verdict::Checked => match c.kind {
            Kind::Construction => "True by construction, and every check of the construction held.",
            _ => "Proved, and every numerical check of the proof held.",
        }
        .into(),
        Verdict::Failed => "A check failed: the implementation does not do what the proof or construction says.".into(),
    }
}

/// The sentence's label: whose it is.
fn source_label(s: Source) -> &'static str {
    match s {
        Source::Essay => "The essay",
        Source::Book => "The book adds",
    }
}

/// One claim's card.
pub fn markdown(c: &Claim, pages: &dyn Pages) -> String {
    let registry = match pages.registry() {
        Some(p) => format!(" · [registry]({p}#{})", registry_anchor(&c.id)),
        None => String::new(),
    };
    let mut out = format!(
        "<div class=\"claim-card\" id=\"{id}\">\n\n{badge} **`{id}`** · {kind} · evidence: {evidence}{registry}\n\n",
        id = c.id,
        badge = badge(c.verdict()),
        kind = c.kind,
        evidence = c.evidence,
    );
    out.push_str(&format!(
        "<span class=\"claim-source\">{}</span> <span class=\"claim-sentence\">{}</span>\n\n",
        source_label(c.source),
        c.essay
    ));
    out.push_str(&predictions(c));
    out.push('\n');
    let mut notes = Vec::new();
    if !c.setting.is_empty() {
        notes.push(format!("**Setting:** {}", c.setting));
    }
    if !c.choices.is_empty() {
        let varied: Vec<String> = c
            .choices
            .iter()
            .map(|ch| {
                let measured: Vec<String> = ch.core.iter().map(value).collect();
                format!("{} {} ({})", mark(ch.holds()), ch.name, measured.join("; "))
            })
            .collect();
        let default = match c.default_choice.as_str() {
            "" => String::new(),
            d => format!(" (default: {d})"),
        };
        notes.push(format!(
            "**Varied**{default}, core under each: {}",
            varied.join("; ")
        ));
    }
    for r in &c.replications {
        let word = match r.reproduced() {
            true => "reproduced",
            false => "not reproduced",
        };
        notes.push(format!(
            "**Replication of {}** ({}): {}; measured {} — {word}",
            r.paper,
            r.metric,
            r.finding.prediction(),
            value(&r.finding)
        ));
    }
    if !c.capped.is_empty() {
        let texts: Vec<String> = c.capped.iter().map(Test::measured).collect();
        notes.push(format!("**Plateau:** {}", texts.join("; ")));
    }
    for n in notes {
        out.push_str(&format!("- {n}\n"));
    }
    out.push_str(&format!("\n**What it means:** {}\n\n</div>\n", meaning(c)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoPages;
    impl Pages for NoPages {
        fn card(&self, _: &str) -> Option<&str> {
            None
        }
        fn registry(&self) -> Option<&str> {
            Some("appendix-claims.md")
        }
    }

    #[test]
    fn margins_are_signed_distances_inside_the_bound() {
        assert_eq!(margin(&Test::below("x", 0.02, 0.1, 2)), "+0.08");
        assert_eq!(margin(&Test::above("x", 0.02, 0.1, 2)), "−0.08");
        assert_eq!(margin(&Test::near("x", 0.52, 0.5, 0.05, 2)), "+0.03");
        assert_eq!(margin(&Test::holds("x", true)), "");
    }

    #[test]
    fn a_card_has_one_row_per_test_and_says_what_it_means() {
        let c = Claim::empirical("x", "a sentence")
            .core(Test::below("mean ρ", 0.01, 0.1, 2))
            .scope(Test::above("share", 0.2, 0.25, 2))
            .under("seeds: other", vec![Test::below("mean ρ", 0.02, 0.1, 2)]);
        let card = markdown(&c, &NoPages);
        assert!(card.starts_with("<div class=\"claim-card\" id=\"x\">"));
        assert!(
            card.contains(
                "| core | mean ρ < 0.10 | 0.01 | +0.09 | <span class=\"held\">✓</span> |"
            )
        );
        assert!(
            card.contains(
                "| scope | share > 0.25 | 0.20 | −0.05 | <span class=\"missed\">✗</span> |"
            )
        );
        assert!(card.contains("verdict-qualified"));
        assert!(card.contains("[registry](appendix-claims.md#registry-x)"));
        assert!(card.contains("not within the scope tested: share failed"));
    }

    #[test]
    fn a_verdict_that_flips_names_where_it_holds_and_fails() {
        let c = Claim::empirical("x", "s")
            .default_choice("target: head")
            .core(Test::holds("core", true))
            .under("target: block", vec![Test::holds("core", false)]);
        assert_eq!(
            meaning(&c),
            "The core prediction holds under “target: head” and fails under “target: block”: the answer depends on that choice."
        );
        let b = Claim::theorem("t", "s")
            .source(Source::Book)
            .core(Test::holds("law", true));
        assert!(markdown(&b, &NoPages).contains("The book adds"));
    }
}
