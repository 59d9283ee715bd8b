//! Unit tests of `crate::figures::diagrams::coordinates` (`src/figures/diagrams/coordinates.rs`).

use attention_geometry::attention::scores;
use attention_geometry::figures::diagrams::coordinates::*;
use nalgebra::DMatrix;

#[test]
fn the_caption_holds_token_1_scores_itself_negatively_and_ranks_token_2_first() {
    let (x, head) = (tokens(), head());
    let raw = scores(&x, &x, 1.0);
    let score = scores(&(&x * &head.w_q), &(&x * &head.w_k), 1.0);
    let first = |m: &DMatrix<f64>| m.row(0).transpose().argmax().0;
    assert!(score[(0, 0)] < 0.0 && raw[(0, 0)] > 0.0);
    assert_eq!((first(&raw), first(&score)), (0, 1));
}
