//! Numbers a reader can use: no registered measure writes a count of none
//! or all as a bare number ("0 of 8", "only 0", "a share 1.00");
//! `measure::of_total`, `share_of` and `share_over` write them in words.
//! And a sentence of the rendered book states at most two quantities: a
//! number with its spread, interval, range or total is one quantity; a
//! number that names a figure, chapter, layer, head or year is none; code,
//! tables, math and tallies of verdicts are not sentences.

use attention_geometry::experiment::measures;

/// Where `text` writes none or all as a number, if it does.
fn bare(text: &str) -> Option<&'static str> {
    let zero_of = text.match_indices("0 of ").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
    });
    if zero_of {
        return Some("0 of");
    }
    ["only 0 ", "share 1.00", "share 0.00"]
        .into_iter()
        .find(|p| text.contains(p))
}

#[test]
fn no_measure_writes_none_or_all_as_a_bare_number() {
    assert_eq!(bare("0 of 8"), Some("0 of"));
    assert_eq!(bare("| 10 of 12 | 3.0 of 4 |"), None);
    assert_eq!(bare("a share 1.00 of seeds"), Some("share 1.00"));
    let left: Vec<String> = measures()
        .iter()
        .filter_map(|m| bare(&m.value).map(|p| format!("{}: {p:?} in {:?}", m.key, m.value)))
        .collect();
    assert!(
        left.is_empty(),
        "write these in words:\n{}",
        left.join("\n")
    );
}

/// The elements whose text is not prose: code, tables, figures, math,
/// navigation and the folds' summaries.
const NOT_PROSE: [&str; 8] = [
    "pre", "code", "table", "svg", "script", "style", "nav", "summary",
];

/// The elements that end a run of prose.
const BLOCKS: [&str; 12] = [
    "p",
    "li",
    "div",
    "h1",
    "h2",
    "h3",
    "h4",
    "blockquote",
    "details",
    "dd",
    "dt",
    "td",
];

/// The prose in the `<main>` of a rendered page, block by block: text
/// outside code, tables, figures and typeset math (each formula, and each
/// tally of verdicts, stands as one symbol, `X`); with `shut`, also outside
/// folds and claim cards, as a reader sees the page before opening anything.
pub(crate) fn prose_blocks(html: &str, shut: bool) -> Vec<String> {
    let start = html.find("<main>").map_or(0, |i| i + 6);
    let end = html.find("</main>").unwrap_or(html.len());
    let html = &html[start..end];
    let mut blocks = Vec::new();
    let mut current = String::new();
    // for each open element: (is it outside prose, is it math)
    let mut open: Vec<(bool, bool)> = Vec::new();
    let (mut hidden, mut math) = (0usize, 0usize);
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        if hidden == 0 && math == 0 {
            current.push_str(&decode(&rest[..lt]));
        }
        let gt = rest[lt..].find('>').map_or(rest.len(), |g| lt + g);
        let tag = &rest[lt + 1..gt];
        rest = &rest[(gt + 1).min(rest.len())..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        if BLOCKS.contains(&name.as_str()) {
            blocks.push(std::mem::take(&mut current));
        }
        if tag.ends_with('/')
            || ["br", "img", "hr", "input", "meta", "link"].contains(&name.as_str())
        {
            continue;
        }
        if closing {
            if let Some((h, m)) = open.pop() {
                hidden -= usize::from(h);
                math -= usize::from(m);
            }
        } else {
            let h = NOT_PROSE.contains(&name.as_str())
                || (shut && (name == "details" || tag.contains("class=\"claim-card\"")));
            let m = tag.contains("class=\"katex\"") || tag.contains("class=\"tally\"");
            if m && hidden == 0 && math == 0 {
                current.push_str(" X ");
            }
            hidden += usize::from(h);
            math += usize::from(m);
            open.push((h, m));
        }
    }
    blocks.push(current);
    blocks
        .into_iter()
        .map(|b| b.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|b| !b.is_empty())
        .collect()
}

