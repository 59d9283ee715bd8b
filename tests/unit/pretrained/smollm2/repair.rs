//! Unit tests of `crate::pretrained::smollm2::repair` (`src/pretrained/smollm2/repair.rs`).

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::smollm2::repair::*;
use attention_geometry::pretrained::transformer::Transformer;
use nalgebra::DMatrix;

#[test]
fn a_zero_change_has_no_effect_and_a_zeroed_head_equals_the_ablated_rerun() {
    let m = Model::Trained.smollm2();
    let ids = m.encode("The cat sat on the mat by the door.").unwrap().ids;
    let clean = m.run(&ids);
    let (l, h) = (20, 4);
    let z = DMatrix::zeros(ids.len(), 576);
    let e = effects(m, &clean, l, &[z, -m.write(&clean.layers[l], h)]);
    assert!(e[0].total.abs().max() < 1e-4 && e[0].direct.abs().max() == 0.0);
    // the δ restart against the trait's own head ablation from block l
    let ablated = m.run_from(l, clean.layers[l].input.clone(), &[(l, h)]);
    let want = read_out(m, &ablated.output) - read_out(m, &clean.output);
    assert!((&e[1].total - &want).norm() < 1e-3 * want.norm().max(1e-3));
    assert!(e[1].total.norm() > 1e-3);
    // the layer's attention is the sum of its heads' writes
    let u = &clean.layers[l].input + m.attention(&clean.layers[l]);
    let rerun = resume(m, l, &u);
    assert!((rerun - &clean.output).norm() < 1e-4 * clean.output.norm());
}
