//! Byte-level BPE, as llama.cpp tokenises SmolLM2 (its `smollm` pre-tokenizer).
//!
//! Reads the vocabulary and merges of a Hugging Face `tokenizer.json` and follows
//! llama.cpp's own code (`unicode_regex_split` with the `\p{N}` split, then
//! `unicode_regex_split_custom_gpt2`, then `llm_tokenizer_bpe_session`), not a regex
//! engine:
//!
//! ```text
//! digits      every \p{N} character is a piece of its own; the text between is a piece
//! words       within a piece, GPT-2's pattern, leftmost match first:
//!               's|'t|'re|'ve|'m|'ll|'d | ␠?\p{L}+ | ␠?\p{N}+ | ␠?[^\s\p{L}\p{N}]+
//!               | \s+(?!\S) | \s+
//!             (the lookahead sees only the piece: a run of spaces before a digit is whole)
//! bytes       each UTF-8 byte of a word → one of 256 visible characters
//!             (GPT-2's bytes_to_unicode: ' ' → 'Ġ', '\n' → 'Ċ', 'a' → 'a')
//! merge       repeatedly merge the adjacent pair of lowest merge rank, leftmost on ties
//! ids         each symbol's vocabulary id; a byte with no token of its own is dropped
//! ```
//!
//! Control tokens such as `<|im_start|>` in the text are not parsed (llama.cpp's
//! `tokenize(…, special=False)`): give them as ids. No BOS is added (SmolLM2's
//! `add_bos_token` is false). Checked against llama.cpp's ids on the texts of
//! `models/smollm2/reference-llama.json` (`tests/models/tokenizer.rs`).
//!
//! Letters, numbers and whitespace are Unicode's `L`, `N` and `White_Space`, as in
//! llama.cpp's tables; a character assigned in a Unicode version newer than llama.cpp's
//! tables may be classed differently.
//!
//! Introduced in chapter 1.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use unicode_normalization::char::is_combining_mark;

/// A byte-level BPE vocabulary with its merge ranks.
#[derive(Clone, Debug)]
pub struct Bpe {
    vocab: HashMap<String, u32>,
    /// `tokens[id]`: the vocabulary entry of each id (`"Ġcapital"`, `"Ċ"`, …).
    tokens: Vec<String>,
    /// `(left, right) → (rank, merged)`: the merge of two ids, earlier ranks first.
    merges: HashMap<(u32, u32), (u32, u32)>,
    /// The id of each byte's one-character token, if the vocabulary has it.
    byte_ids: [Option<u32>; 256],
    /// The byte each of the 256 byte-level characters stands for.
    char_bytes: HashMap<char, u8>,
}

/// A tokenised text (no BOS): the encoder's [`Encoding`], ids and their
/// vocabulary entries (`"The"`, `"Ġcapital"`, `"Ċ"`).
pub use super::wordpiece::Encoding;

/// How GPT-2's pattern sees a character; `Edge` is past the end of the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Letter,
    Number,
    Space,
    Other,
    Edge,
}

impl Bpe {
    /// Read `model.vocab` and `model.merges` (`"a b"` strings or `["a", "b"]` pairs)
    /// from the text of a `tokenizer.json`.
    ///
    /// # Errors
    /// If the JSON has no vocabulary or merge list, an id is out of range, or a merge
    /// names a token the vocabulary lacks.
    pub fn from_tokenizer_json(json: &str) -> Result<Self, String> {
        let root: serde_json::Value =
            serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
        let (vocab, tokens) = super::wordpiece::vocabulary(&root)?;
        let list = root["model"]["merges"]
            .as_array()
            .ok_or("no model.merges list")?;
        let id = |t: &str| {
            vocab
                .get(t)
                .copied()
                .ok_or(format!("merge names '{t}', not in vocab"))
        };
        let mut merges = HashMap::with_capacity(list.len());
        for (rank, merge) in list.iter().enumerate() {
            let (a, b) = merge_pair(merge).ok_or_else(|| format!("bad merge {merge}"))?;
            let pair = (id(a)?, id(b)?);
            merges
                .entry(pair)
                .or_insert((rank as u32, id(&format!("{a}{b}"))?));
        }
        let chars = byte_chars();
        let byte_ids = chars.map(|c| vocab.get(c.to_string().as_str()).copied());
        let char_bytes = (0..=255u8).map(|b| (chars[b as usize], b)).collect();
        Ok(Bpe {
            vocab,
            tokens,
            merges,
            byte_ids,
            char_bytes,
        })
    }

