//! Unit tests of `crate::experiment::relations::trained::composite` (`src/experiment/relations/trained/composite.rs`).

use attention_geometry::experiment::relations::trained::composite::*;
use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;
use attention_geometry::relation::{chain, is_stochastic};
use nalgebra::DMatrix;
use nalgebra::dmatrix;

#[test]
fn removing_a_sink_renormalises_the_rest() {
    let a = dmatrix![0.5, 0.25, 0.25; 1.0, 0.0, 0.0];
    let b = without_sinks(&a, &[0]);
    assert_eq!(b, dmatrix![0.0, 0.5, 0.5; 0.0, 1.0, 0.0]);
    // causal: the first position sees only the sink and keeps reading itself
    let causal = dmatrix![1.0, 0.0; 0.9, 0.1];
    assert_eq!(without_sinks(&causal, &[0]), dmatrix![1.0, 0.0; 0.0, 1.0]);
}

#[test]
fn the_carried_composite_is_stochastic_and_a_layer_is_its_head_writes() {
    let m = Architecture::Minilm.with(Model::Trained);
    let e = m.encode("the bank raised its rates").expect("encodes");
    let trace = m.run(&e.ids);
    let mixes: Vec<DMatrix<f64>> = trace.layers.iter().map(|t| carried_mix(m, t)).collect();
    assert!(mixes.iter().all(|x| is_stochastic(x, 1e-12)));
    assert!(is_stochastic(&chain(&mixes), 1e-12));
    // off the diagonal, N[i, j] ∝ ‖Σ_h α^h_ij f^h(x_j)‖: the heads' writes taken apart by key
    let t = &trace.layers[2];
    let carried = |i: usize, j: usize| {
        let f = |h: usize| m.value_out(t.layer, h, &t.heads[h].v);
        (0..m.heads())
            .map(|h| f(h).row(j) * t.heads[h].weights[(i, j)])
            .fold(t.input.row(0) * 0.0, |s, w| s + w)
            .norm()
    };
    let ratio = mixes[2][(1, 3)] / mixes[2][(1, 4)];
    assert!((ratio - carried(1, 3) / carried(1, 4)).abs() < 1e-9);
}
