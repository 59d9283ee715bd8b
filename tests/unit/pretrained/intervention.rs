//! Unit tests of `crate::pretrained::intervention` (`src/pretrained/intervention.rs`).

use attention_geometry::pretrained::intervention::*;
use attention_geometry::pretrained::minilm::Minilm;
use attention_geometry::pretrained::minilm::forward::embed;
use attention_geometry::pretrained::minilm::weights::LayerNorm;
use nalgebra::DMatrix;

#[test]
fn stacked_runs_match_the_forward_pass_and_split_the_total_effect() {
    let m = Minilm::shared();
    let ids = m
        .encode("Heads can be switched off one at a time.")
        .unwrap()
        .ids;
    let n = ids.len();
    let x = embed(&m.weights, &ids);
    let clean = run_parts(&m.weights, 0, x.clone(), n, &[Vec::new()]);
    let full = m.run(&ids);
    assert!((&clean[5].output - &full.output).abs().max() < 1e-9);
    // two stacked variants: clean and head (2, 5) ablated, against run_ablated
    let stack = DMatrix::from_fn(2 * n, x.ncols(), |r, c| x[(r % n, c)]);
    let both = run_parts(&m.weights, 0, stack, n, &[Vec::new(), vec![(2, 5)]]);
    let ablated = m.run_ablated(&ids, &[(2, 5)]);
    assert!((variant(&both[5], 0, n).output - &full.output).abs().max() < 1e-9);
    assert!(
        (variant(&both[5], 1, n).output - &ablated.output)
            .abs()
            .max()
            < 1e-9
    );
    // Δ_tot ≈ Δ_dir + Σ indirect, to first order
    let tail: Vec<Parts> = both[2..].iter().map(|p| variant(p, 1, n)).collect();
    let total = &ablated.output - &full.output;
    let mut sum = direct_effect(&m.weights, &clean, 2, 5);
    for (_, _, d) in indirect(&m.weights, &clean, &tail, 2) {
        sum += d;
    }
    assert!((&total - &sum).norm() < 0.5 * total.norm());
}

#[test]
fn a_frozen_layer_norm_is_the_layer_norm_for_a_zero_mean_shift_of_its_scale() {
    let ln = LayerNorm {
        weight: nalgebra::DVector::from_element(3, 2.0),
        bias: nalgebra::DVector::zeros(3),
    };
    let d = DMatrix::from_row_slice(1, 3, &[1.0, 2.0, 3.0]);
    assert_eq!(
        frozen(&ln, &d, &[2.0]),
        DMatrix::from_row_slice(1, 3, &[-1.0, 0.0, 1.0])
    );
}
