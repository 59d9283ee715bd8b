//! The claims as text: one claim quoted in its chapter, the table of every
//! claim in the introduction, and the `verdicts` command's table and TSV.

use super::{Claim, Test};

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

/// The introduction's table: every claim with its chapter, kind, evidence and verdict.
pub fn markdown_table(claims: &[Claim]) -> String {
    let rows: Vec<Vec<String>> = claims
        .iter()
        .map(|c| {
            vec![
                format!("`{}`", c.id),
                c.essay.clone(),
                c.kind.to_string(),
                c.evidence.to_string(),
                format!("**{}**", c.verdict()),
            ]
        })
        .collect();
    crate::measure::table(
        &["claim", "the essay says", "kind", "evidence", "verdict"],
        &rows,
    )
}

/// One claim as its chapter quotes it: the sentence, the prediction, the
/// measurement and the computed verdict, as a block quote.
pub fn markdown(c: &Claim) -> String {
    let mut out = format!(
        "> **{}** — *{}*  \n> `{}` · {} · evidence: {}\n>\n",
        c.verdict(),
        c.essay,
        c.id,
        c.kind,
        c.evidence
    );
    if !c.setting.is_empty() {
        out.push_str(&format!("> - **Setting:** {}\n", c.setting));
    }
    out.push_str(&format!("> - **Prediction:** {}\n", c.prediction()));
    out.push_str(&format!("> - **Measured:** {}\n", c.measured()));
    if !c.choices.is_empty() {
        let word = |held: bool| if held { "holds" } else { "fails" };
        let default = match c.default_choice.as_str() {
            "" => String::new(),
            name => format!("{name} (the default): core {}; ", word(c.core_holds())),
        };
        let varied: Vec<String> = c
            .choices
            .iter()
            .map(|ch| {
                let measured: Vec<String> = ch.core.iter().map(Test::measured).collect();
                format!(
                    "{}: core {} ({})",
                    ch.name,
                    word(ch.holds()),
                    measured.join("; ")
                )
            })
            .collect();
        out.push_str(&format!("> - **Varied:** {default}{}\n", varied.join("; ")));
    }
    for r in &c.replications {
        let word = if r.reproduced() {
            "reproduced"
        } else {
            "not reproduced"
        };
        out.push_str(&format!(
            "> - **Replication of {}** ({}): {}; {} — {word}\n",
            r.paper,
            r.metric,
            r.finding.prediction(),
            r.finding.measured()
        ));
    }
    if !c.capped.is_empty() {
        let texts: Vec<String> = c.capped.iter().map(Test::measured).collect();
        out.push_str(&format!("> - **Plateau:** {}\n", texts.join("; ")));
    }
    out
}
