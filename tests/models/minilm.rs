//! The vendored MiniLM against the reference library: checksums, tokenizer ids,
//! attention weights and sentence embeddings from `models/minilm/reference.json`
//! (written by `scripts/reference_minilm.py` from the original float32 weights).

use std::fs;
use std::path::Path;

use attention_geometry::pretrained::checksum::sha256_hex;
use attention_geometry::pretrained::minilm::{D, HEADS, LAYERS, Minilm};
use attention_geometry::pretrained::models_dir;
use serde_json::Value;

use super::{assert_failed, assert_refused, ids, reference};

/// Largest |w − w_ref| allowed over every attention weight of every layer, head and
/// sentence: the float16 extract gives 1.0e-3 (measured; the issue asks for 5e-3).
const ATTENTION_TOLERANCE: f64 = 2e-3;
/// Smallest cosine allowed between our sentence embedding and the reference's: the
/// float16 extract gives 0.9999995 (measured; the issue asks for 0.999).
const COSINE_FLOOR: f64 = 0.99999;

fn text(v: &Value) -> &str {
    v["text"].as_str().unwrap()
}

#[test]
fn committed_files_match_their_checksums() {
    let dir = models_dir().join("minilm");
    let sums = fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let mut names = Vec::new();
    for line in sums.lines() {
        let (hex, name) = line.split_once("  ").unwrap();
        let bytes = fs::read(dir.join(name)).unwrap();
        assert_eq!(sha256_hex(&bytes), hex, "{name}");
        names.push(name);
    }
    assert_eq!(
        names,
        [
            "1_Pooling/config.json",
            "config.json",
            "model.safetensors",
            "tokenizer.json"
        ]
    );
    // the whole extract stays within its share of the 160 MB budget
    let size: u64 = names
        .iter()
        .map(|n| fs::metadata(dir.join(n)).unwrap().len())
        .sum();
    assert!(size < 46_000_000, "minilm extract is {size} bytes");
}

#[test]
fn tokenizer_matches_reference_ids() {
    let tok = &Minilm::shared().tokenizer;
    let r = reference("minilm/reference.json");
    let sentences = r["tokenizer_sentences"].as_array().unwrap();
    assert!(sentences.len() >= 40);
    for s in sentences {
        let ours = tok.encode_truncated(text(s), 512).ids;
        assert_eq!(ours, ids(&s["ids"]), "text: {:?}", text(s));
    }
}

