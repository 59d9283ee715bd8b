//! Unit tests of `crate::pretrained::folded` (`src/pretrained/folded.rs`).

use attention_geometry::pretrained::folded::*;
use attention_geometry::pretrained::minilm::forward::embed;
use attention_geometry::pretrained::minilm::{D_K, Minilm};
use nalgebra::DMatrix;

#[test]
fn folded_minilm_heads_give_the_layers_queries() {
    let m = Minilm::shared();
    let ids = m.encode("Gains fold into the projections.").unwrap().ids;
    let x = embed(&m.weights, &ids);
    let ln = &m.weights.embeddings.layer_norm;
    // x̂ = (x − β) / γ, then [x̂, 1] times the folded head
    let hat = DMatrix::from_fn(x.nrows(), x.ncols(), |i, j| {
        (x[(i, j)] - ln.bias[j]) / ln.weight[j]
    });
    let q = hat.insert_column(x.ncols(), 1.0) * &minilm_folded(m)[0].w_q[3];
    let want = m.weights.layers[0]
        .query
        .forward(&x)
        .columns(3 * D_K, D_K)
        .into_owned();
    assert!((q - want).abs().max() < 1e-9);
}
