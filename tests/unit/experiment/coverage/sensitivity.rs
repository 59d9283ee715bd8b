//! Unit tests of `crate::experiment::coverage::sensitivity` (`src/experiment/coverage/sensitivity.rs`).

use attention_geometry::experiment::coverage::sensitivity::*;
use attention_geometry::pretrained::counterfactual::head_changes;
use attention_geometry::pretrained::counterfactual::{Counterfactual, Target};
use attention_geometry::pretrained::transformer::Mask;
use nalgebra::DMatrix;

/// A causal head of three tokens: query 0 sees only itself.
fn causal() -> (DMatrix<f64>, DMatrix<f64>, DMatrix<f64>) {
    let alpha = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.2, 0.3, 0.5]);
    let f = DMatrix::from_row_slice(3, 2, &[1.0, 0.0, 0.0, 2.0, 1.0, 1.0]);
    (alpha, f, DMatrix::from_element(3, 2, 1.0))
}

#[test]
fn a_causal_head_ranks_its_prefix_and_value_zeroing_on_the_head_is_the_norm() {
    let (alpha, f, u) = causal();
    let norm = |x: &DMatrix<f64>| x.clone();
    let tokens: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let head = Head {
        alpha: &alpha,
        f: &f,
        u: &u,
        norm: &norm,
        tokens: &tokens,
        special: &[true, false, false],
        mask: Mask::Causal,
        layer: &DMatrix::zeros(3, 3),
        seed: 0,
    };
    assert_eq!(head.queries(), vec![1, 2]);
    let s = measure(&head);
    // the data's sink is key 1, not the named key 0: (0.5 + 0.3) / 2 of
    // the queries with a choice, against (0.5 + 0.2) / 2
    assert!((s.sink_weight - 0.4).abs() < 1e-12);
    let vz = s.rho(Target::Head, Counterfactual::ValueZeroing, Keys::All);
    assert!((vz[1] - 1.0).abs() < 1e-12);
    // knockout of the last query, which sees every key, is the bidirectional one
    let ko = head_changes(Counterfactual::Knockout, &alpha, &f);
    let [e, block] = pair_effects(Counterfactual::Knockout, &head);
    for j in 0..3 {
        assert!((e[(2, j)] - ko.row(6 + j).norm()).abs() < 1e-12);
        // N = identity: the block's change is the head's
        assert!((block[(2, j)] - e[(2, j)]).abs() < 1e-12);
    }
    // mean-value ablation at query 1 uses the mean of keys 0 and 1 only
    let [mv, _] = pair_effects(Counterfactual::MeanValue, &head);
    let prefix = (f.row(0) + f.row(1)) / 2.0;
    assert!((mv[(1, 0)] - 0.5 * (prefix - f.row(0)).norm()).abs() < 1e-12);
    assert_eq!(mv[(0, 1)], 0.0, "masked");
}
