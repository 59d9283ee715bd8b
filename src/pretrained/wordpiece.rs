//! BERT's WordPiece tokenizer, reading the vocabulary of a Hugging Face `tokenizer.json`.
//!
//! The same steps as the `tokenizers` library's `BertNormalizer`, `BertPreTokenizer`,
//! `WordPiece` model and `[CLS] … [SEP]` template, with padding off:
//!
//! ```text
//! special tokens   "[MASK]", "[SEP]", … in the raw text are kept whole
//! clean            drop NUL, U+FFFD and other (C*) characters; whitespace → ' '
//! CJK              put spaces around every CJK ideograph
//! strip accents    NFD, then drop non-spacing marks (Mn)        (uncased models)
//! lowercase        char::to_lowercase
//! split            on whitespace; each punctuation character a word of its own
//! WordPiece        greedy longest match from the left, later pieces prefixed "##";
//!                  a word with no full cover (or > 100 chars) becomes [UNK]
//! template         [CLS] pieces… [SEP]
//! ```
//!
//! Checked against the Python `tokenizers` library on the sentences in
//! `models/minilm/reference.json` (`tests/models/minilm.rs`).
//! Introduced in chapter 1.

use std::collections::HashMap;

use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

/// A WordPiece vocabulary with BERT's uncased normalisation.
#[derive(Clone, Debug)]
pub struct WordPiece {
    vocab: HashMap<String, u32>,
    /// `tokens[id]`: the vocabulary entry of each id.
    tokens: Vec<String>,
    /// Special tokens matched in the raw text before normalisation, e.g. `[MASK]`.
    specials: Vec<(String, u32)>,
    unk: u32,
    cls: u32,
    sep: u32,
}

/// A tokenised text: ids and their vocabulary entries — WordPiece's with
/// `[CLS]` first and `[SEP]` last, the decoder's BPE ([`super::bpe`]) with no BOS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Vocabulary ids, `n` of them.
    pub ids: Vec<u32>,
    /// The entry of each id (`"[CLS]"`, `"geometry"`, `"##ness"`, …), `n` of them.
    pub tokens: Vec<String>,
}

impl Encoding {
    /// Number of tokens (WordPiece's `[CLS]` and `[SEP]` included).
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True for no tokens at all (a WordPiece encoding always has `[CLS]` and `[SEP]`).
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// Longest word WordPiece will split; longer words become `[UNK]`.
const MAX_CHARS_PER_WORD: usize = 100;

/// A `tokenizer.json`'s `model.vocab`: token → id, and the tokens by id.
///
/// # Errors
/// If there is no vocabulary map or an id is not below its size.
pub fn vocabulary(root: &serde_json::Value) -> Result<(HashMap<String, u32>, Vec<String>), String> {
    let map = root["model"]["vocab"]
        .as_object()
        .ok_or("no model.vocab map")?;
    let mut vocab = HashMap::with_capacity(map.len());
    let mut tokens = vec![String::new(); map.len()];
    for (token, id) in map {
        let id = id.as_u64().filter(|&i| (i as usize) < map.len());
        let id = id.ok_or_else(|| format!("bad id for '{token}'"))? as u32;
        vocab.insert(token.clone(), id);
        tokens[id as usize] = token.clone();
    }
    Ok((vocab, tokens))
}

impl WordPiece {
    /// Read the vocabulary and special tokens from the text of a `tokenizer.json`.
    ///
    /// # Errors
    /// If the JSON has no `model.vocab` map or lacks `[UNK]`, `[CLS]` or `[SEP]`.
    pub fn from_tokenizer_json(json: &str) -> Result<Self, String> {
        let root: serde_json::Value =
            serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
        let (vocab, tokens) = vocabulary(&root)?;
        let specials = root["added_tokens"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["special"].as_bool() == Some(true))
            .filter_map(|t| Some((t["content"].as_str()?.to_string(), t["id"].as_u64()? as u32)))
            .collect();
        let id = |t: &str| vocab.get(t).copied().ok_or(format!("no '{t}' in vocab"));
        let (unk, cls, sep) = (id("[UNK]")?, id("[CLS]")?, id("[SEP]")?);
        Ok(WordPiece {
            vocab,
            tokens,
            specials,
            unk,
            cls,
            sep,
        })
    }

    /// Vocabulary size (30,522 for MiniLM).
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The vocabulary entry of `id`.
    ///
    /// # Panics
    /// If `id` is not below [`Self::vocab_size`].
    pub fn token(&self, id: u32) -> &str {
        &self.tokens[id as usize]
    }

