//! The claims as text: the introduction's scorecard and headlines, the
//! registry of every claim (an appendix), and the `verdicts` command's table
//! and TSV. One claim's card is [`super::card`]'s.

use super::card::{Pages, badge, registry_anchor, said};
use super::{Claim, Evidence, Kind, Source, Verdict, essay};
use crate::edition::Lang;
use crate::edition::words::{Words, fill};

/// The header of [`tsv`].
pub const TSV_HEADER: &str = "id\tchapter\tkind\tevidence\tverdict\tmeasured\tprediction";

/// One line per claim under [`TSV_HEADER`]; tabs and newlines inside a field become spaces.
///
/// ```
/// use attention_geometry::claim::{Claim, Test, text};
/// let c = Claim::theorem("laws", "composition is associative")
///     .core(Test::holds("associativity to 1e-12", true));
/// let tsv = text::tsv(&[c]);
/// assert_eq!(tsv.lines().nth(1), Some("laws\t0\ttheorem\trandom\tchecked\tassociativity to 1e-12: yes\tassociativity to 1e-12"));
/// ```
pub fn tsv(claims: &[Claim]) -> String {
    let clean = |s: String| s.replace(['\t', '\n'], " ");
    let mut out = format!("{TSV_HEADER}\n");
    for c in claims {
        let fields = [
            c.id.clone(),
            c.chapter.to_string(),
            c.kind.to_string(),
            c.evidence.to_string(),
            c.verdict().to_string(),
            c.measured(),
            c.prediction(),
        ];
        let fields: Vec<String> = fields.into_iter().map(clean).collect();
        out.push_str(&fields.join("\t"));
        out.push('\n');
    }
    out
}

/// A plain-text table for a terminal: id, kind, evidence, verdict.
pub fn table(claims: &[Claim]) -> String {
    let width = claims.iter().map(|c| c.id.len()).max().unwrap_or(2).max(2);
    let mut out = format!(
        "{:<width$}  {:<12}  {:<10}  verdict\n",
        "id", "kind", "evidence"
    );
    for c in claims {
        out.push_str(&format!(
            "{:<width$}  {:<12}  {:<10}  {}\n",
            c.id,
            c.kind.to_string(),
            c.evidence.to_string(),
            c.verdict()
        ));
    }
    out
}

/// The verdicts a scorecard counts, in its columns' order.
const COUNTED: [Verdict; 5] = [
    Verdict::Supported,
    Verdict::Qualified,
    Verdict::Undecided,
    Verdict::Contradicted,
    Verdict::Checked,
];

/// `n` claims' verdicts as a tally of badges, `3 supported, 1 checked`
/// (zero counts left out): a list of counts, marked `tally`, not a sentence.
fn counts(claims: &[&Claim], w: &Words) -> String {
    let mut parts = Vec::new();
    for v in COUNTED.iter().chain(&[Verdict::Failed]) {
        let n = claims.iter().filter(|c| c.verdict() == *v).count();
        if n > 0 {
            parts.push(format!(
                "<span class=\"verdict verdict-{v}\">{}</span>",
                fill(w.count, &[&n.to_string(), w.verdict(*v)])
            ));
        }
    }
    format!("<span class=\"tally\">{}</span>", parts.join(w.comma))
}

/// `claims` split into the essay's and the book's own, each in order.
fn by_source<'a>(claims: &[&'a Claim]) -> (Vec<&'a Claim>, Vec<&'a Claim>) {
    claims.iter().partition(|c| c.source == Source::Essay)
}

/// The introduction's scorecard: two tables, the essay's claims and the
/// book's own questions, each counted by verdict per chapter.
/// `chapters` gives each chapter's number, title and page.
pub fn scorecard(claims: &[Claim], chapters: &[(u8, String, String)], w: &Words) -> String {
    let all: Vec<&Claim> = claims.iter().collect();
    let (essay, book) = by_source(&all);
    let table = |of: &[&Claim]| {
        let mut header = vec![w.chapter.to_string()];
        header.extend(COUNTED.iter().map(|v| badge(*v, w)));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let row = |label: String, these: Vec<&&Claim>| {
            let mut r = vec![label];
            for v in COUNTED {
                let n = these.iter().filter(|c| c.verdict() == v).count();
                r.push(if n == 0 { "·".into() } else { n.to_string() });
            }
            r
        };
        let mut rows: Vec<Vec<String>> = chapters
            .iter()
            .map(|(n, title, page)| {
                row(
                    format!("[{n}. {title}]({page})"),
                    of.iter().filter(|c| c.chapter == *n).collect(),
                )
            })
            .collect();
        rows.push(row(w.all_chapters.into(), of.iter().collect()));
        crate::measure::table(&header, &rows)
    };
    format!(
        "**{}**\n\n{}\n**{}**\n\n{}",
        fill(w.essay_table, &[&essay.len().to_string()]),
        table(&essay),
        fill(w.book_table, &[&book.len().to_string()]),
        table(&book)
    )
}