#[test]
fn tokens_match_reference_strings() {
    let m = Minilm::shared();
    for s in reference("minilm/reference.json")["model_sentences"]
        .as_array()
        .unwrap()
    {
        let e = m.encode(text(s)).unwrap();
        assert_eq!(e.ids, ids(&s["ids"]));
        let tokens: Vec<&str> = s["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(e.tokens, tokens);
    }
}

#[test]
fn attention_weights_match_reference() {
    let m = Minilm::shared();
    let mut max_err: f64 = 0.0;
    for s in reference("minilm/reference.json")["model_sentences"]
        .as_array()
        .unwrap()
    {
        let trace = m.run(&ids(&s["ids"]));
        let att = s["attentions_e6"].as_array().unwrap();
        assert_eq!(att.len(), LAYERS);
        for (l, layer) in att.iter().enumerate() {
            for (h, head) in layer.as_array().unwrap().iter().enumerate() {
                let w = &trace.layers[l].heads[h].weights;
                for (i, row) in head.as_array().unwrap().iter().enumerate() {
                    for (j, e6) in row.as_array().unwrap().iter().enumerate() {
                        let want = e6.as_i64().unwrap() as f64 * 1e-6;
                        max_err = max_err.max((w[(i, j)] - want).abs());
                    }
                }
            }
            assert_eq!(trace.layers[l].heads.len(), HEADS);
        }
    }
    eprintln!("max |attention − reference| = {max_err:.2e}");
    assert!(
        max_err < ATTENTION_TOLERANCE,
        "max attention error {max_err}"
    );
}

#[test]
fn sentence_embeddings_match_reference() {
    let m = Minilm::shared();
    let mut min_cos: f64 = 1.0;
    for s in reference("minilm/reference.json")["model_sentences"]
        .as_array()
        .unwrap()
    {
        let ours = m.sentence_embedding(text(s)).unwrap();
        let want: Vec<f64> = s["embedding"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(want.len(), D);
        let want = nalgebra::DVector::from_vec(want);
        min_cos = min_cos.min(ours.dot(&want) / want.norm());
    }
    eprintln!("min cosine(embedding, reference) = {min_cos:.7}");
    assert!(min_cos >= COSINE_FLOOR, "min cosine {min_cos}");
}

#[test]
fn ablation_and_restart_agree_with_the_full_pass() {
    let m = Minilm::shared();
    let ids = m
        .encode("Heads can be switched off one at a time.")
        .unwrap()
        .ids;
    let full = m.run(&ids);
    // restarting at layer 3 from its recorded input reproduces the output exactly
    let rest = m.run_from(3, full.layers[3].input.clone(), &[]);
    assert_eq!(rest.layers.len(), 3);
    assert_eq!(rest.layers[0].layer, 3);
    assert_eq!(rest.output, full.output);
    // ablating a head of layer 4 leaves layers 0..=4's attention and changes the output
    let ablated = m.run_ablated(&ids, &[(4, 7)]);
    assert_eq!(
        ablated.layers[4].heads[7].weights,
        full.layers[4].heads[7].weights
    );
    assert_ne!(ablated.layers[5].input, full.layers[5].input);
    let change = (&ablated.output - &full.output).abs().max();
    assert!(change > 1e-6, "ablating head (4, 7) changed nothing");
}

fn copy_extract(to: &Path) {
    let from = models_dir().join("minilm");
    fs::create_dir_all(to.join("minilm/1_Pooling")).unwrap();
    for name in [
        "SHA256SUMS",
        "config.json",
        "1_Pooling/config.json",
        "model.safetensors",
        "tokenizer.json",
    ] {
        fs::copy(from.join(name), to.join("minilm").join(name)).unwrap();
    }
}

#[test]
fn corrupted_or_missing_file_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    copy_extract(tmp.path());
    let sums = fs::read_to_string(tmp.path().join("minilm/SHA256SUMS")).unwrap();
    let expected = |name: &str| sums.lines().find(|l| l.ends_with(name)).unwrap()[..64].to_string();

    let path = tmp.path().join("minilm/tokenizer.json");
    let mut bytes = fs::read(&path).unwrap();
    bytes[100] ^= 1;
    fs::write(&path, bytes).unwrap();
    let e = Minilm::load(tmp.path()).unwrap_err().to_string();
    assert!(!e.contains('\n'), "{e}");
    assert!(
        e.contains("tokenizer.json") && e.contains(&expected("tokenizer.json")),
        "{e}"
    );

    fs::remove_file(tmp.path().join("minilm/model.safetensors")).unwrap();
    let e = Minilm::load(tmp.path()).unwrap_err().to_string();
    assert!(!e.contains('\n'), "{e}");
    assert!(
        e.contains("model.safetensors") && e.contains(&expected("model.safetensors")),
        "{e}"
    );
}

// ---- the `attend` command ----

use std::process::{Command, Output};

fn attend(args: &[&str], dir: &Path, models: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_attention-geometry"));
    cmd.arg("attend").args(args).current_dir(dir);
    if let Some(m) = models {
        cmd.env(attention_geometry::pretrained::MODELS_ENV, m);
    }
    cmd.output().unwrap()
}

/// The command failed with one line on stderr containing every `needle`, printed
/// nothing, and wrote nothing into `dir`.
#[test]
fn attend_tsv_prints_tokens_then_weights() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "The naïve café owner's résumé impressed everyone.";
    let out = attend(
        &[text, "--layer", "2", "--head", "7", "--tsv"],
        tmp.path(),
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines = stdout.lines();
    let m = Minilm::shared();
    let e = m.encode(text).unwrap();
    assert_eq!(
        lines.next().unwrap().split('\t').collect::<Vec<_>>(),
        e.tokens
    );
    let w = &m.run(&e.ids).layers[2].heads[7].weights;
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split('\t').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), e.len());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), e.len());
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-5);
        for (j, x) in row.iter().enumerate() {
            assert!((x - w[(i, j)]).abs() <= 5e-7);
        }
    }
}

