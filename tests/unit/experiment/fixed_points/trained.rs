//! Unit tests of `crate::experiment::fixed_points::trained` (`src/experiment/fixed_points/trained.rs`).

mod tail;

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;

use attention_geometry::experiment::fixed_points::trained::*;

#[test]
fn every_layer_of_both_models_is_iterated_and_the_sink_row_set_apart() {
    let f = book();
    for arch in Architecture::ALL {
        let (x, m) = (f.arch(arch), arch.with(Model::Trained));
        assert_eq!(x.trained.layer[0].len(), m.layers());
        assert_eq!(x.trained.layer.len(), paths(m).len());
        let n = x.trained.all.update[0].len();
        assert_eq!(n - x.trained.later.update[0].len(), BOOK.stream_sentences);
        assert!(
            x.random
                .all
                .cosine
                .iter()
                .flatten()
                .all(|c| c.abs() <= 1.0 + 1e-12)
        );
    }
}
