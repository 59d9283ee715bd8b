//! Unit tests of `crate::experiment::relations::trained::flow` (`src/experiment/relations/trained/flow.rs`).

use attention_geometry::experiment::relations::trained::flow::*;
use attention_geometry::relation::residual_mix;
use attention_geometry::relation::{random_stochastic, rollout};
use nalgebra::DMatrix;

#[test]
fn flow_is_bounded_by_one_and_by_the_narrowest_layer() {
    let mut rng = attention_geometry::random::seeded(3);
    let layers: Vec<DMatrix<f64>> = (0..3)
        .map(|_| random_stochastic(&mut rng, 5, 5, 1.0))
        .collect();
    let f = flow(&layers);
    let r = rollout(&layers);
    for t in 0..5 {
        for j in 0..5 {
            // a path's product is at most its narrowest edge, and the output
            // token receives at most 1 in total
            assert!(f[(t, j)] >= r[(t, j)] - 1e-12 && f[(t, j)] <= 1.0 + 1e-12);
            let first = residual_mix(&layers[0]).column(j).sum();
            assert!(f[(t, j)] <= first + 1e-12);
        }
    }
    let last = flow_rows(&layers, &[4]);
    assert_eq!(last.row(4), f.row(4));
    assert!(last.row(0).iter().all(|v| v.is_nan()));
}
