//! The attention explorer as the browser test drives it: which head it picks,
//! and what the values it shows must equal — `attend --tsv`'s weights and the
//! library's carried norms.

use std::collections::BTreeMap;
use std::process::Command;
use std::sync::Mutex;

use attention_geometry::pretrained::explorer::SentenceView;

/// The explorer's check: model, sentence, layer, head; the query is the
/// sentence's last token (a causal row that sees every key).
pub(crate) const EXPLORER: (&str, usize, usize, usize) = ("smollm2", 1, 3, 7);

/// The weights `attend --tsv` prints for `model`'s head `head` of layer
/// `layer`: tokens, then rows.
pub(crate) fn attend_tsv(
    text: &str,
    model: &str,
    layer: usize,
    head: usize,
) -> (Vec<String>, Vec<Vec<f64>>) {
    // several tests ask for the same head: run the command once for each
    type Printed = (Vec<String>, Vec<Vec<f64>>);
    static PRINTED: Mutex<BTreeMap<(String, String, usize, usize), Printed>> =
        Mutex::new(BTreeMap::new());
    let key = (text.to_string(), model.to_string(), layer, head);
    if let Some(printed) = PRINTED.lock().unwrap().get(&key) {
        return printed.clone();
    }
    let printed = run_attend_tsv(text, model, layer, head);
    PRINTED.lock().unwrap().insert(key, printed.clone());
    printed
}

fn run_attend_tsv(
    text: &str,
    model: &str,
    layer: usize,
    head: usize,
) -> (Vec<String>, Vec<Vec<f64>>) {
    let out = Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
        .args(["attend", text, "--model", model, "--tsv"])
        .args(["--layer", &layer.to_string(), "--head", &head.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = String::from_utf8(out.stdout).unwrap();
    let mut lines = out.lines();
    let tokens = lines
        .next()
        .unwrap()
        .split('\t')
        .map(String::from)
        .collect();
    let rows = lines
        .map(|l| l.split('\t').map(|x| x.parse().unwrap()).collect())
        .collect();
    (tokens, rows)
}

/// What the explorer showed (the harness's `ok explorer {…}` line) against
/// `attend --tsv` (weights) and the library (carried norms), within the
/// rounding of the data (4 decimals) and of the page (3).
pub(crate) fn check_explorer(report: &str, text: &str, view: &SentenceView) {
    use serde_json::Value;
    let line = report
        .lines()
        .find_map(|l| l.strip_prefix("ok explorer "))
        .unwrap_or_else(|| panic!("the explorer check did not run:\n{report}"));
    let shown: Value = serde_json::from_str(line).unwrap();
    let numbers = |key: &str| -> Vec<f64> {
        shown[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let tokens: Vec<&str> = shown["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let (model, _, layer, head) = EXPLORER;
    let (tsv_tokens, rows) = attend_tsv(text, model, layer, head);
    assert_eq!(tokens, tsv_tokens);
    let i = tokens.len() - 1;
    let (weights, carried) = (numbers("weights"), numbers("carried"));
    assert_eq!(weights.len(), i + 1, "a causal row shows keys 0..=i");
    let within = 6e-4;
    for (j, w) in weights.iter().enumerate() {
        assert!(
            (w - rows[i][j]).abs() <= within,
            "key {j}: shown {w}, attend --tsv {}",
            rows[i][j]
        );
        assert_eq!(shown["shaded"][j].as_str().unwrap(), format!("{w:.3}"));
    }
    let want = &view.layers[layer][head].carried[i];
    for (j, c) in carried.iter().enumerate() {
        assert!(
            (c - want[j]).abs() <= within,
            "key {j}: carried {c}, library {}",
            want[j]
        );
    }
    assert!(
        carried != weights,
        "switching to the carried norm changed nothing"
    );
    let caption = |key: &str| shown[key].as_str().unwrap().to_string();
    assert!(
        caption("focused").contains(&format!("(position {})", i - 1)),
        "{}",
        caption("focused")
    );
    assert!(
        caption("arrowed").contains(&format!("(position {i})")),
        "{}",
        caption("arrowed")
    );
}

/// The explorer's repeated sequence, read again, is one run of tokens
/// repeated exactly (decoded from chapter 3's sequence, some of whose rare
/// tokens the tokenizer splits), so its induction stripe is where an
/// induction head would put it.
#[test]
fn the_repeated_sequence_reads_back_as_one_run_twice() {
    use attention_geometry::experiment::multi_head::induction_heads::{BOOK, Lead, Repeat};
    use attention_geometry::pretrained::smollm2::SmolLm2;
    let model = SmolLm2::shared();
    let text = attention_geometry::render::repeated_text();
    let r = Repeat::draw(Lead::Nothing, BOOK.length, 0);
    assert_eq!(text, model.tokenizer.decode(&r.ids));
    let ids = model.encode(&text).unwrap().ids;
    let half = ids.len() / 2;
    assert!(
        ids.len().is_multiple_of(2) && half >= BOOK.length,
        "{ids:?}"
    );
    assert_eq!(ids[..half], ids[half..]);
}
