//! The measured numbers' words in the Chinese edition. A measure's text is
//! written once, in English (`0 of 8`, a table's header); the Chinese
//! edition shows it through this phrase table.
//!
//! [`zh`] matches the table's phrases at word boundaries, the longest first,
//! so `softmax` never loses its `max` and `head mean-ablated` wins over
//! `head`. A `{}` in a phrase stands for one number; the Chinese writes it
//! back as `{0}`, `{1}`, … in the same order, so the numbers of a text never
//! move. Code spans, numbers, math and the names in [`KEPT`] pass through.
//! Once a piece of text reads Chinese, its `, ` `; ` `: ` become `，` `；` `：`
//! and a bracket around Chinese words becomes `（…）`.

mod kept;
pub mod table;
pub use kept::KEPT;
use table::PHRASES;

/// `text` (a measure's value, a word, a phrase or a Markdown table) with
/// every phrase this table knows put into Chinese.
///
/// ```
/// use attention_geometry::edition::phrases::zh;
/// assert_eq!(zh("0 of 8"), "0/8");
/// assert_eq!(zh("2 and 2"), "2 和 2");
/// assert_eq!(zh("not every"), "并非每个");
/// assert_eq!(zh("1.00 at k = 1, 0.92 at k = 4"), "1.00（k = 1）、0.92（k = 4）");
/// assert_eq!(zh("softmax (book layers)"), "softmax（本书的层）");
/// assert_eq!(zh("| layer | ρ |\n|---|---|\n| 1 | 0.5 |\n"), "| 层 | ρ |\n|---|---|\n| 1 | 0.5 |\n");
/// ```
pub fn zh(text: &str) -> String {
    let mut phrases: Vec<Phrase> = PHRASES
        .iter()
        .map(|&(en, zh)| Phrase::new(en, zh))
        .collect();
    phrases.sort_by_key(|p| std::cmp::Reverse(p.en_len));
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        match body.starts_with('|') {
            true => {
                let cells = cells(body);
                let translated: Vec<String> = cells
                    .iter()
                    .map(|cell| {
                        let inner = cell.trim();
                        let lead = &cell[..cell.len() - cell.trim_start().len()];
                        let trail = &cell[cell.trim_end().len()..];
                        format!("{lead}{}{trail}", translate(inner, &phrases))
                    })
                    .collect();
                out.push_str(&translated.join("|"));
            }
            false => out.push_str(&translate(body, &phrases)),
        }
        out.push_str(end);
    }
    out
}

/// The pieces of a table row between its unescaped `|`, the edges included
/// (so that joining them with `|` gives the row back).
pub fn cells(row: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut prev = ' ';
    for (i, c) in row.char_indices() {
        if c == '|' && prev != '\\' {
            pieces.push(&row[start..i]);
            start = i + 1;
        }
        prev = c;
    }
    pieces.push(&row[start..]);
    pieces
}

/// The English words of two or more letters in `text` outside code spans
/// and not in [`KEPT`] (a word with a digit or `_` is an identifier).
pub fn untranslated(text: &str) -> Vec<String> {
    let names = KEPT
        .iter()
        .filter(|k| !k.chars().all(|c| c.is_ascii_alphabetic()));
    names
        .fold(outside_code(text), |t, name| t.replace(name, " "))
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 2 && w.chars().all(|c| c.is_ascii_alphabetic()))
        .filter(|w| !KEPT.contains(w))
        .map(str::to_string)
        .collect()
}

/// `text` with its code spans blanked out.
fn outside_code(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, s)| if i % 2 == 0 { s } else { " " })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One phrase: its English pieces between number slots, and its Chinese.
struct Phrase {
    en: Vec<&'static str>,
    en_len: usize,
    zh: &'static str,
}

impl Phrase {
    fn new(en: &'static str, zh: &'static str) -> Phrase {
        Phrase {
            en: en.split("{}").collect(),
            en_len: en.chars().count(),
            zh,
        }
    }