    /// Tokenise `text` as `[CLS] pieces… [SEP]`, with no padding and no truncation.
    ///
    /// ```
    /// # use attention_geometry::pretrained::minilm::Minilm;
    /// let tok = &Minilm::shared().tokenizer;
    /// let e = tok.encode("Héllo, tokenizers!");
    /// assert_eq!(e.tokens, ["[CLS]", "hello", ",", "token", "##izer", "##s", "!", "[SEP]"]);
    /// assert_eq!(e.ids[0], 101);
    /// ```
    pub fn encode(&self, text: &str) -> Encoding {
        let mut ids = vec![self.cls];
        for (segment, special) in self.split_specials(text) {
            match special {
                Some(id) => ids.push(id),
                None => {
                    for word in pre_tokenize(&normalize(segment)) {
                        self.word_pieces(&word, &mut ids);
                    }
                }
            }
        }
        ids.push(self.sep);
        let tokens = ids.iter().map(|&i| self.token(i).to_string()).collect();
        Encoding { ids, tokens }
    }

    /// [`Self::encode`], then keep at most `max_len` tokens: the first `max_len − 1`
    /// and `[SEP]` (the `tokenizers` library's truncation of a single sequence).
    ///
    /// # Panics
    /// If `max_len < 2`.
    pub fn encode_truncated(&self, text: &str, max_len: usize) -> Encoding {
        assert!(
            max_len >= 2,
            "encode_truncated: max_len {max_len} < 2 leaves no room for [CLS] and [SEP]"
        );
        let mut e = self.encode(text);
        if e.len() > max_len {
            e.ids.truncate(max_len - 1);
            e.tokens.truncate(max_len - 1);
            e.ids.push(self.sep);
            e.tokens.push(self.token(self.sep).to_string());
        }
        e
    }

    /// Split the raw text at special tokens (leftmost, longest first): `(segment, Some(id))`
    /// for a special token, `(segment, None)` for text between them.
    fn split_specials<'a>(&self, text: &'a str) -> Vec<(&'a str, Option<u32>)> {
        let mut out = Vec::new();
        let (mut rest, mut plain) = (text, 0);
        while plain < rest.len() {
            let hit = self
                .specials
                .iter()
                .filter(|(s, _)| rest[plain..].starts_with(s.as_str()))
                .max_by_key(|(s, _)| s.len());
            match hit {
                Some((s, id)) => {
                    out.push((&rest[..plain], None));
                    out.push((&rest[plain..plain + s.len()], Some(*id)));
                    rest = &rest[plain + s.len()..];
                    plain = 0;
                }
                None => plain += rest[plain..].chars().next().map_or(1, char::len_utf8),
            }
        }
        out.push((rest, None));
        out
    }

    /// Greedy longest-match WordPiece of one word, appended to `ids`.
    fn word_pieces(&self, word: &str, ids: &mut Vec<u32>) {
        if word.chars().count() > MAX_CHARS_PER_WORD {
            ids.push(self.unk);
            return;
        }
        let mut pieces = Vec::new();
        let mut start = 0;
        while start < word.len() {
            // the longest word[start..end] (prefixed "##" after the first) in the vocabulary
            let found = word[start..]
                .char_indices()
                .map(|(i, c)| start + i + c.len_utf8())
                .rev()
                .find_map(|end| {
                    let piece = match start {
                        0 => word[..end].to_string(),
                        _ => format!("##{}", &word[start..end]),
                    };
                    self.vocab.get(&piece).map(|&id| (id, end))
                });
            match found {
                Some((id, end)) => {
                    pieces.push(id);
                    start = end;
                }
                None => {
                    ids.push(self.unk);
                    return;
                }
            }
        }
        ids.extend(pieces);
    }
}

/// BERT's uncased normalisation: clean, space out CJK, strip accents, lowercase.
pub fn normalize(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter(|&c| !(c == '\0' || c == '\u{fffd}' || is_control(c)))
        .map(|c| if is_whitespace(c) { ' ' } else { c })
        .flat_map(|c| match is_cjk(c) {
            true => vec![' ', c, ' '],
            false => vec![c],
        })
        .collect();
    cleaned
        .nfd()
        .filter(|c| !c.is_mark_nonspacing())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Split on whitespace, and make each punctuation character a word of its own.
pub fn pre_tokenize(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for chunk in text.split(char::is_whitespace) {
        let mut word = String::new();
        for c in chunk.chars() {
            if c.is_ascii_punctuation() || c.is_punctuation() {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                words.push(c.to_string());
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Control and format characters (Unicode Cc, Cf, Co), tab, newline and return excepted.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// The CJK ideograph blocks that BERT spaces out.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}
