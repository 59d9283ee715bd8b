//! Unit tests of `crate::pretrained::wordpiece` (`src/pretrained/wordpiece.rs`).

use attention_geometry::pretrained::wordpiece::*;

fn tiny() -> WordPiece {
    let json = r###"{"added_tokens":[{"id":4,"content":"[MASK]","special":true}],
        "model":{"vocab":{"[UNK]":0,"[CLS]":1,"[SEP]":2,"un":3,"[MASK]":4,
        "##aff":5,"##able":6,"a":7,"!":8}}}"###;
    WordPiece::from_tokenizer_json(json).unwrap()
}

#[test]
fn longest_match_with_prefix_and_unk() {
    let t = tiny();
    assert_eq!(t.encode("Unaffable!").ids, [1, 3, 5, 6, 8, 2]);
    // "unx" has no cover: the whole word is [UNK]
    assert_eq!(t.encode("unx a").ids, [1, 0, 7, 2]);
    assert_eq!(t.encode("a[MASK]a").ids, [1, 7, 4, 7, 2]);
    assert_eq!(t.encode("").ids, [1, 2]);
}

#[test]
fn normalisation_steps() {
    assert_eq!(normalize("Ça\u{200b} va\tBIEN"), "ca va bien");
    assert_eq!(
        pre_tokenize("don't  stop—now"),
        ["don", "'", "t", "stop", "—", "now"]
    );
    assert_eq!(normalize("日本"), " 日  本 ");
}

#[test]
fn truncation_keeps_sep() {
    let t = tiny();
    let e = t.encode_truncated("a a a a a", 4);
    assert_eq!(e.ids, [1, 7, 7, 2]);
}