    /// Vocabulary size (49,152 for SmolLM2).
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The vocabulary entry of `id`, e.g. `"Ġcapital"`.
    ///
    /// # Panics
    /// If `id` is not below [`Self::vocab_size`].
    pub fn token(&self, id: u32) -> &str {
        &self.tokens[id as usize]
    }

    /// The id of a vocabulary entry, if it is one.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.vocab.get(token).copied()
    }

    /// Tokenise `text`: digits split off, GPT-2's words, byte-level BPE; no BOS.
    ///
    /// ```
    /// # use attention_geometry::pretrained::{bpe::Bpe, checksum::read_verified, models_dir};
    /// # let json = read_verified(&models_dir().join("smollm2"), "tokenizer.json").unwrap();
    /// # let bpe = Bpe::from_tokenizer_json(std::str::from_utf8(&json).unwrap()).unwrap();
    /// let e = bpe.encode("The capital of France is 12\n");
    /// assert_eq!(e.tokens, ["The", "Ġcapital", "Ġof", "ĠFrance", "Ġis", "Ġ", "1", "2", "Ċ"]);
    /// assert_eq!(bpe.decode(&e.ids), "The capital of France is 12\n");
    /// ```
    pub fn encode(&self, text: &str) -> Encoding {
        let mut ids = Vec::new();
        for word in pre_tokenize(text) {
            self.merge_word(word, &mut ids);
        }
        let tokens = ids.iter().map(|&i| self.token(i).to_string()).collect();
        Encoding { ids, tokens }
    }

    /// The text of `ids`: their entries joined, each character back to its byte, the
    /// bytes read as UTF-8 (an incomplete sequence becomes U+FFFD).
    ///
    /// # Panics
    /// If an id is not below [`Self::vocab_size`].
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::new();
        for c in ids.iter().flat_map(|&i| self.token(i).chars()) {
            match self.char_bytes.get(&c) {
                Some(&b) => bytes.push(b),
                None => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// BPE of one word, its ids appended to `ids`.
    fn merge_word(&self, word: &str, ids: &mut Vec<u32>) {
        // one symbol per byte; None for a byte the vocabulary lacks (it never merges)
        let mut sym: Vec<Option<u32>> = word.bytes().map(|b| self.byte_ids[b as usize]).collect();
        let n = sym.len();
        // a doubly linked list over the live symbols
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        // (rank, left index, left id, right id): lowest rank, then leftmost, pops first
        let mut heap: BinaryHeap<_> = (1..n).filter_map(|i| self.pair(&sym, i - 1, i)).collect();
        while let Some(Reverse((_, l, a, b))) = heap.pop() {
            let r = next[l];
            // stale: the left symbol or its right neighbour changed since the push
            if sym[l] != Some(a) || r >= n || sym[r] != Some(b) {
                continue;
            }
            // left ← left·right; unlink right
            sym[l] = Some(self.merges[&(a, b)].1);
            sym[r] = None;
            next[l] = next[r];
            if next[r] < n {
                prev[next[r]] = l;
            }
            heap.extend(self.pair(&sym, prev[l], l));
            heap.extend(self.pair(&sym, l, next[l]));
        }
        let mut i = 0;
        while i < n {
            ids.extend(sym[i]);
            i = next[i];
        }
    }

    /// The heap entry of the live symbols `l`, `r` if the pair has a merge.
    fn pair(&self, sym: &[Option<u32>], l: usize, r: usize) -> Option<Reverse<Pair>> {
        let (a, b) = (sym.get(l).copied()??, sym.get(r).copied()??);
        let &(rank, _) = self.merges.get(&(a, b))?;
        Some(Reverse((rank, l, a, b)))
    }
}

/// A candidate merge: (rank, left index, left id, right id).
type Pair = (u32, usize, u32, u32);

/// A merge as `"a b"` or `["a", "b"]`.
fn merge_pair(merge: &serde_json::Value) -> Option<(&str, &str)> {
    match merge {
        serde_json::Value::String(s) => s.split_once(' '),
        serde_json::Value::Array(v) if v.len() == 2 => Some((v[0].as_str()?, v[1].as_str()?)),
        _ => None,
    }
}

/// GPT-2's `bytes_to_unicode`: visible Latin-1 bytes stand for themselves, the other 68
/// bytes for U+0100, U+0101, … in byte order.
pub fn byte_chars() -> [char; 256] {
    let visible = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    let mut shifted = 0x100..;
    // from_fn fills the array in ascending index order
    std::array::from_fn(|b| match visible(b as u8) {
        true => char::from(b as u8),
        false => char::from_u32(shifted.next().expect("unbounded")).expect("below U+0200"),
    })
}

/// The words of `text`: each `\p{N}` character apart, then GPT-2's pattern per piece.
pub fn pre_tokenize(text: &str) -> Vec<&str> {
    // (byte offset, char) of every character, and the text's end
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let offset = |i: usize| chars.get(i).map_or(text.len(), |&(o, _)| o);
    let mut words = Vec::new();
    let mut start = 0;
    for i in 0..=chars.len() {
        let digit = chars
            .get(i)
            .is_some_and(|&(_, c)| class(c) == Class::Number);
        if i == chars.len() || digit {
            for (a, b) in split_gpt2(&chars[start..i]) {
                words.push(&text[offset(start + a)..offset(start + b)]);
            }
            if digit {
                words.push(&text[offset(i)..offset(i + 1)]);
            }
            start = i + 1;
        }
    }
    words
}

/// GPT-2's pattern over one piece, as llama.cpp's `unicode_regex_split_custom_gpt2`:
/// the `[start, end)` character ranges of its words.
fn split_gpt2(piece: &[(usize, char)]) -> Vec<(usize, usize)> {
    let n = piece.len();
    let at = |i: usize| piece.get(i).map(|&(_, c)| c);
    let class_at = |i: usize| at(i).map_or(Class::Edge, class);
    let mut words = Vec::new();
    let mut pos = 0;
    while pos < n {
        let start = pos;
        let c = piece[pos].1;
        // 's|'t|'re|'ve|'m|'ll|'d
        let contraction = match (c, at(pos + 1), at(pos + 2)) {
            ('\'', Some('s' | 't' | 'm' | 'd'), _) => 2,
            ('\'', Some('r' | 'v'), Some('e')) | ('\'', Some('l'), Some('l')) => 3,
            _ => 0,
        };
        // ␠?\p{L}+ | ␠?\p{N}+ | ␠?[^\s\p{L}\p{N}]+: one space, then a run of one class
        let lead = class_at(pos + usize::from(c == ' '));
        if contraction > 0 {
            pos += contraction;
        } else if matches!(lead, Class::Letter | Class::Number | Class::Other) {
            pos += usize::from(c == ' ');
            while class_at(pos) == lead {
                pos += 1;
            }
        } else {
            // \s+(?!\S) leaves the last space of a run for the word after it; \s+
            let run = (pos..n)
                .take_while(|&i| class_at(i) == Class::Space)
                .count();
            pos += if run > 1 && pos + run < n {
                run - 1
            } else {
                run.max(1)
            };
        }
        words.push((start, pos));
    }
    words
}

/// Unicode's White_Space, then the general categories N and L (llama.cpp's flags).
pub fn class(c: char) -> Class {
    if c.is_whitespace() {
        Class::Space
    } else if c.is_numeric() {
        Class::Number
    } else if is_letter(c) {
        Class::Letter
    } else {
        Class::Other
    }
}

/// General category L: Alphabetic without its marks (Mn, Mc), letter numbers (Nl) and
/// the circled and squared Latin letters (So), the only other Alphabetic characters.
/// Equal to llama.cpp's letter flag at every code point its Unicode tables assign.
pub fn is_letter(c: char) -> bool {
    c.is_alphabetic()
        && !c.is_numeric()
        && !is_combining_mark(c)
        && !matches!(c, '\u{24B6}'..='\u{24E9}' | '\u{1F130}'..='\u{1F149}'
            | '\u{1F150}'..='\u{1F169}' | '\u{1F170}'..='\u{1F189}')
}
