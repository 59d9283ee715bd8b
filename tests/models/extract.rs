//! The committed files: checksums, the size budget, one-line load errors.

use std::fs;

use attention_geometry::pretrained::checksum::sha256_hex;
use attention_geometry::pretrained::models_dir;
use attention_geometry::pretrained::smollm2::SmolLm2;

#[test]
fn committed_files_match_their_checksums() {
    let dir = models_dir().join("smollm2");
    let sums = fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let names: Vec<&str> = sums
        .lines()
        .map(|line| {
            let (hex, name) = line.split_once("  ").unwrap();
            assert_eq!(
                sha256_hex(&fs::read(dir.join(name)).unwrap()),
                hex,
                "{name}"
            );
            name
        })
        .collect();
    assert_eq!(
        names,
        [
            "LICENSE",
            "embedding.safetensors",
            "layers-00-14.safetensors",
            "layers-15-29.safetensors",
            "reference.json",
            "tokenizer.json"
        ]
    );
}

/// Every file under `dir`, with its size.
fn sizes(dir: &std::path::Path, out: &mut Vec<(String, u64)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        match meta.is_dir() {
            true => sizes(&entry.path(), out),
            false => out.push((entry.path().display().to_string(), meta.len())),
        }
    }
}

#[test]
fn models_stay_within_160_mb_and_no_file_exceeds_50_mb() {
    let mut files = Vec::new();
    sizes(&models_dir(), &mut files);
    let total: u64 = files.iter().map(|(_, s)| s).sum();
    assert!(total <= 160_000_000, "models/ holds {total} bytes");
    for (name, size) in files {
        assert!(size <= 50_000_000, "{name} is {size} bytes");
    }
}

#[test]
fn a_corrupted_layer_file_is_one_line_with_its_checksum() {
    let from = models_dir().join("smollm2");
    let tmp = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), tmp.path().join(entry.file_name())).unwrap();
    }
    let path = tmp.path().join("layers-15-29.safetensors");
    let mut bytes = fs::read(&path).unwrap();
    bytes[20_000_000] ^= 1;
    fs::write(&path, bytes).unwrap();
    let e = SmolLm2::load_from(tmp.path()).unwrap_err().to_string();
    let sums = fs::read_to_string(from.join("SHA256SUMS")).unwrap();
    let want = &sums
        .lines()
        .find(|l| l.ends_with("layers-15-29.safetensors"))
        .unwrap()[..64];
    assert!(
        e.contains("layers-15-29.safetensors") && e.contains(want) && !e.contains('\n'),
        "{e}"
    );
}
