//! Unit tests of `crate::claim::card` (`src/claim/card.rs`).

use attention_geometry::claim::card::*;
use attention_geometry::claim::{Claim, Test, Verdict, reason};
use attention_geometry::edition::words::{EN, ZH};

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
    let card = markdown(&c, &NoPages, &EN);
    assert!(card.starts_with("<div class=\"claim-card\" id=\"x\">"));
    assert!(
        card.contains("| core | mean ρ < 0.10 | 0.01 | +0.09 | <span class=\"held\">✓</span> |")
    );
    assert!(
        card.contains("| scope | share > 0.25 | 0.20 | −0.05 | <span class=\"missed\">✗</span> |")
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
        meaning(&c, &EN),
        "The core prediction holds under “target: head” and fails under “target: block”: the answer depends on that choice."
    );
    let b = Claim::theorem("t", "s").core(Test::holds("law", true));
    assert!(markdown(&b, &NoPages, &EN).contains("The book asks"));
    assert!(markdown(&b, &NoPages, &ZH).contains("本书追问"));
}

#[test]
fn the_chinese_edition_shows_the_books_own_sentence_in_chinese() {
    let b = Claim::theorem("t", "maps compose")
        .zh("映射可以复合")
        .core(Test::holds("law", true));
    assert_eq!(said(&b, &ZH), "映射可以复合");
    assert_eq!(said(&b, &EN), "maps compose");
    let zh = markdown(&b, &NoPages, &ZH);
    assert!(
        zh.contains("<span class=\"claim-sentence\" lang=\"zh-CN\">映射可以复合</span>"),
        "{zh}"
    );
    assert!(!zh.contains("maps compose"), "{zh}");
    let en = markdown(&b, &NoPages, &EN);
    assert!(en.contains("The book asks"), "{en}");
    assert!(en.contains("<span class=\"claim-sentence\" lang=\"en\">maps compose</span>"));
    assert!(!en.contains("映射可以复合"), "{en}");
    assert!(!en.contains("claim-original"), "{en}");
}

#[test]
fn an_essay_claim_shows_the_essays_sentence_then_the_proposition_tested() {
    let e = Claim::empirical("e", "scores keep no raw order")
        .quotes("score-not-direct")
        .zh("分数不保留原始顺序")
        .core(Test::holds("x", true));
    let en = markdown(&e, &NoPages, &EN);
    let essay = en
        .find("not a direct measure of raw token similarity")
        .expect("the essay's English");
    let original = en
        .find("因此，注意力分数并不是对原始单标相似性的直接测量。")
        .expect("the original");
    let tested = en.find("Tested as:").expect("the proposition's label");
    assert!(essay < original && original < tested, "{en}");
    assert!(en.contains("scores keep no raw order"));
    let zh = markdown(&e, &NoPages, &ZH);
    let proposition = zh
        .find("分数不保留原始顺序")
        .expect("the Chinese proposition");
    let original = zh.find("因此，注意力分数").expect("the original");
    assert!(proposition < original, "{zh}");
    assert!(!zh.contains("scores keep no raw order"), "{zh}");
    assert!(zh.contains("判定依据："), "{zh}");
}

#[test]
fn the_plateau_table_names_only_the_arms_whose_runs_did_not_decide() {
    let c = Claim::empirical("x", "s")
        .core(Test::holds("core", true))
        .trained("linear", 0, 8)
        .trained("KDA", 1, 8)
        .learned("linear", 0, 8)
        .learned("KDA", 0, 8);
    let card = markdown(&c, &NoPages, &EN);
    assert!(
        card.contains(
            "**Plateau:** every other run reached a plateau before the cap; \
             every run left chance"
        ),
        "{card}"
    );
    assert!(card.contains("| KDA | 1 of 8 | — |"), "{card}");
    assert!(!card.contains("| linear |"), "{card}");
    assert!(!card.contains("0 of"), "{card}");
    let zh = markdown(&c, &NoPages, &ZH);
    assert!(
        zh.contains("| KDA | 1/8 | — |") && zh.contains("其余运行都在上限之前进入平台期"),
        "{zh}"
    );
    // half or more of one arm's runs: undecided, and the reason names the arm
    let d = c.learned("softmax", 4, 8);
    assert_eq!(d.verdict(), Verdict::Undecided);
    assert_eq!(
        reason(&d, &EN),
        "softmax: half or more of its runs never left chance (the table above counts them), so the rows cannot decide."
    );
}
