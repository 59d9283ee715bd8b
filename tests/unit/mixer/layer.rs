//! Unit tests of `crate::mixer::layer` (`src/mixer/layer.rs`).

use attention_geometry::mixer::layer::*;
use attention_geometry::random::{gaussian, seeded};

#[test]
fn rms_norm_backward_matches_finite_differences() {
    let mut rng = seeded(7);
    let (o, w) = (gaussian(&mut rng, 3, 4, 1.0), gaussian(&mut rng, 3, 4, 1.0));
    let gamma = gaussian(&mut rng, 1, 4, 1.0);
    let (_, r) = rms_norm(&o, &gamma);
    let (d_o, dg) = rms_norm_backward(&o, &gamma, &r, &w);
    let h = 1e-6;
    for i in 0..o.len() {
        let (mut p, mut m) = (o.clone(), o.clone());
        p[i] += h;
        m[i] -= h;
        let num = (rms_norm(&p, &gamma).0.dot(&w) - rms_norm(&m, &gamma).0.dot(&w)) / (2.0 * h);
        assert!((num - d_o[i]).abs() < 1e-7);
    }
    for i in 0..gamma.len() {
        let (mut p, mut m) = (gamma.clone(), gamma.clone());
        p[i] += h;
        m[i] -= h;
        let num = (rms_norm(&o, &p).0.dot(&w) - rms_norm(&o, &m).0.dot(&w)) / (2.0 * h);
        assert!((num - dg[i]).abs() < 1e-7);
    }
}
