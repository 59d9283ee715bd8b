//! Unit tests of `crate::claim` (`src/claim/mod.rs`).

mod card;
mod essay;
mod text;

use attention_geometry::claim::*;

fn claim(kind: Kind, core: bool, scope: bool) -> Claim {
    Claim::new(kind, "x", "x")
        .core(Test::holds("core", core))
        .scope(Test::holds("scope", scope))
}

#[test]
fn verdicts_follow_the_table() {
    use Kind::*;
    use Verdict::*;
    let cases = [
        (Empirical, true, true, Supported),
        (Empirical, true, false, Qualified),
        (Empirical, false, true, Contradicted),
        (Empirical, false, false, Contradicted),
        (Theorem, true, true, Checked),
        (Theorem, true, false, Failed),
        (Construction, false, true, Failed),
    ];
    for (kind, core, scope, verdict) in cases {
        assert_eq!(
            claim(kind, core, scope).verdict(),
            verdict,
            "{kind} {core} {scope}"
        );
    }
}

#[test]
fn a_verdict_that_flips_with_a_choice_is_qualified() {
    let c = |default: bool, other: bool| {
        Claim::new(Kind::Empirical, "x", "x")
            .core(Test::holds("core", default))
            .under("choice: other", vec![Test::holds("core", other)])
            .verdict()
    };
    assert_eq!(c(true, true), Verdict::Supported);
    assert_eq!(c(true, false), Verdict::Qualified);
    assert_eq!(c(false, true), Verdict::Qualified);
    assert_eq!(c(false, false), Verdict::Contradicted);
}

#[test]
fn arms_that_mostly_hit_the_cap_decide_nothing() {
    let c = Claim::new(Kind::Empirical, "x", "x").core(Test::holds("core", false));
    assert_eq!(
        c.clone().trained("arm", 2, 10).verdict(),
        Verdict::Contradicted
    );
    assert_eq!(c.trained("arm", 6, 10).verdict(), Verdict::Undecided);
}

#[test]
fn a_replication_reports_without_deciding() {
    let c = Claim::new(Kind::Empirical, "x", "x")
        .core(Test::holds("core", true))
        .replication(
            "A et al. 2020",
            "their metric",
            Test::holds("their finding", false),
        );
    assert_eq!(c.verdict(), Verdict::Supported);
    assert!(!c.replications[0].reproduced());
}

#[test]
fn nan_never_passes() {
    assert!(!Test::below("x", f64::NAN, 1.0, 2).passes());
    assert!(!Test::near("x", f64::NAN, 1.0, 0.5, 2).passes());
}

#[test]
fn texts_name_quantity_bound_and_value() {
    let t = Test::below("mean ρ", 0.0123, 0.1, 2);
    assert_eq!(t.prediction(), "mean ρ < 0.10");
    assert_eq!(t.measured(), "mean ρ = 0.01");
    let h = Test::holds("the laws hold", false);
    assert_eq!(h.prediction(), "the laws hold");
    assert_eq!(h.measured(), "the laws hold: no");
    assert_eq!(
        Test::near("s", 0.51, 0.5, 0.02, 2).prediction(),
        "s ≈ 0.50 (± 0.02)"
    );
}

#[test]
#[should_panic(expected = "has no core test")]
fn a_claim_without_a_prediction_panics() {
    Claim::empirical("x", "x").verdict();
}
