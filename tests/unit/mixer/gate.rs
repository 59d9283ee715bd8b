//! Unit tests of `crate::mixer::gate` (`src/mixer/gate.rs`).

use attention_geometry::delta::kda_gate;
use attention_geometry::mixer::gate::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::DVector;

#[test]
fn gradients_match_finite_differences() {
    let mut rng = seeded(2);
    let (x, w) = (gaussian(&mut rng, 4, 3, 1.0), gaussian(&mut rng, 4, 3, 1.0));
    let (xh, n) = l2_rows(&x);
    let dx = l2_rows_backward(&xh, &n, &w);
    let (z, a_log) = (gaussian(&mut rng, 4, 3, 2.0), 0.4);
    let zero = DVector::zeros(3);
    let g = kda_gate(&z, a_log, &zero);
    let (dz, da) = decay_backward(&z, &g, a_log, &w);
    let h = 1e-6;
    for i in 0..x.len() {
        let (mut p, mut m) = (x.clone(), x.clone());
        p[i] += h;
        m[i] -= h;
        let num = (l2_rows(&p).0.dot(&w) - l2_rows(&m).0.dot(&w)) / (2.0 * h);
        assert!((num - dx[i]).abs() < 1e-7);
        let (mut p, mut m) = (z.clone(), z.clone());
        p[i] += h;
        m[i] -= h;
        let num =
            (kda_gate(&p, a_log, &zero).dot(&w) - kda_gate(&m, a_log, &zero).dot(&w)) / (2.0 * h);
        assert!((num - dz[i]).abs() < 1e-7);
    }
    let num = (kda_gate(&z, a_log + h, &zero).dot(&w) - kda_gate(&z, a_log - h, &zero).dot(&w))
        / (2.0 * h);
    assert!((num - da).abs() < 1e-7);
}