/// Three sentences on the essay as written, computed from the verdicts:
/// how many of its sentences a measurement could bear on and how many the
/// book tests, what the essay's claims found, and what the book's own
/// questions found.
pub fn bottom_line(claims: &[Claim], w: &Words) -> String {
    let all: Vec<&Claim> = claims.iter().collect();
    let (essay, book) = by_source(&all);
    let empirical: Vec<&str> = essay::SENTENCES
        .iter()
        .filter(|s| s.kind == essay::Kind::Empirical)
        .map(|s| s.id)
        .collect();
    let tested = empirical
        .iter()
        .filter(|id| essay.iter().any(|c| c.quotes.is_some_and(|s| s.id == **id)))
        .count();
    let contradicted = |of: &[&Claim]| {
        of.iter()
            .filter(|c| c.verdict() == Verdict::Contradicted)
            .count()
    };
    let first = fill(
        w.bottom_tested,
        &[
            &essay::SENTENCES.len().to_string(),
            &empirical.len().to_string(),
            &w.of_those(tested, empirical.len()),
            &essay.len().to_string(),
        ],
    );
    let second = match contradicted(&essay) {
        0 => fill(w.bottom_essay_none, &[&counts(&essay, w)]),
        _ => {
            let ids: Vec<String> = essay
                .iter()
                .filter(|c| c.verdict() == Verdict::Contradicted)
                .map(|c| format!("`{}`", c.id))
                .collect();
            fill(w.bottom_essay_some, &[&counts(&essay, w), &w.list(&ids)])
        }
    };
    let third = fill(
        w.bottom_book,
        &[
            &book.len().to_string(),
            &counts(&book, w),
            &contradicted(&book).to_string(),
        ],
    );
    format!("{first} {second} {third}")
}

/// The introduction's headlines: one per chapter, from the chapter's essay
/// claims, the one whose verdict is the chapter's most common among them
/// (ties go to the stronger evidence: pretrained, then toy, then random),
/// as a table row: the claim as tested, its core measurement with the
/// prediction, the verdict (the card, one link away, names the quantity).
pub fn headlines(
    claims: &[Claim],
    chapters: &[(u8, String, String)],
    pages: &dyn Pages,
    w: &Words,
) -> String {
    let mut rows = Vec::new();
    for (n, title, page) in chapters {
        let of: Vec<&Claim> = claims
            .iter()
            .filter(|c| c.chapter == *n && c.source == Source::Essay)
            .collect();
        let common = |v: Verdict| of.iter().filter(|c| c.verdict() == v).count();
        // the most common verdict, then the strongest evidence, then the first listed
        let pick = (0..of.len()).max_by_key(|&i| {
            let c = of[i];
            (common(c.verdict()), c.evidence as usize, of.len() - i)
        });
        let Some(c) = pick.map(|i| of[i]) else {
            continue;
        };
        // the quantity as the card shows it, in the edition's language
        let shown = super::card::in_edition(c, w);
        let t = &shown.core[0];
        let link = match pages.card(&c.id) {
            Some(p) => format!("[`{}`]({p}#{})", c.id, c.id),
            None => format!("`{}`", c.id),
        };
        let predicted = t.prediction();
        let bound = predicted
            .strip_prefix(t.quantity.as_str())
            .unwrap_or(&predicted)
            .trim()
            .to_string();
        rows.push(vec![
            format!("[{n}. {title}]({page})"),
            super::card::said(&shown, w).to_string(),
            format!("{} ({bound})", super::card::value(t, w)),
            format!("{} {link}", badge(c.verdict(), w)),
        ]);
    }
    if rows.is_empty() {
        return String::new();
    }
    crate::measure::table(&w.headline_columns, &rows)
}