#[test]
fn attend_draws_every_head_or_one() {
    let tmp = tempfile::tempdir().unwrap();
    let out = attend(&["Heads attend to [SEP] a lot."], tmp.path(), None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = fs::read_to_string(tmp.path().join("attend.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("layer 5, heads 0–11") && svg.contains("head 11")
    );
    assert!(svg.contains("\n[SEP]\n"), "no [SEP] label");
    let one = tmp.path().join("one.svg");
    let out = attend(
        &[
            "Heads attend.",
            "--layer",
            "0",
            "--head",
            "4",
            "--out",
            one.to_str().unwrap(),
        ],
        tmp.path(),
        None,
    );
    assert!(out.status.success());
    let svg = fs::read_to_string(&one).unwrap();
    assert!(svg.contains("layer 0, head 4:") && !svg.contains("head 5"));
}

#[test]
fn attend_refuses_bad_input_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let long = ["word"; 600].join(" ");
    assert_refused(&attend(&[""], dir, None), dir, &["empty"]);
    assert_refused(&attend(&["   \t"], dir, None), dir, &["empty"]);
    assert_refused(&attend(&["\u{200b}"], dir, None), dir, &["empty"]);
    assert_refused(&attend(&[&long], dir, None), dir, &["602 tokens", "512"]);
    assert_refused(
        &attend(&["hi", "--layer", "6"], dir, None),
        dir,
        &["--layer 6", "0..=5"],
    );
    assert_refused(&attend(&["hi", "--layer", "x"], dir, None), dir, &["0..=5"]);
    assert_refused(
        &attend(&["hi", "--head", "12"], dir, None),
        dir,
        &["--head 12", "0..=11"],
    );
    assert_refused(
        &attend(&["hi", "--head"], dir, None),
        dir,
        &["a value is required for '--head"],
    );
    assert_refused(
        &attend(&["hi", "--colour", "red"], dir, None),
        dir,
        &["unexpected argument '--colour'"],
    );
    assert_refused(&attend(&["hi", "--tsv"], dir, None), dir, &["--head"]);
    assert_refused(
        &attend(&["hi", "there"], dir, None),
        dir,
        &["unexpected argument 'there'"],
    );
    assert_refused(&attend(&[], dir, None), dir, &["TEXT"]);
    // every one of these is a usage error
    for args in [&["hi", "--layer", "6"][..], &["hi", "--tsv"], &[""], &[]] {
        assert_eq!(attend(args, dir, None).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn attend_help_is_help_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    for flag in ["-h", "--help"] {
        let out = attend(&[flag], tmp.path(), None);
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(help.contains("Usage: attention-geometry attend") && help.contains("--layer <L>"));
        assert_eq!(
            fs::read_dir(tmp.path()).unwrap().count(),
            0,
            "{flag} wrote a file"
        );
    }
}

#[test]
fn attend_names_a_missing_or_corrupted_model_file() {
    let work = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    copy_extract(models.path());
    let sums = fs::read_to_string(models.path().join("minilm/SHA256SUMS")).unwrap();
    let expected = |name: &str| sums.lines().find(|l| l.ends_with(name)).unwrap()[..64].to_string();
    let path = models.path().join("minilm/model.safetensors");
    let mut bytes = fs::read(&path).unwrap();
    bytes[1_000_000] ^= 0x40;
    fs::write(&path, &bytes).unwrap();
    let out = attend(&["hi"], work.path(), Some(models.path()));
    assert_eq!(out.status.code(), Some(1), "a failure, not a usage error");
    assert_failed(
        &out,
        work.path(),
        &[
            "model.safetensors",
            "corrupted",
            &expected("model.safetensors"),
        ],
    );
    fs::remove_file(models.path().join("minilm/tokenizer.json")).unwrap();
    bytes[1_000_000] ^= 0x40;
    fs::write(&path, &bytes).unwrap();
    let out = attend(
        &["hi", "--head", "0", "--tsv"],
        work.path(),
        Some(models.path()),
    );
    assert_failed(
        &out,
        work.path(),
        &["tokenizer.json", &expected("tokenizer.json")],
    );
}
