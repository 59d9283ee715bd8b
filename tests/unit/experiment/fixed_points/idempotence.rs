//! Unit tests of `crate::experiment::fixed_points::idempotence` (`src/experiment/fixed_points/idempotence.rs`).

mod verdict;

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;

use attention_geometry::experiment::fixed_points::idempotence::*;

#[test]
fn a_block_re_applied_is_measured_on_every_block_and_sentence() {
    let f = book();
    for arch in Architecture::ALL {
        let x = f.arch(arch);
        let m = arch.with(Model::Trained);
        assert_eq!(x.trained.ratio.len(), m.layers());
        assert_eq!(x.random.ratio[0].len(), BOOK.sentences);
        assert!(
            x.trained
                .ratio
                .iter()
                .flatten()
                .all(|r| r.is_finite() && *r > 0.0)
        );
    }
    assert_eq!(f.smollm2.trained.kept.len(), BOOK.tail);
    assert!(f.minilm.trained.kept.is_empty());
    assert!((rate_for_eight_steps().powi(8) - 0.01).abs() < 1e-12);
}
