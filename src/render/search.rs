//! Offline search that works in Chinese. mdBook's index splits text at
//! spaces, and Chinese has none: a whole sentence becomes one "word", and
//! its search script trims every Han character from a query. The Chinese
//! edition's index is therefore rebuilt here from the documents mdBook
//! stored, with [`tokens`]: Han text as overlapping character pairs, other
//! text as lower-case words. `chapters/edition.js` gives the browser the
//! same tokenizer, so a query for 不动点 looks up 不动 and 动点.
//!
//! ```text
//! "注意力 heads" → ["注意", "意力", "heads"]      a lone Han character stays one token
//! ```

use std::path::Path;

use elasticlunr::pipeline::Pipeline;
use elasticlunr::{IndexBuilder, Language};
use serde_json::Value;

use crate::edition::han;

/// `text`'s search tokens: every pair of neighbouring Han characters (a
/// lone one as itself), and every run of other letters, digits and `_` in
/// lower case.
///
/// ```
/// # use attention_geometry::render::search::tokens;
/// assert_eq!(tokens("注意力 Heads"), ["注意", "意力", "heads"]);
/// assert_eq!(tokens("头：d_k=8"), ["头", "d_k", "8"]);
/// ```
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<char> = Vec::new();
    let flush = |run: &mut Vec<char>, out: &mut Vec<String>| {
        match run.first() {
            Some(c) if han(*c) && run.len() > 1 => {
                out.extend(run.windows(2).map(|w| w.iter().collect::<String>()))
            }
            Some(_) => out.push(run.iter().collect::<String>().to_lowercase()),
            None => {}
        }
        run.clear();
    };
    for c in text.chars() {
        let word = c.is_alphanumeric() || c == '_';
        match run.last() {
            Some(last) if word && han(*last) == han(c) => run.push(c),
            _ => {
                flush(&mut run, &mut out);
                if word {
                    run.push(c);
                }
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// The Chinese edition's "language": [`tokens`], and no trimming, stop
/// words or stemming, which would differ between the index and the browser.
struct Bigrams;

impl Language for Bigrams {
    fn name(&self) -> String {
        "Chinese".into()
    }
    fn code(&self) -> String {
        "zh".into()
    }
    fn tokenize(&self, text: &str) -> Vec<String> {
        tokens(text)
    }
    fn make_pipeline(&self) -> Pipeline {
        Pipeline { queue: Vec::new() }
    }
}

/// Rebuild the search index mdBook wrote into `html` (its `searchindex*.js`)
/// with [`tokens`], keeping its documents, their links and the options.
pub fn rebuild(html: &Path) -> Result<(), String> {
    let path = std::fs::read_dir(html)
        .map_err(|e| format!("cannot read {}: {e}", html.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("searchindex") && n.ends_with(".js"))
        })
        .ok_or_else(|| format!("no search index in {}", html.display()))?;
    let script = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (before, json, after) = unwrap_script(&script)
        .ok_or_else(|| format!("{}: not mdBook's search index script", path.display()))?;
    let mut data: Value =
        serde_json::from_str(&json).map_err(|e| format!("{}: {e}", path.display()))?;
    data["index"] = reindex(&data["index"])?;
    let json = serde_json::to_string(&data).map_err(|e| e.to_string())?;
    let script = format!(
        "{before}{}{after}",
        json.replace('\\', "\\\\").replace('\'', "\\'")
    );
    crate::file::write_atomic(&path, script.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `window.search = …JSON.parse('…');` → (the text before the string, the
/// JSON, the text after), undoing mdBook's escapes of `\` and `'`.
pub fn unwrap_script(script: &str) -> Option<(&str, String, &str)> {
    const OPEN: &str = "JSON.parse('";
    let start = script.find(OPEN)? + OPEN.len();
    let end = script.rfind("')")?;
    let mut json = String::with_capacity(end - start);
    let mut chars = script[start..end].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => json.push(chars.next()?),
            c => json.push(c),
        }
    }
    Some((&script[..start], json, &script[end..]))
}

/// An elasticlunr index built again from `old`'s stored documents, in their order.
fn reindex(old: &Value) -> Result<Value, String> {
    let fields: Vec<String> = old["fields"]
        .as_array()
        .ok_or("the search index has no fields")?
        .iter()
        .filter_map(|f| f.as_str().map(String::from))
        .collect();
    let docs = old["documentStore"]["docs"]
        .as_object()
        .ok_or("the search index stores no documents")?;
    let mut refs: Vec<&String> = docs.keys().collect();
    refs.sort_by_key(|r| r.parse::<usize>().unwrap_or(usize::MAX));
    let mut builder = IndexBuilder::with_language(Box::new(Bigrams));
    for f in &fields {
        builder = builder.add_field(f);
    }
    let mut index = builder.build();
    for r in refs {
        let doc = &docs[r];
        let values: Vec<&str> = fields
            .iter()
            .map(|f| doc[f].as_str().unwrap_or(""))
            .collect();
        index.add_doc(r, values);
    }
    serde_json::to_value(&index).map_err(|e| e.to_string())
}
