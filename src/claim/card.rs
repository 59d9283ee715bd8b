//! One claim as the book shows it: a card that judges itself. Its verdict as
//! a coloured badge, the sentence under test set apart (the essay's, or the
//! book's own), one row per prediction, what was varied and replicated, and
//! one plain sentence saying what the verdict means.
//!
//! ```text
//! [verdict] chNN.slug · kind · evidence · registry ↗
//! THE ESSAY  the sentence under test
//! | role | prediction | measured | margin | held |      one row per core and scope test
//! | paper | metric | finding | here | reproduced |       (where a paper is measured again)
//! ▸ How it was measured: setting, plateau, choices      (folded tables, where present)
//! What it means: …                                     (computed from the tests)
//! ```
//!
//! The card is Markdown inside an HTML `div` whose `id` is the claim's, so
//! a link `page.md#chNN.slug` lands on it; the colours are `chapters/book.css`'s.

use std::borrow::Cow;

use super::{Claim, Kind, Relation, Test, Verdict};
use crate::edition::words::{Words, fill};
use crate::edition::{Lang, cards};
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

/// A verdict as a coloured badge, in the edition's word.
pub fn badge(v: Verdict, w: &Words) -> String {
    format!(
        "<span class=\"verdict verdict-{v}\">{}</span>",
        w.verdict(v)
    )
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
pub(super) fn value(t: &Test, w: &Words) -> String {
    match t.relation {
        Relation::Holds if t.passes() => w.yes.into(),
        Relation::Holds => w.no.into(),
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
fn predictions(c: &Claim, w: &Words) -> String {
    let row = |role: &str, t: &Test| {
        vec![
            role.to_string(),
            t.prediction(),
            value(t, w),
            margin(t),
            mark(t.passes()).to_string(),
        ]
    };
    let rows: Vec<Vec<String>> = c
        .core
        .iter()
        .map(|t| row(w.core, t))
        .chain(c.scope.iter().map(|t| row(w.scope, t)))
        .collect();
    table(&w.card_columns, &rows)
}

/// Names of the choices whose core holds (`true`) or fails (`false`),
/// the default first, each in quotes (a name may itself contain `;`).
fn choices_where(c: &Claim, holds: bool, w: &Words) -> Vec<String> {
    let default = match c.default_choice.as_str() {
        "" => w.the_default.to_string(),
        d => fill(w.quoted, &[d]),
    };
    let mut out = Vec::new();
    if c.core_holds() == holds {
        out.push(default);
    }
    out.extend(
        c.choices
            .iter()
            .filter(|ch| ch.holds() == holds)
            .map(|ch| fill(w.quoted, &[&ch.name])),
    );
    out
}

/// One plain sentence saying what the verdict means, from the tests alone.
pub fn meaning(c: &Claim, w: &Words) -> String {
    let c: &Claim = &in_edition(c, w);
    let varied = !c.choices.is_empty();
    match c.verdict() {
        Verdict::Supported if varied => w.held_everywhere.into(),
        Verdict::Supported => w.held.into(),
        Verdict::Contradicted if varied => w.failed_everywhere.into(),
        Verdict::Contradicted => w.failed.into(),
        Verdict::Undecided => w.undecided.into(),
        Verdict::Qualified if !c.core_everywhere() => {
            let (holds, fails) = (choices_where(c, true, w), choices_where(c, false, w));
            match holds.len() + fails.len() {
                // a long list reads as a count; the card's list marks each
                n if n > 4 => fill(w.flips_counted, &[&holds.len().to_string(), &n.to_string()]),
                _ => fill(w.flips_named, &[&w.list(&holds), &w.list(&fails)]),
            }
        }
        Verdict::Qualified => {
            let failed: Vec<&str> = c
                .scope
                .iter()
                .filter(|t| !t.passes())
                .map(|t| t.quantity.as_str())
                .collect();
            fill(w.out_of_scope, &[&failed.join(w.semicolon)])
        }
        Verdict::Checked => match c.kind {
            Kind::Construction => w.construction_checked,
            _ => w.proof_checked,
        }
        .into(),
        Verdict::Failed => w.check_failed.into(),
    }
}

/// The proposition the tests decide, in the edition's language: the
/// claim's Chinese sentence in the Chinese edition where it has one,
/// otherwise the English.
pub fn said<'a>(c: &'a Claim, w: &Words) -> &'a str {
    match (c.zh.as_deref(), w.lang) {
        (Some(zh), Lang::Zh) => zh,
        _ => &c.sentence,
    }
}

/// The essay's sentence an essay claim tests, in the edition's language:
/// the author's Chinese, or its faithful English rendering.
pub fn quoted(c: &Claim, w: &Words) -> Option<&'static str> {
    c.quotes.map(|s| match w.lang {
        Lang::Zh => s.zh,
        Lang::En => s.en,
    })
}

/// The sentences of the card's head, each labelled. An essay claim shows
/// the essay's sentence (in English, the rendering with the original
/// beneath; in Chinese, the original under the proposition) and the
/// proposition its tests decide; the book's question shows its proposition.
fn sentence(c: &Claim, w: &Words) -> String {
    let span = |class: &str, lang: Lang, text: &str| {
        format!(
            "<span class=\"{class}\" lang=\"{}\">{text}</span>",
            lang.code()
        )
    };
    let label = |text: &str| format!("<span class=\"claim-source\">{text}</span> ");
    let lang = match (w.lang, &c.zh) {
        (Lang::Zh, Some(_)) => Lang::Zh,
        _ => Lang::En,
    };
    let shown = span("claim-sentence", lang, said(c, w));
    match c.quotes {
        None => format!("{}{shown}", label(w.book_adds)),
        Some(s) => {
            let original = format!(
                "{}{}",
                label(w.original),
                span("claim-original", Lang::Zh, s.zh)
            );
            match w.lang {
                Lang::En => format!(
                    "{}{}<br>{original}<br>{}{shown}",
                    label(w.essay),
                    span("claim-essay", Lang::En, s.en),
                    label(w.tested_as)
                ),
                Lang::Zh => format!("{}{shown}<br>{original}", label(w.tested_as)),
            }
        }
    }
}

