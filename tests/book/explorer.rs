//! The attention explorer as the browser test drives it: which head it picks,
//! and what the values it shows must equal — `attend --tsv`'s weights and the
//! library's carried norms.

use std::process::Command;

use attention_geometry::pretrained::explorer::SentenceView;

/// The explorer's check: model, sentence, layer, head; the query is the
/// sentence's last token (a causal row that sees every key).
pub(crate) const EXPLORER: (&str, usize, usize, usize) = ("smollm2", 1, 3, 7);

/// The weights `attend --tsv` prints for the explorer's head: tokens, then rows.
fn attend_tsv(text: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let (model, _, layer, head) = EXPLORER;
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
    let (tsv_tokens, rows) = attend_tsv(text);
    assert_eq!(tokens, tsv_tokens);
    let (_, _, layer, head) = EXPLORER;
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
