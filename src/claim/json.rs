//! The claims as JSON for `attention-geometry verdicts --json`: every claim
//! with each test (quantity, relation, bound, measured value, whether it
//! held, core or scope), its sensitivity choices and their outcomes, its
//! replications and its arms' plateau status.

use serde::Serialize;

use super::plateau::Runs;
use super::{Claim, Evidence, Kind, Relation, Source, Test, Verdict};

#[derive(Serialize)]
struct TestJson<'a> {
    quantity: &'a str,
    relation: &'static str,
    bound: f64,
    /// `Near`'s tolerance; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    tolerance: Option<f64>,
    /// `null` when the measurement is NaN.
    measured: Option<f64>,
    held: bool,
    role: &'static str,
}

impl<'a> TestJson<'a> {
    fn of(t: &'a Test, role: &'static str) -> TestJson<'a> {
        let (relation, tolerance) = match t.relation {
            Relation::Below => ("<", None),
            Relation::Above => (">", None),
            Relation::Near(tol) => ("≈", Some(tol)),
            Relation::Holds => ("holds", None),
        };
        TestJson {
            quantity: &t.quantity,
            relation,
            bound: t.bound,
            tolerance,
            measured: t.value.is_finite().then_some(t.value),
            held: t.passes(),
            role,
        }
    }
}

#[derive(Serialize)]
struct ChoiceJson<'a> {
    choice: &'a str,
    core_held: bool,
    tests: Vec<TestJson<'a>>,
}

#[derive(Serialize)]
struct ReplicationJson<'a> {
    paper: &'a str,
    metric: &'a str,
    reproduced: bool,
    finding: TestJson<'a>,
}

#[derive(Serialize)]
struct ClaimJson<'a> {
    id: &'a str,
    chapter: u8,
    kind: Kind,
    evidence: Evidence,
    verdict: Verdict,
    /// Whose question: `essay` (it tests one of the essay's sentences) or `book`.
    source: Source,
    /// The proposition the tests decide, in English and in Chinese.
    sentence: &'a str,
    zh: Option<&'a str>,
    /// The essay's sentence an essay claim tests: its id, the author's
    /// Chinese verbatim, and a faithful English rendering; `null` for the book's questions.
    essay_id: Option<&'a str>,
    original: Option<&'a str>,
    essay_en: Option<&'a str>,
    /// Why the verdict follows from the rows, in one line.
    why: String,
    setting: &'a str,
    tests: Vec<TestJson<'a>>,
    default_choice: &'a str,
    sensitivity: Vec<ChoiceJson<'a>>,
    replications: Vec<ReplicationJson<'a>>,
    /// Per trained arm, how many runs hit the step cap or never left chance.
    plateau: &'a [Runs],
}

fn tests<'a>(ts: &'a [Test], role: &'static str) -> Vec<TestJson<'a>> {
    ts.iter().map(|t| TestJson::of(t, role)).collect()
}

fn of(c: &Claim) -> ClaimJson<'_> {
    let mut all = tests(&c.core, "core");
    all.extend(tests(&c.scope, "scope"));
    ClaimJson {
        id: &c.id,
        chapter: c.chapter,
        kind: c.kind,
        evidence: c.evidence,
        verdict: c.verdict(),
        source: c.source,
        sentence: &c.sentence,
        zh: c.zh.as_deref(),
        essay_id: c.quotes.map(|s| s.id),
        original: c.quotes.map(|s| s.zh),
        essay_en: c.quotes.map(|s| s.en),
        why: super::reason(c, &crate::edition::words::EN),
        setting: &c.setting,
        tests: all,
        default_choice: &c.default_choice,
        sensitivity: c
            .choices
            .iter()
            .map(|ch| ChoiceJson {
                choice: &ch.name,
                core_held: ch.holds(),
                tests: tests(&ch.core, "core"),
            })
            .collect(),
        replications: c
            .replications
            .iter()
            .map(|r| ReplicationJson {
                paper: &r.paper,
                metric: &r.metric,
                reproduced: r.reproduced(),
                finding: TestJson::of(&r.finding, "finding"),
            })
            .collect(),
        plateau: &c.plateau,
    }
}

/// Every claim as a pretty-printed JSON array.
///
/// ```
/// use attention_geometry::claim::{Claim, Test, json};
/// let c = Claim::empirical("x", "a claim")
///     .quotes("score-not-direct")
///     .core(Test::below("ρ", 0.05, 0.1, 2))
///     .default_choice("target: layer output")
///     .under("target: final state", vec![Test::below("ρ", 0.2, 0.1, 2)]);
/// let v: serde_json::Value = serde_json::from_str(&json::json(&[c])).unwrap();
/// assert_eq!(v[0]["verdict"], "qualified");
/// assert_eq!(v[0]["sensitivity"][0]["core_held"], false);
/// assert_eq!(v[0]["tests"][0]["held"], true);
/// assert_eq!(v[0]["original"], "因此，注意力分数并不是对原始单标相似性的直接测量。");
/// assert_eq!(v[0]["zh"], serde_json::Value::Null);
/// ```
pub fn json(claims: &[Claim]) -> String {
    let all: Vec<ClaimJson> = claims.iter().map(of).collect();
    serde_json::to_string_pretty(&all).expect("claims serialise")
}