    /// The phrase at the start of `text`, ending at a word boundary: its
    /// length in bytes and the numbers in its slots.
    fn matches<'a>(&self, text: &'a str) -> Option<(usize, Vec<&'a str>)> {
        let mut at = 0;
        let mut numbers = Vec::new();
        for (i, piece) in self.en.iter().enumerate() {
            if i > 0 {
                let n = number_len(&text[at..])?;
                numbers.push(&text[at..at + n]);
                at += n;
            }
            at += text[at..].starts_with(piece).then_some(piece.len())?;
        }
        let ends_word = self
            .en
            .last()
            .is_some_and(|p| p.is_empty() || p.ends_with(is_word));
        match ends_word && text[at..].starts_with(is_word) {
            true => None,
            false => Some((at, numbers)),
        }
    }

    fn starts_word(&self) -> bool {
        self.en[0].is_empty() || self.en[0].starts_with(is_word)
    }

    fn chinese(&self, numbers: &[&str]) -> String {
        numbers
            .iter()
            .enumerate()
            .fold(self.zh.to_string(), |s, (i, n)| {
                s.replace(&format!("{{{i}}}"), n)
            })
    }
}

/// A letter, digit, `_`, `-` or `.`: a phrase never starts or ends next to one.
pub fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// The length of the number `text` starts with (`-0.14`, `3e-15`, `40`).
pub fn number_len(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut at = usize::from(b.first() == Some(&b'-'));
    let whole = digits(at);
    if whole == 0 {
        return None;
    }
    at += whole;
    if b.get(at) == Some(&b'.') && digits(at + 1) > 0 {
        at += 1 + digits(at + 1);
    }
    if b.get(at) == Some(&b'e') {
        let sign = usize::from(b.get(at + 1) == Some(&b'-'));
        if digits(at + 1 + sign) > 0 {
            at += 1 + sign + digits(at + 1 + sign);
        }
    }
    Some(at)
}

/// One piece of text (a sentence or a table cell) through the phrase table,
/// code spans untouched, then its punctuation made Chinese if it reads Chinese.
fn translate(text: &str, phrases: &[Phrase]) -> String {
    let mut out = String::new();
    let mut code = false;
    let mut prev: Option<char> = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            code = !code;
        }
        let boundary = !prev.is_some_and(is_word);
        let found = match code || c == '`' {
            true => None,
            false => phrases
                .iter()
                .filter(|p| boundary || !p.starts_word())
                .find_map(|p| {
                    p.matches(rest)
                        .map(|(len, numbers)| (len, p.chinese(&numbers)))
                }),
        };
        let (len, piece) = found.unwrap_or((c.len_utf8(), c.to_string()));
        prev = rest[..len].chars().last();
        out.push_str(&piece);
        rest = &rest[len..];
    }
    match out.chars().any(super::wide) {
        true => tidy(&out),
        false => out,
    }
}

/// Chinese punctuation for a piece that reads Chinese: `, ` `; ` `: ` outside
/// brackets and code become `，` `；` `：`; a bracket after a space (not a
/// function's, as in `ρ(raw, score)`) becomes `（…）`; no space is left
/// between Chinese characters.
fn tidy(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::new();
    let (mut depth, mut code) = (0usize, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '`' => code = !code,
            '(' if !code && out.last() == Some(&' ') => {
                let close = chars[i..].iter().position(|&d| d == ')').map(|p| p + i);
                if let Some(close) = close {
                    out.pop();
                    out.push('（');
                    out.extend(tidy(&chars[i + 1..close].iter().collect::<String>()).chars());
                    out.push('）');
                    i = close + 1;
                    continue;
                }
                depth += 1;
            }
            '(' if !code => depth += 1,
            ')' if !code => depth = depth.saturating_sub(1),
            ',' | ';' | ':' if !code && depth == 0 && chars.get(i + 1) == Some(&' ') => {
                out.push(match c {
                    ',' => '，',
                    ';' => '；',
                    _ => '：',
                });
                i += 2;
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    // no space between Chinese characters or around full-width punctuation
    let mut tidied = String::new();
    for (i, &c) in out.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| out[j]);
        let after = out.get(i + 1).copied();
        let punct = |d: Option<char>| d.is_some_and(super::full_width);
        let both = before.is_some_and(super::wide) && after.is_some_and(super::wide);
        if c == ' ' && !code_around(&out, i) && (both || punct(before) || punct(after)) {
            continue;
        }
        tidied.push(c);
    }
    tidied
}

/// Whether position `i` of `chars` lies inside a code span.
fn code_around(chars: &[char], i: usize) -> bool {
    chars[..i].iter().filter(|&&c| c == '`').count() % 2 == 1
}
