//! Unit tests of `crate::pretrained::bpe` (`src/pretrained/bpe.rs`).

use attention_geometry::pretrained::bpe::*;

/// Bytes a–d and space; merges "a b" (rank 0), "b c" (1), "ab c" (2), "Ġ a" (3).
fn tiny() -> Bpe {
    let json = r#"{"model":{"vocab":{"a":0,"b":1,"c":2,"d":3,"Ġ":4,"ab":5,"bc":6,
        "abc":7,"Ġa":8},"merges":["a b",["b","c"],"ab c","Ġ a"]}}"#;
    Bpe::from_tokenizer_json(json).unwrap()
}

#[test]
fn merges_by_rank_then_leftmost() {
    let t = tiny();
    // "abc": a·b (rank 0) before b·c (rank 1), then ab·c
    assert_eq!(t.encode("abc").ids, [7]);
    assert_eq!(t.encode("bcab").ids, [6, 5]);
    assert_eq!(t.encode("abab").ids, [5, 5]);
    // a·b (rank 0) takes the "a" that Ġ·a (rank 3) wanted
    assert_eq!(t.encode(" abd").tokens, ["Ġ", "ab", "d"]);
    assert_eq!(t.encode(" ad").tokens, ["Ġa", "d"]);
    assert_eq!(t.encode("").ids, Vec::<u32>::new());
}

#[test]
fn bytes_without_a_token_are_dropped() {
    let t = tiny();
    // 'e' has no token in the tiny vocabulary, and it blocks merges across it
    assert_eq!(t.encode("aeb").ids, [0, 1]);
    assert_eq!(t.decode(&[7, 4, 3]), "abc d");
}

#[test]
fn byte_level_alphabet() {
    let chars = byte_chars();
    assert_eq!((chars[b' ' as usize], chars[b'\n' as usize]), ('Ġ', 'Ċ'));
    assert_eq!(
        (chars[0], chars[b'a' as usize], chars[0xAD]),
        ('Ā', 'a', 'Ń')
    );
    let mut sorted = chars.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 256);
}

#[test]
fn digits_apart_then_gpt2_words() {
    assert_eq!(
        pre_tokenize(" 2024-12"),
        [" ", "2", "0", "2", "4", "-", "1", "2"]
    );
    assert_eq!(pre_tokenize("x²+½"), ["x", "²", "+", "½"]);
    assert_eq!(
        pre_tokenize("I'LL don't 's"),
        ["I", "'", "LL", " don", "'t", " '", "s"]
    );
    // a run of spaces gives its last one to the next word, except at a piece's end
    assert_eq!(pre_tokenize("a   b  "), ["a", "  ", " b", "  "]);
    assert_eq!(pre_tokenize("a  1"), ["a", "  ", "1"]);
    assert_eq!(
        pre_tokenize("\n\nfoo\t bar"),
        ["\n", "\n", "foo", "\t", " bar"]
    );
    assert_eq!(pre_tokenize("!!! ?x"), ["!!!", " ?", "x"]);
    // marks are not letters: Devanagari's vowel signs split a word
    assert_eq!(pre_tokenize("हिन्दी"), ["ह", "ि", "न", "्", "द", "ी"]);
    assert_eq!(pre_tokenize("日本語の"), ["日本語の"]);
}

#[test]
fn letters_are_category_l() {
    assert!(is_letter('é') && is_letter('ß') && is_letter('中') && is_letter('ʰ'));
    assert!(!is_letter('\u{301}') && !is_letter('Ⅻ') && !is_letter('Ⓐ') && !is_letter('1'));
    assert_eq!(class('\u{a0}'), Class::Space);
    assert_eq!(class('½'), Class::Number);
    assert_eq!(class('😀'), Class::Other);
}

#[test]
fn malformed_json_is_one_line_error() {
    let e = Bpe::from_tokenizer_json(r#"{"model":{"vocab":{"a":0},"merges":["a z"]}}"#);
    assert_eq!(e.unwrap_err(), "merge names 'z', not in vocab");
    assert!(
        Bpe::from_tokenizer_json("{}")
            .unwrap_err()
            .contains("vocab")
    );
}
