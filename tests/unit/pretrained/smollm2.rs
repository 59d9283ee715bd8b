//! Unit tests of `crate::pretrained::smollm2` (`src/pretrained/smollm2/mod.rs`).

mod attention;
mod forward;
mod linear;
mod packed;
mod quant;
mod random_init;
mod repair;

use attention_geometry::pretrained::checksum::read_verified;
use nalgebra::DMatrix;

use attention_geometry::pretrained::smollm2::quant::BLOCK_WEIGHTS;
use attention_geometry::pretrained::smollm2::*;

#[test]
fn packed_prompts_give_each_prompts_own_logits() {
    let m = SmolLm2::shared();
    // one short prompt (dot-product path alone) and one long enough for the blocked product
    let (a, b) = ([504u32, 2536, 253], [12u32; 11]);
    let each = m.logits_each(&[&a, &b]);
    for (packed, alone) in each.iter().zip([m.logits(&a), m.logits(&b)]) {
        assert_eq!(packed.shape(), alone.shape());
        let gap = (packed - alone).amax();
        assert!(gap < 1e-3, "{gap}");
    }
}

#[test]
fn dequantisation_equals_the_gguf_package_on_sampled_blocks() {
    let model = SmolLm2::shared();
    let text = read_verified(&default_dir(), "reference.json").unwrap();
    let reference: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let samples = reference["samples"].as_array().unwrap();
    assert!(samples.len() >= 20);
    for s in samples {
        let name = s["tensor"].as_str().unwrap();
        let (row, block) = (
            s["row"].as_u64().unwrap() as usize,
            s["block"].as_u64().unwrap() as usize,
        );
        let w = matrix(&model.weights, name);
        for (j, v) in s["values"].as_array().unwrap().iter().enumerate() {
            let want = v.as_f64().unwrap() as f32;
            // (in, out): GGUF row `row` is column `row`
            assert_eq!(
                w[(block * BLOCK_WEIGHTS + j, row)],
                want,
                "{name} ({row}, {block}) [{j}]"
            );
        }
    }
}

/// The matrix a GGUF tensor name denotes.
fn matrix<'a>(w: &'a Weights, name: &str) -> &'a DMatrix<f32> {
    if name == "token_embd.weight" {
        return &w.embedding;
    }
    let mut parts = name.split('.');
    let l: usize = parts.nth(1).unwrap().parse().unwrap();
    let b = &w.blocks[l];
    match parts.next().unwrap() {
        "attn_q" => &b.w_q,
        "attn_k" => &b.w_k,
        "attn_v" => &b.w_v,
        "attn_output" => &b.w_o,
        "ffn_gate" => &b.w_gate,
        "ffn_up" => &b.w_up,
        "ffn_down" => &b.w_down,
        other => panic!("no matrix {other}"),
    }
}

#[test]
fn config_is_smollm2_135m() {
    let c = SmolLm2::shared().config;
    assert_eq!(
        (c.n_layer, c.n_head, c.n_head_kv, c.head_dim, c.d_model),
        (LAYERS, HEADS, 3, 64, 576)
    );
    assert_eq!((c.rope_theta, c.rms_eps as f32), (100000.0, 1e-5));
}

#[test]
fn head_blocks_follow_repeat_kv() {
    let m = SmolLm2::shared();
    assert_eq!(m.w_q(3, 4).shape(), (576, 64));
    assert_eq!(m.w_k(3, 5), m.w_k(3, 3));
    assert_ne!(m.w_k(3, 5), m.w_k(3, 2));
    assert_eq!(
        m.w_k(3, 4)[(7, 2)],
        f64::from(m.weights.blocks[3].w_k[(7, 64 + 2)])
    );
}

#[test]
fn a_corrupted_file_is_named_with_its_checksum() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        default_dir().join("SHA256SUMS"),
        dir.path().join("SHA256SUMS"),
    )
    .unwrap();
    let sums = std::fs::read_to_string(dir.path().join("SHA256SUMS")).unwrap();
    let want = sums
        .lines()
        .find(|l| l.ends_with(weights::FILES[0]))
        .unwrap()
        .split("  ")
        .next()
        .unwrap()
        .to_string();
    let missing = SmolLm2::load_from(dir.path()).unwrap_err().to_string();
    assert!(
        missing.contains("embedding.safetensors: cannot read") && missing.contains(&want),
        "{missing}"
    );
    std::fs::write(dir.path().join(weights::FILES[0]), b"not a model").unwrap();
    let err = SmolLm2::load_from(dir.path()).unwrap_err().to_string();
    assert!(err.contains("embedding.safetensors: corrupted"), "{err}");
    assert!(err.contains(&want) && !err.contains('\n'), "{err}");
}
