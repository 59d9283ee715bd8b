//! `attend --model smollm2`, `next` and `complete`: their formats and their refusals.

use std::path::Path;
use std::process::{Command, Output};

use attention_geometry::pretrained::smollm2::SmolLm2;

use super::assert_refused;

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_attention-geometry"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn attend_tsv_prints_vocabulary_tokens_then_causal_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "The capital of France is Paris.";
    let out = stdout(run(
        &[
            "attend", text, "--model", "smollm2", "--layer", "3", "--head", "7", "--tsv",
        ],
        tmp.path(),
    ));
    let m = SmolLm2::shared();
    let e = m.encode(text).unwrap();
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap().split('\t').collect::<Vec<_>>(),
        e.tokens
    );
    assert!(e.tokens.contains(&"Ġcapital".to_string()));
    let w = &m.run(&e.ids).layers[3].heads[7].weights;
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split('\t').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), e.ids.len());
    for (i, row) in rows.iter().enumerate() {
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-5);
        for (j, x) in row.iter().enumerate() {
            assert!((x - w[(i, j)]).abs() <= 5e-7);
            if j > i {
                assert_eq!(*x, 0.0, "row {i} sees the future");
            }
        }
    }
}

/// The data a page written by `attend --out FILE.html` holds, and where it opens.
fn explorer_data(html: &str) -> (serde_json::Value, serde_json::Value) {
    let global = |name: &str| -> serde_json::Value {
        let at = format!("window.{name} = ");
        let start = html.find(&at).unwrap_or_else(|| panic!("no {name}")) + at.len();
        let end = start + html[start..].find(";\n").unwrap();
        serde_json::from_str(&html[start..end]).unwrap()
    };
    (
        global("ATTENTION_EXPLORER"),
        global("ATTENTION_EXPLORER_START"),
    )
}

#[test]
fn attend_out_html_writes_the_explorer_in_one_file() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "The bank of the <river>.";
    let out = run(&["attend", text, "--out", "bank.html"], tmp.path());
    assert!(out.status.success() && out.stdout.is_empty());
    let html = std::fs::read_to_string(tmp.path().join("bank.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // self-contained: nothing to load, and the text cannot close a tag
    for outside in ["src=", "href=", "<river>"] {
        assert!(!html.contains(outside), "{outside}");
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    let (data, start) = explorer_data(&html);
    let models = data["models"].as_array().unwrap();
    let keys: Vec<&str> = models.iter().map(|m| m["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["minilm", "smollm2"], "both models without --model");
    assert_eq!(
        (start["model"].as_str(), start["layer"].as_u64()),
        (Some("minilm"), Some(5))
    );
    let m = SmolLm2::shared();
    let decoder = &models[1]["sentences"][0];
    let tokens: Vec<&str> = decoder["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(tokens, m.encode(text).unwrap().tokens);
    assert_eq!(decoder["layers"].as_array().unwrap().len(), 30);

    // one model, opening at a head
    let args = [
        "attend", text, "--model", "smollm2", "--layer", "3", "--head", "7", "--out", "one.html",
    ];
    let out = run(&args, tmp.path());
    assert!(out.status.success());
    let (data, start) =
        explorer_data(&std::fs::read_to_string(tmp.path().join("one.html")).unwrap());
    assert_eq!(data["models"].as_array().unwrap().len(), 1);
    assert_eq!(
        (start["layer"].as_u64(), start["head"].as_u64()),
        (Some(3), Some(7))
    );
}

#[test]
fn next_tsv_has_its_header_and_k_ranked_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let out = stdout(run(
        &["next", "The capital of France is", "--top", "4", "--tsv"],
        tmp.path(),
    ));
    let lines: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines[0], ["rank", "token_id", "token", "logprob"]);
    assert_eq!(lines.len(), 5);
    let m = SmolLm2::shared();
    let mut last = 0.0;
    for (i, l) in lines[1..].iter().enumerate() {
        assert_eq!(l[0], (i + 1).to_string());
        let id: u32 = l[1].parse().unwrap();
        assert_eq!(m.tokenizer.token(id), l[2]);
        let lp: f64 = l[3].parse().unwrap();
        assert!(lp < 0.0 && (i == 0 || lp <= last));
        last = lp;
    }
    assert_eq!(lines[1][2], "ĠParis");
}

#[test]
fn complete_prints_the_greedy_continuation() {
    let tmp = tempfile::tempdir().unwrap();
    // llama.cpp's greedy continuation of the same prompt, as the reference recorded it
    let r = super::reference("smollm2/reference-llama.json");
    let c = &r["continuations"][0];
    let text = c["text"].as_str().unwrap();
    let out = stdout(run(&["complete", text, "--tokens", "6"], tmp.path()));
    let want = &super::ids(&c["greedy"])[..6];
    assert_eq!(
        out.trim_end_matches('\n'),
        SmolLm2::shared().tokenizer.decode(want)
    );
    assert!(out.starts_with(" Paris"));
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let smol = |extra: &[&str]| {
        let mut args = vec!["attend", "hi", "--model", "smollm2"];
        args.extend_from_slice(extra);
        run(&args, dir)
    };
    assert_refused(&smol(&["--layer", "30"]), dir, &["--layer 30", "0..=29"]);
    assert_refused(&smol(&["--head", "9"]), dir, &["--head 9", "0..=8"]);
    assert_refused(&smol(&["--tsv"]), dir, &["--head", "0..=8"]);
    assert_refused(
        &smol(&["--out", "x.txt"]),
        dir,
        &["x.txt", "FILE.svg", "FILE.html"],
    );
    assert_refused(&smol(&["--out", "x"]), dir, &["FILE.svg", "FILE.html"]);
    assert_refused(
        &run(&["attend", "hi", "--model", "gpt2"], dir),
        dir,
        &["gpt2", "smollm2"],
    );
    assert_refused(&run(&["next", ""], dir), dir, &["empty"]);
    assert_refused(&run(&["next", "hi", "--top", "0"], dir), dir, &["--top"]);
    assert_refused(&run(&["complete", " \t"], dir), dir, &["empty"]);
    assert_refused(
        &run(&["complete", "hi", "--tokens", "5000"], dir),
        dir,
        &["--tokens"],
    );
    let long = ["word"; 1100].join(" ");
    let out = run(&["next", &long], dir);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1100 tokens") && err.contains("1024"), "{err}");
}
