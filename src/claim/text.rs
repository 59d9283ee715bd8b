//! The claims as text: the introduction's scorecard and headlines, the
//! registry of every claim (an appendix), and the `verdicts` command's table
//! and TSV. One claim's card is [`super::card`]'s.

use super::card::{Pages, badge, registry_anchor, said};
use super::{Claim, Source, Verdict};
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
const COUNTED: [Verdict; 4] = [
    Verdict::Supported,
    Verdict::Qualified,
    Verdict::Contradicted,
    Verdict::Checked,
];

/// `n` claims' verdicts as `3 supported, 1 checked` (zero counts left out).
fn counts(claims: &[&Claim], w: &Words) -> String {
    let mut parts = Vec::new();
    for v in COUNTED.iter().chain(&[Verdict::Failed]) {
        let n = claims.iter().filter(|c| c.verdict() == *v).count();
        if n > 0 {
            parts.push(fill(w.count, &[&n.to_string(), w.verdict(*v)]));
        }
    }
    parts.join(w.comma)
}

/// `claims` split into the essay's and the book's own, each in order.
fn by_source<'a>(claims: &[&'a Claim]) -> (Vec<&'a Claim>, Vec<&'a Claim>) {
    claims.iter().partition(|c| c.source == Source::Essay)
}

/// The introduction's scorecard: per chapter, the essay's claims counted by
/// verdict, and the book's own claims (lemmas, controls, side findings) beside them.
/// `chapters` gives each chapter's number, title and page.
pub fn scorecard(claims: &[Claim], chapters: &[(u8, String, String)], w: &Words) -> String {
    let mut header = vec![w.chapter.to_string()];
    header.extend(COUNTED.iter().map(|v| badge(*v, w)));
    header.push(w.books_own.into());
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut rows = Vec::new();
    let mut row = |label: String, of: Vec<&Claim>| {
        let (essay, book) = by_source(&of);
        let mut r = vec![label];
        for v in COUNTED {
            let n = essay.iter().filter(|c| c.verdict() == v).count();
            r.push(if n == 0 { "·".into() } else { n.to_string() });
        }
        r.push(match book.is_empty() {
            true => "·".into(),
            false => counts(&book, w),
        });
        rows.push(r);
    };
    for (n, title, page) in chapters {
        row(
            format!("[{n}. {title}]({page})"),
            claims.iter().filter(|c| c.chapter == *n).collect(),
        );
    }
    row(w.all_chapters.into(), claims.iter().collect());
    crate::measure::table(&header, &rows)
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

/// Chapter `chapter`'s "What this chapter found" box: each of the essay's
/// claims with its verdict, linked to its card, then what the book adds,
/// counted. Consistent with the cards by construction: both read the claims.
pub fn found(claims: &[Claim], chapter: u8, pages: &dyn Pages, w: &Words) -> String {
    let of: Vec<&Claim> = claims.iter().filter(|c| c.chapter == chapter).collect();
    let (essay, book) = by_source(&of);
    let mut out = String::from("<div class=\"found\">\n\n");
    for c in &essay {
        out.push_str(&format!("- {}\n", headline(c, pages, w)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Test;
    use crate::edition::words::{EN, ZH};

    struct OnePage;
    impl Pages for OnePage {
        fn card(&self, _: &str) -> Option<&str> {
            Some("01-a.md")
        }
        fn registry(&self) -> Option<&str> {
            None
        }
    }

    fn claims() -> Vec<Claim> {
        let mut c = vec![
            Claim::empirical("yes", "holds").core(Test::holds("x", true)),
            Claim::empirical("no", "fails").core(Test::holds("x", false)),
            Claim::theorem("law", "a lemma").core(Test::holds("x", true)),
        ];
        for c in &mut c {
            c.chapter = 1;
        }
        c
    }

    #[test]
    fn the_scorecard_counts_the_essays_claims_and_the_books_apart() {
        let chapters = [(1, "A".to_string(), "01-a.md".to_string())];
        let s = scorecard(&claims(), &chapters, &EN);
        assert!(
            s.contains("| [1. A](01-a.md) | 1 | · | 1 | · | 1 checked |"),
            "{s}"
        );
        assert!(
            s.contains("| **all chapters** | 1 | · | 1 | · | 1 checked |"),
            "{s}"
        );
    }

    #[test]
    fn what_a_chapter_found_lists_its_essay_claims_then_counts_the_books() {
        let f = found(&claims(), 1, &OnePage, &EN);
        assert!(f.contains("verdict-supported\">supported</span> *holds* ([yes](01-a.md#yes))"));
        assert!(f.contains("verdict-contradicted"));
        assert!(!f.contains("a lemma"));
        assert!(f.contains("What the book adds to test them, 1 claim: 1 checked."));
        let z = found(&claims(), 1, &OnePage, &ZH);
        assert!(z.contains("verdict-supported\">成立</span>"), "{z}");
        assert!(
            z.contains("本书为检验它们补充了 1 条论断：已核验 1。"),
            "{z}"
        );
    }
}