/// Claim `c` with the strings its card shows in the edition's language:
/// as they are in English, through [`cards::claim`] in Chinese.
pub fn in_edition<'a>(c: &'a Claim, w: &Words) -> Cow<'a, Claim> {
    match w.lang {
        Lang::En => Cow::Borrowed(c),
        Lang::Zh => Cow::Owned(cards::claim(c)),
    }
}

/// A setting's clauses, split at each `;` outside brackets (`；` in
/// Chinese): one condition each, shown as a list.
fn clauses(setting: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (at, c) in setting.char_indices() {
        match c {
            '(' | '[' | '（' => depth += 1,
            ')' | ']' | '）' => depth -= 1,
            ';' | '；' if depth == 0 => {
                out.push(setting[from..at].trim());
                from = at + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(setting[from..].trim());
    out.into_iter().filter(|k| !k.is_empty()).collect()
}

/// The choices a referee would vary, as a table: the default first, then
/// each choice, what the core rows measured under it, and whether the core
/// held (empty when nothing was varied).
fn varied(c: &Claim, w: &Words) -> String {
    if c.choices.is_empty() {
        return String::new();
    }
    let row = |name: String, core: &[Test], held: bool| {
        let measured: Vec<String> = core.iter().map(|t| value(t, w)).collect();
        vec![name, measured.join(w.semicolon), mark(held).to_string()]
    };
    let default = match c.default_choice.as_str() {
        "" => w.the_default.to_string(),
        d => fill(w.default_is, &[d]),
    };
    let rows: Vec<Vec<String>> = std::iter::once(row(default, &c.core, c.core_holds()))
        .chain(
            c.choices
                .iter()
                .map(|ch| row(ch.name.clone(), &ch.core, ch.holds())),
        )
        .collect();
    format!("\n{}\n\n{}", w.varied, table(&w.varied_columns, &rows))
}

/// The cited papers' findings measured again here, as a table: the paper,
/// what it measured, its finding as a bound, the value here, and whether it
/// reproduced (empty when the claim has none).
fn replications(c: &Claim, w: &Words) -> String {
    if c.replications.is_empty() {
        return String::new();
    }
    let rows: Vec<Vec<String>> = c
        .replications
        .iter()
        .map(|r| {
            let word = match r.reproduced() {
                true => w.reproduced,
                false => w.not_reproduced,
            };
            vec![
                r.paper.clone(),
                r.metric.clone(),
                r.finding.prediction(),
                value(&r.finding, w),
                word.to_string(),
            ]
        })
        .collect();
    format!("\n{}", table(&w.replication_columns, &rows))
}

/// One claim's card, in the edition's words.
pub fn markdown(c: &Claim, pages: &dyn Pages, w: &Words) -> String {
    let c: &Claim = &in_edition(c, w);
    let registry = match pages.registry() {
        Some(p) => format!(" · [{}]({p}#{})", w.registry, registry_anchor(&c.id)),
        None => String::new(),
    };
    let mut out = format!(
        "<div class=\"claim-card\" id=\"{id}\">\n\n{badge} **`{id}`** · {kind} · {evidence}{registry}\n\n",
        id = c.id,
        badge = badge(c.verdict(), w),
        kind = w.kind(c.kind),
        evidence = fill(w.evidence, &[w.evidence_word(c.evidence)]),
    );
    out.push_str(&sentence(c, w));
    out.push_str("\n\n");
    out.push_str(&predictions(c, w));
    out.push('\n');
    out.push_str(&replications(c, w));
    // how it was measured, folded: a reader who wants the verdict reads on;
    // an undecided card keeps its plateau in view, since that decides it
    let mut plateau = String::new();
    if let Some(said) = super::plateau::sentence(&c.plateau, w) {
        plateau.push_str(&format!("\n**{}** {said}\n", w.plateau));
    }
    if let Some(arms) = super::plateau::table(&c.plateau, w) {
        plateau.push_str(&format!("\n{arms}"));
    }
    let in_view = c.verdict() == Verdict::Undecided;
    let setting = match c.setting.is_empty() {
        true => String::new(),
        false => {
            let rows: Vec<Vec<String>> = clauses(&c.setting)
                .iter()
                .map(|k| vec![k.to_string()])
                .collect();
            format!("\n{}", table(&[w.setting], &rows))
        }
    };
    let varied = varied(c, w);
    let folded = [
        &setting,
        if in_view { &String::new() } else { &plateau },
        &varied,
    ];
    let parts: Vec<String> = folded
        .iter()
        .zip(w.how_parts)
        .filter(|(text, _)| !text.is_empty())
        .map(|(_, part)| part.to_string())
        .collect();
    if in_view {
        out.push_str(&plateau);
    }
    if !parts.is_empty() {
        out.push_str(&format!(
            "\n<details>\n<summary>{}</summary>\n{}\n</details>\n",
            fill(w.how_measured, &[&w.list(&parts)]),
            folded.map(|t| t.as_str()).concat()
        ));
    }
    out.push_str(&format!(
        "\n**{}** {}\n\n**{}** {}\n\n</div>\n",
        w.what_it_means,
        meaning(c, w),
        w.why,
        super::reason(c, w)
    ));
    out
}