/// `text` with the HTML entities mdBook writes decoded.
fn decode(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The sentences of a block: split after `.`, `;`, `!` or `?` and a space
/// when a capital or an opening bracket or quote follows, and after `。`,
/// `；`, `！` or `？`.
fn sentences(block: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    let chars: Vec<(usize, char)> = block.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let next = chars.get(i + 1).map(|&(_, n)| n);
        let after = chars.get(i + 2).map(|&(_, n)| n);
        let end = match c {
            '。' | '；' | '！' | '？' => Some(at + c.len_utf8()),
            '.' | ';' | '!' | '?' if next == Some(' ') => after
                .filter(|a| a.is_uppercase() || "(“\"[".contains(*a))
                .map(|_| at + 1),
            _ => None,
        };
        if let Some(end) = end {
            out.push(block[from..end].trim());
            from = end;
        }
    }
    out.push(block[from..].trim());
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

/// Words before a number that make it a name, not a quantity: "Figure
/// 2.1", "chapter 3", "layer 5", "§4.1", "第 3 章".
const NAMES: [&str; 18] = [
    "figure",
    "figures",
    "table",
    "chapter",
    "chapters",
    "section",
    "§",
    "layer",
    "layers",
    "head",
    "heads",
    "block",
    "row",
    "token",
    "position",
    "query",
    "boundary",
    "boundaries",
];

/// A number as the text writes it: digits with `,` and `.` inside, an
/// optional sign, exponent and `%`, `×` or `²` after.
fn number_at(text: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(text.get(j), Some('−' | '-')) && text.get(j + 1).is_some_and(char::is_ascii_digit)
    {
        j += 1;
    }
    if !text.get(j).is_some_and(char::is_ascii_digit) {
        return None;
    }
    while j < text.len()
        && (text[j].is_ascii_digit()
            || ((text[j] == '.' || text[j] == ',')
                && text.get(j + 1).is_some_and(char::is_ascii_digit)))
    {
        j += 1;
    }
    if text.get(j) == Some(&'e')
        && text
            .get(j + 1)
            .is_some_and(|c| c.is_ascii_digit() || *c == '−' || *c == '-')
    {
        j += 2;
        while text.get(j).is_some_and(char::is_ascii_digit) {
            j += 1;
        }
    }
    while matches!(text.get(j), Some('%' | '×' | '²')) {
        j += 1;
    }
    // a digit inside a word is part of a name (SmolLM2, L6, 135M)
    if text
        .get(j)
        .is_some_and(|c| c.is_alphabetic() && !is_cjk(*c))
    {
        return None;
    }
    Some(j)
}

fn is_cjk(c: char) -> bool {
    ('\u{3000}'..='\u{9fff}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c)
}

/// After a number ending at `j`: where its spread, interval, range or total
/// ends ("± 0.19", "[0.15, 0.34]", "–30", "of 24"), if one follows.
fn companion(text: &[char], j: usize) -> Option<usize> {
    let skip = |mut k: usize| {
        while text.get(k) == Some(&' ') {
            k += 1;
        }
        k
    };
    let k = skip(j);
    let word: String = text[k..].iter().take(3).collect();
    if text.get(k) == Some(&'±') {
        return number_at(text, skip(k + 1));
    }
    if text.get(j) == Some(&'–') {
        return number_at(text, j + 1);
    }
    if word == "of " {
        // "18 of 24", "35 of the 72 runs"
        let total = skip(k + 2);
        let the: String = text[total..].iter().take(4).collect();
        return number_at(text, if the == "the " { total + 4 } else { total });
    }
    if text.get(k) == Some(&'[') {
        let a = number_at(text, skip(k + 1))?;
        let b = number_at(text, skip(a + 1))?;
        return (text.get(b) == Some(&']')).then_some(b + 1);
    }
    None
}

/// Where a bracketed tuple of numbers starting at `i` ends, if one does.
fn tuple(text: &[char], i: usize) -> Option<usize> {
    let mut k = i + 1;
    loop {
        k = number_at(text, k)?;
        match text.get(k) {
            Some(']') => return Some(k + 1),
            Some(',') => k += 1,
            _ => return None,
        }
        while text.get(k) == Some(&' ') {
            k += 1;
        }
    }
}

/// The quantities a sentence states: each number with its spread, interval,
/// range or total counts once; a number that names a figure, chapter, layer,
/// head, token or year is not a quantity.
fn quantities(sentence: &str) -> Vec<String> {
    let text: Vec<char> = sentence.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut quoted = 0i32;
    while i < text.len() {
        // a quotation names a thing (a choice, a title); its digits are the name's
        match text[i] {
            '“' | '「' => quoted += 1,
            '”' | '」' => quoted -= 1,
            _ => {}
        }
        if quoted > 0 {
            i += 1;
            continue;
        }
        // a bracketed tuple of numbers, [2, 16, 16, 1], is one quantity
        if text[i] == '['
            && let Some(end) = tuple(&text, i)
        {
            out.push(text[i..end].iter().collect());
            i = end;
            continue;
        }
        // a digit inside a word ("SmolLM2", "W_Q"), or after a hyphen ("top-1")
        let glued = i > 0
            && (text[i - 1].is_alphanumeric() && !is_cjk(text[i - 1])
                || ".²/_".contains(text[i - 1])
                || (matches!(text[i], '-' | '−') && text[i - 1].is_alphabetic())
                || (i > 1 && text[i - 1] == '-' && text[i - 2].is_alphabetic()));
        let Some(mut j) = (!glued).then(|| number_at(&text, i)).flatten() else {
            i += 1;
            continue;
        };
        while let Some(k) = companion(&text, j) {
            j = k;
        }
        let number: String = text[i..j].iter().collect();
        let before: String = text[..i].iter().collect::<String>().to_lowercase();
        let word = before
            .trim_end()
            .rsplit([' ', '(', '—'])
            .next()
            .unwrap_or("");
        // a figure or section is numbered "2.1"; a head or layer only whole
        let numbered = ["figure", "figures", "table", "section"].contains(&word)
            || word.ends_with('§')
            || word.ends_with('图')
            || word.ends_with('表');
        let named = numbered || NAMES.contains(&word) || word.ends_with('第');
        // only a whole number names ("heads 1.00" states a score)
        let named = named && (numbered || number.chars().all(|c| c.is_ascii_digit() || c == '–'));
        let year = number.len() == 4 && (number.starts_with("19") || number.starts_with("20"));
        if !named && !year {
            out.push(number);
        }
        i = j.max(i + 1);
    }
    out
}

#[test]
fn a_number_with_its_spread_is_one_quantity_and_a_name_is_none() {
    assert_eq!(
        quantities("it takes 0.57 ± 0.19 of the weight and 0.12 of the norm"),
        ["0.57 ± 0.19", "0.12"]
    );
    assert_eq!(
        quantities("a gap of 0.06 [−0.02, 0.14] in layers 3–30"),
        ["0.06 [−0.02, 0.14]"]
    );
    assert_eq!(
        quantities("18 of 24 runs of SmolLM2-135M (Figure 2.1, 2024), 35 of the 72"),
        ["18 of 24", "35 of the 72"]
    );
    assert_eq!(
        quantities("a net [2, 16, 1] under “lattice: 80² points”"),
        ["[2, 16, 1]"]
    );
    assert_eq!(quantities("第 3 章的 8 个种子与 2–5 层"), ["8", "2–5"]);
    assert_eq!(
        quantities("two heads 1.00 ± 0.00, top-1 at boundary 29"),
        ["1.00 ± 0.00"]
    );
    assert_eq!(
        sentences("One 1. Two 2; three. Then (a). Next 再一句。完"),
        [
            "One 1.",
            "Two 2; three.",
            "Then (a).",
            "Next 再一句。",
            "完"
        ]
    );
    assert_eq!(
        prose_blocks(
            "<main><p>A <span class=\"katex\"><span>x = 1</span></span> b.</p><pre>1 2 3</pre><table><td>4</td></table></main>",
            false
        ),
        ["A X b."]
    );
    let folded = "<main><p>Seen.</p><details><summary>s</summary><p>Folded.</p></details>\
                  <div class=\"claim-card\"><p>Card.</p></div></main>";
    assert_eq!(prose_blocks(folded, false), ["Seen.", "Folded.", "Card."]);
    assert_eq!(prose_blocks(folded, true), ["Seen."]);
}

/// The sentences of every chapter page, in both editions, that state more
/// than two quantities.
fn dense(out: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    for (sources, dir) in super::rendered::EDITIONS {
        for page in super::rendered::edition_pages(sources) {
            let html = out.join(dir).join(page.replace(".md", ".html"));
            let html = std::fs::read_to_string(&html).unwrap();
            for block in prose_blocks(&html, false) {
                for s in sentences(&block) {
                    let q = quantities(s);
                    if q.len() > 2 {
                        found.push(format!("{dir}/{page}: {} {q:?}: {s}", q.len()));
                    }
                }
            }
        }
    }
    found
}

/// No sentence of the rendered book states more than two quantities
/// (issue 38): split it, or move its numbers into a table.
#[test]
fn no_sentence_states_more_than_two_quantities() {
    let found = dense(super::rendered::render());
    assert!(
        found.is_empty(),
        "{} sentences state more than two quantities (split them, or move the numbers into a table):\n{}",
        found.len(),
        found.join("\n")
    );
}
