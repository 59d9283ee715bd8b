//! Unit tests of `crate::experiment::multi_head::pruning::direct` (`src/experiment/multi_head/pruning/direct.rs`).

use attention_geometry::experiment::multi_head::pruning::direct::*;
use attention_geometry::pretrained::smollm2::SmolLm2;
use attention_geometry::pretrained::smollm2::forward;
use attention_geometry::pretrained::smollm2::linear::project;
use attention_geometry::pretrained::transformer::Transformer;
use nalgebra::DMatrix;

/// δ is the derivative of the loss along the removal of a late head's
/// write, the norm's scale frozen: a difference quotient matches it.
#[test]
fn the_first_order_effect_matches_removing_the_write() {
    let s = SmolLm2::shared();
    let ids = s.encode("The capital of France is Paris, and").unwrap().ids;
    let t = Transformer::run(s, &ids);
    let e = effects(s, &t, &ids);
    let (l, h, r, n) = (29, 0, 64, ids.len() - 1);
    let head = &t.layers[l].heads[h];
    let w_o = s.weights.blocks[l].w_o.map(f64::from);
    let write = &head.weights * &head.v * w_o.rows(h * r, r);
    let x = &t.output;
    // the loss at each position with the stream y read at x's rms
    let loss = |y: &DMatrix<f64>| -> Vec<f64> {
        let u = DMatrix::from_fn(n, y.ncols(), |i, c| {
            let rms = (x.row(i).norm_squared() / x.ncols() as f64 + s.config.rms_eps).sqrt();
            (y[(i, c)] / rms) as f32 * s.weights.output_norm[c]
        });
        let logits = project(&u, &s.weights.embedding);
        (0..n)
            .map(|i| {
                let row: Vec<f32> = logits.row(i).iter().copied().collect();
                -forward::log_softmax(&row)[ids[i + 1] as usize]
            })
            .collect()
    };
    // a small step along the removal: the difference quotient is δ
    let eps = 0.01;
    let (before, after) = (loss(x), loss(&(x - &write * eps)));
    let k = l * 9 + h;
    for i in 0..n {
        let quotient = (after[i] - before[i]) / eps;
        assert!(
            (quotient - e[k][i]).abs() < 0.05 * e[k][i].abs() + 0.01,
            "position {i}: difference quotient {quotient}, δ {}",
            e[k][i]
        );
    }
}
