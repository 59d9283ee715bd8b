//! Unit tests of `crate::figures::diagrams::delta_rule` (`src/figures/diagrams/delta_rule.rs`).

use attention_geometry::figures::diagrams::delta_rule::*;

#[test]
fn the_caption_holds_only_the_rows_k_touches_change_beyond_the_decay() {
    let x = step();
    let decayed = x.after(&x.v, 0.0);
    let written = x.after(&x.v, x.beta);
    for c in 0..x.k.ncols() {
        let moved = (written.row(c) - decayed.row(c)).amax() > 1e-12;
        assert_eq!(moved, x.k[(0, c)] != 0.0, "channel {c}");
    }
    assert_eq!(x.alpha.argmax().0, 2);
    assert_eq!(x.alpha.argmin().0, 3);
}
