//! Unit tests of `crate::pretrained::rotary` (`src/pretrained/rotary.rs`).

use attention_geometry::pretrained::rotary::*;
use attention_geometry::random::{gaussian, seeded};

#[test]
fn the_gram_form_equals_the_share_of_the_full_matrix() {
    let mut rng = seeded(3);
    let (a, b) = (
        gaussian(&mut rng, 10, 4, 1.0),
        gaussian(&mut rng, 10, 4, 1.0),
    );
    for delta in [0.0, -1.0, -7.0] {
        let m = &a * rotation(delta, 4, 100.0) * b.transpose();
        let sym = (&m + m.transpose()) * 0.5;
        let direct = sym.norm_squared() / m.norm_squared();
        let gram = symmetric_shares(&a, &b, &[delta], 100.0)[0];
        assert!((direct - gram).abs() < 1e-12, "{direct} {gram}");
    }
}

#[test]
fn the_rotation_reproduces_the_decoders_rotated_scores() {
    let m = attention_geometry::pretrained::smollm2::SmolLm2::shared();
    let ids = m.encode("The cat sat on the warm mat.").unwrap().ids;
    let t = m.run(&ids);
    let h = &t.layers[3].heads[4];
    let (i, j) = (ids.len() - 1, 1);
    let via = (h.q.row(i) * rotation(j as f64 - i as f64, 64, 1e5) * h.k.row(j).transpose())[0];
    let scored = h.scores[(i, j)] * 8.0;
    assert!(
        (via - scored).abs() < 1e-3 * scored.abs().max(1.0),
        "{via} {scored}"
    );
}
