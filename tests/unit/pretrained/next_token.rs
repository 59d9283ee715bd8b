//! Unit tests of `crate::pretrained::next_token` (`src/pretrained/next_token.rs`).

use attention_geometry::pretrained::next_token::*;
use attention_geometry::pretrained::smollm2::SmolLm2;

#[test]
fn the_tsv_has_its_header_and_one_line_per_candidate() {
    let c = Candidate {
        rank: 1,
        id: 7042,
        token: "ĠParis".into(),
        logprob: -0.25,
    };
    assert_eq!(
        tsv(&[c]),
        "rank\ttoken_id\ttoken\tlogprob\n1\t7042\tĠParis\t-0.250000\n"
    );
}

#[test]
fn empty_and_overlong_texts_are_refused_in_one_line() {
    let m = SmolLm2::shared();
    let e = next(m, "", 5).unwrap_err();
    assert!(e.contains("empty") && !e.contains('\n'), "{e}");
    let e = complete(m, "Hi", 5000).unwrap_err();
    assert!(e.contains("1024") && !e.contains('\n'), "{e}");
}
