//! Unit tests of `crate::pretrained::transformer` (`src/pretrained/transformer.rs`).

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::intervention::run_parts;
use attention_geometry::pretrained::minilm::Minilm;
use attention_geometry::pretrained::smollm2::SmolLm2;
use attention_geometry::pretrained::smollm2::repair::resume;
use attention_geometry::pretrained::transformer::*;

#[test]
fn the_attention_sublayer_read_from_a_trace_is_the_one_the_pass_used() {
    // encoder: against the intervention code's own sublayer outputs
    let m = Minilm::shared();
    let ids = Transformer::encode(m, "The bank of the river.")
        .unwrap()
        .ids;
    let t = Transformer::run(m, &ids);
    let parts = run_parts(&m.weights, 0, m.embed(&ids), ids.len(), &[Vec::new()]);
    for (l, p) in parts.iter().enumerate() {
        let layer = &t.layers[l];
        assert!((m.attention(layer) - &p.attn).abs().max() < 1e-9);
        let u = &layer.input + &p.attn;
        assert!((m.block_norm(l, &u) - &p.mid).abs().max() < 1e-9);
    }
    // decoder: resuming block l from x + attn reproduces the last stream
    let d = SmolLm2::shared();
    let ids = Transformer::encode(d, "The bank of the river.")
        .unwrap()
        .ids;
    let t = Transformer::run(d, &ids);
    for l in [0, 14, 29] {
        let layer = &t.layers[l];
        let u = &layer.input + d.attention(layer);
        let rel = (resume(d, l, &u) - &t.output).norm() / t.output.norm();
        assert!(rel < 1e-5, "layer {l}: {rel}");
        let f32_norm = attention_geometry::pretrained::smollm2::forward::rms_norm(
            &u.map(|v| v as f32),
            &d.weights.blocks[l].ffn_norm,
            d.config.rms_eps,
        );
        let diff = (d.block_norm(l, &u) - f32_norm.map(f64::from)).abs().max();
        assert!(diff < 1e-4, "layer {l}: {diff}");
    }
    // one block alone is the pass's layer, in both models
    for arch in Architecture::ALL {
        let m = arch.with(Model::Trained);
        let s = m
            .run(&m.encode("The bank of the river.").unwrap().ids)
            .states();
        let rel = (m.block(3, &s[3]) - &s[4]).norm() / s[4].norm();
        assert!(rel < 1e-6, "{}: {rel}", m.name());
    }
}