/// The book's own strongest findings: per chapter, its first empirical
/// question measured on trained models (pretrained, else toy) whose
/// verdict is decided (contradicted first, then supported).
pub fn book_findings(claims: &[Claim], pages: &dyn Pages, w: &Words) -> String {
    let chapters = claims.iter().map(|c| c.chapter).max().unwrap_or(0);
    let mut out = String::new();
    for n in 1..=chapters {
        let pick = [Verdict::Contradicted, Verdict::Supported]
            .iter()
            .find_map(|v| {
                [Evidence::Pretrained, Evidence::Toy].iter().find_map(|e| {
                    claims.iter().find(|c| {
                        c.chapter == n
                            && c.source == Source::Book
                            && c.kind == Kind::Empirical
                            && c.evidence == *e
                            && c.verdict() == *v
                    })
                })
            });
        if let Some(c) = pick {
            out.push_str(&format!("- {}\n", headline(c, pages, w)));
        }
    }
    out
}

/// One claim in a line, for the introduction's headline findings: its
/// badge, its sentence, and a link to its card.
pub fn headline(c: &Claim, pages: &dyn Pages, w: &Words) -> String {
    let link = match pages.card(&c.id) {
        Some(p) => format!(" ([{}]({p}#{}))", c.id, c.id),
        None => format!(" (`{}`)", c.id),
    };
    format!("{} *{}*{link}", badge(c.verdict(), w), said(c, w))
}

/// The registry of every claim, chapter by chapter: its id (a link to its
/// card in its chapter), its verdict, whose sentence it is, and the sentence.
pub fn registry(
    claims: &[Claim],
    chapters: &[(u8, String, String)],
    pages: &dyn Pages,
    w: &Words,
) -> String {
    let mut out = String::new();
    for (n, title, page) in chapters {
        let of: Vec<&Claim> = claims.iter().filter(|c| c.chapter == *n).collect();
        if of.is_empty() {
            continue;
        }
        // one id in both editions, whatever the title's language
        out.push_str(&format!(
            "\n## [{n}. {title}]({page}) {{#registry-chapter-{n}}}\n\n"
        ));
        let rows: Vec<Vec<String>> = of
            .iter()
            .map(|c| {
                let id = match pages.card(&c.id) {
                    Some(p) => format!("[`{id}`]({p}#{id})", id = c.id),
                    None => format!("`{}`", c.id),
                };
                vec![
                    format!("<span id=\"{}\"></span>{id}", registry_anchor(&c.id)),
                    badge(c.verdict(), w),
                    match c.source {
                        Source::Essay => w.whose[0].into(),
                        Source::Book => w.whose[1].into(),
                    },
                    said(c, w).to_string(),
                    format!(
                        "{}{}{}",
                        w.kind(c.kind),
                        w.comma,
                        w.evidence_word(c.evidence)
                    ),
                ]
            })
            .collect();
        out.push_str(&crate::measure::table(&w.registry_columns, &rows));
    }
    out
}

/// Chapter `chapter`'s "What this chapter found" box: each essay sentence
/// the chapter tests, once, with the verdicts of the claims that test it,
/// linked to their cards; then the book's own questions, counted.
/// Consistent with the cards by construction: both read the claims.
pub fn found(claims: &[Claim], chapter: u8, pages: &dyn Pages, w: &Words) -> String {
    let of: Vec<&Claim> = claims.iter().filter(|c| c.chapter == chapter).collect();
    let (essay, book) = by_source(&of);
    let mut out = String::from("<div class=\"found\">\n\n");
    let mut sentences: Vec<&essay::Sentence> = Vec::new();
    for s in essay.iter().filter_map(|c| c.quotes) {
        if !sentences.iter().any(|t| t.id == s.id) {
            sentences.push(s);
        }
    }
    for s in sentences {
        let text = match w.lang {
            Lang::Zh => s.zh,
            Lang::En => s.en,
        };
        out.push_str(&format!("- {}*{text}*\n", w.essay_says));
        for c in essay
            .iter()
            .filter(|c| c.quotes.is_some_and(|q| q.id == s.id))
        {
            out.push_str(&format!("  - {}\n", headline(c, pages, w)));
        }
    }
    if !book.is_empty() {
        let noun = if book.len() == 1 {
            w.claim_one
        } else {
            w.claim_many
        };
        let line = fill(
            w.book_adds_count,
            &[&book.len().to_string(), noun, &counts(&book, w)],
        );
        out.push_str(&format!("\n{line}\n"));
    }
    out.push_str("\n</div>\n");
    out
}
