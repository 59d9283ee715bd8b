//! Unit tests of `crate::figures::diagrams::covering` (`src/figures/diagrams/covering.rs`).

use attention_geometry::attention::Mask;
use attention_geometry::attribution::carried_norms;
use attention_geometry::figures::diagrams::covering::*;

#[test]
fn the_caption_holds_the_most_weighted_key_carries_less_than_two_others() {
    let (x, head) = (tokens(), head());
    let pass = head.forward(&x, Mask::Full);
    let carried = carried_norms(&pass.weights, &(&x * &head.w_v));
    let top = pass.weights.row(QUERY).transpose().argmax().0;
    let more = (0..x.nrows())
        .filter(|&j| carried[(QUERY, j)] > carried[(QUERY, top)])
        .filter(|&j| pass.weights[(QUERY, j)] < pass.weights[(QUERY, top)])
        .count();
    assert!(top != QUERY && more >= 2, "{more}");
}
