//! Unit tests of `crate::experiment::example` (`src/experiment/example/mod.rs`).

use attention_geometry::experiment::example::*;
use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::{Architecture, Mask};

#[test]
fn both_models_read_bank_in_both_sentences_with_rows_that_fit() {
    for arch in Architecture::ALL {
        let e = Example::run(arch, BOOK);
        let m = arch.with(Model::Trained);
        assert_eq!((e.layer, e.rho.len()), (m.layers() / 2, m.heads()));
        assert_eq!(e.drift.len(), m.layers() + 1);
        // the head of chapters 1 and 2 is the layer's median by ρ
        let below = e.rho.iter().filter(|&&r| r < e.rho[e.head]).count();
        assert_eq!(below, (m.heads() - 1) / 2);
        // RoPE adds no position to the decoder's stream: h_0(bank) is the same
        assert_eq!(e.drift[0] == 0.0, m.mask() == Mask::Causal);
        for r in &e.sentences {
            assert_eq!(r.tokens[r.word], m.word_token("bank"));
            for row in [&r.raw, &r.score, &r.weight, &r.carried, &r.last, &r.rollout] {
                assert_eq!(row.len(), r.seen);
            }
            for row in [&r.weight, &r.last, &r.rollout] {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-5);
            }
            // the word is most similar to itself
            assert!((r.raw[r.word] - 1.0).abs() < 1e-9);
            assert_eq!((r.heads.len(), r.update.len()), (m.heads(), m.layers()));
        }
    }
}
