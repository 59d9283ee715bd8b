//! Unit tests of `crate::mixer::stack::conv` (`src/mixer/stack/conv.rs`).

use attention_geometry::mixer::stack::conv::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::DMatrix;

#[test]
fn backward_matches_finite_differences() {
    let mut rng = seeded(3);
    let (x, w, dy) = (
        gaussian(&mut rng, 6, 3, 1.0),
        gaussian(&mut rng, 4, 3, 1.0),
        gaussian(&mut rng, 6, 3, 1.0),
    );
    let (_, z) = forward(&x, &w);
    let (dx, dw) = backward(&x, &w, &z, &dy);
    let h = 1e-6;
    let f = |x: &DMatrix<f64>, w: &DMatrix<f64>| forward(x, w).0.dot(&dy);
    for i in 0..x.len() {
        let (mut p, mut m) = (x.clone(), x.clone());
        p[i] += h;
        m[i] -= h;
        assert!(((f(&p, &w) - f(&m, &w)) / (2.0 * h) - dx[i]).abs() < 1e-7);
    }
    for i in 0..w.len() {
        let (mut p, mut m) = (w.clone(), w.clone());
        p[i] += h;
        m[i] -= h;
        assert!(((f(&x, &p) - f(&x, &m)) / (2.0 * h) - dw[i]).abs() < 1e-7);
    }
}
