//! `attention-geometry heads`: the exact TSV format, the readable table, and
//! the one-line error for an unknown model.

use std::process::Command;

fn heads(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
        .arg("heads")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn check_tsv(model: &str, layers: usize, heads_per_layer: usize) {
    let out = heads(&[model, "--tsv"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("layer\thead\tsymmetric_share\tnegative_mass")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), layers * heads_per_layer);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 4, "{row:?}");
        assert_eq!(row[0].parse::<usize>().unwrap(), i / heads_per_layer);
        assert_eq!(row[1].parse::<usize>().unwrap(), i % heads_per_layer);
        for v in &row[2..] {
            let v: f64 = v.parse().unwrap();
            assert!((0.0..=1.0).contains(&v), "{row:?}");
        }
    }
}

#[test]
fn smollm2_tsv_has_the_header_and_one_line_per_head() {
    check_tsv("smollm2", 30, 9);
}

#[test]
fn minilm_tsv_has_the_header_and_one_line_per_head() {
    check_tsv("minilm", 6, 12);
}

#[test]
fn the_readable_table_names_the_model_and_the_layer_scores() {
    // the encoder's (the decoder's rows are checked in TSV above, at ten times the cost)
    let out = heads(&["minilm"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("minilm: W_QK"));
    assert_eq!(text.matches("layer score").count(), 6);
}

#[test]
fn an_unknown_model_is_one_line_listing_the_valid_ones() {
    let out = heads(&["gpt2"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("'gpt2'") && err.contains("minilm, smollm2"),
        "{err}"
    );
}
