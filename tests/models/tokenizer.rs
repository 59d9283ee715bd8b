//! SmolLM2's byte-level BPE against llama.cpp: the token ids of every text in
//! `models/smollm2/reference-llama.json` (written by `scripts/reference_smollm2.py`
//! with llama.cpp's `tokenize(text, add_bos=False, special=False)`), and the
//! decoder's round trip.

use std::sync::OnceLock;

use attention_geometry::pretrained::bpe::Bpe;
use attention_geometry::pretrained::checksum::read_verified;
use attention_geometry::pretrained::models_dir;
use serde_json::Value;

use super::ids;

fn bpe() -> &'static Bpe {
    static BPE: OnceLock<Bpe> = OnceLock::new();
    BPE.get_or_init(|| {
        let json = read_verified(&models_dir().join("smollm2"), "tokenizer.json").unwrap();
        Bpe::from_tokenizer_json(std::str::from_utf8(&json).unwrap()).unwrap()
    })
}

fn reference() -> &'static Value {
    static REFERENCE: OnceLock<Value> = OnceLock::new();
    REFERENCE.get_or_init(|| super::reference("smollm2/reference-llama.json"))
}

fn records(section: &str) -> impl Iterator<Item = (&'static str, Vec<u32>)> {
    let rows = reference()[section].as_array().unwrap().iter();
    rows.map(|r| (r["text"].as_str().unwrap(), ids(&r["ids"])))
}

/// A character whose UTF-8 bytes all have a token of their own (SmolLM2's vocabulary
/// lacks six ASCII control bytes, e.g. U+0004, and llama.cpp drops them).
fn kept(c: char) -> bool {
    !c.is_ascii() || !bpe().encode(&c.to_string()).is_empty()
}

#[test]
fn ids_equal_llama_cpp_on_every_text() {
    let texts: Vec<_> = records("texts").collect();
    assert!(texts.len() >= 220, "{} texts", texts.len());
    let differ: Vec<_> = texts
        .iter()
        .filter(|(t, want)| bpe().encode(t).ids != *want)
        .map(|(t, want)| format!("{t:?}: ours {:?}, llama.cpp {want:?}", bpe().encode(t).ids))
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {} texts differ:\n{}",
        differ.len(),
        texts.len(),
        differ.join("\n")
    );
}

#[test]
fn prompt_ids_equal_llama_cpp() {
    // the chat prompts were assembled from control-token ids and tokenised pieces
    let plain = records("prompts").filter(|(t, _)| !t.contains("<|im_start|>"));
    let mut n = 0;
    for (text, want) in plain {
        assert_eq!(bpe().encode(text).ids, want, "{text:?}");
        n += 1;
    }
    assert!(n >= 20, "{n} plain prompts");
}

#[test]
fn decode_inverts_encode() {
    let mut lossy = Vec::new();
    for (text, _) in records("texts") {
        let back = bpe().decode(&bpe().encode(text).ids);
        match text.chars().all(kept) {
            true => assert_eq!(back, text),
            false => {
                // the bytes without a token are gone, nothing else
                assert_eq!(back, text.chars().filter(|&c| kept(c)).collect::<String>());
                lossy.push(text);
            }
        }
    }
    assert_eq!(lossy, ["bell\u{7}char and a\u{4}b"]);
}

#[test]
fn tokens_are_the_vocabulary_strings() {
    // the strings of llama.cpp's ids for these reference texts
    let b = bpe();
    assert_eq!(b.vocab_size(), 49_152);
    let cases: [(&str, &[&str]); 5] = [
        ("Hello, World!", &["Hello", ",", "ĠWorld", "!"]),
        (
            " 2024-12-01",
            &["Ġ", "2", "0", "2", "4", "-", "1", "2", "-", "0", "1"],
        ),
        ("x²+y²", &["x", "Â²", "+", "y", "Â²"]),
        ("a\n\nb", &["a", "Ċ", "Ċ", "b"]),
        ("<|endoftext|>", &["<", "|", "end", "of", "text", "|", ">"]),
    ];
    for (text, tokens) in cases {
        let e = b.encode(text);
        assert_eq!(e.tokens, tokens, "{text:?}");
        for (&id, token) in e.ids.iter().zip(&e.tokens) {
            assert_eq!((b.token(id), b.id(token)), (token.as_str(), Some(id)));
        }
    }
    // control tokens are given as ids; the text "<|endoftext|>" is plain text
    assert_eq!((b.token(0), b.token(1)), ("<|endoftext|>", "<|im_start|>"));
    assert_eq!(b.decode(&[1, 2]), "<|im_start|><|im_end|>");
}
