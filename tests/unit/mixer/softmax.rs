//! Unit tests of `crate::mixer::softmax` (`src/mixer/softmax.rs`).

use attention_geometry::delta::softmax_attention;
use attention_geometry::mixer::softmax::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::DMatrix;

#[test]
fn forward_equals_the_reference() {
    let mut rng = seeded(4);
    let (q, k, v) = (
        gaussian(&mut rng, 9, 3, 1.0),
        gaussian(&mut rng, 9, 3, 1.0),
        gaussian(&mut rng, 9, 2, 1.0),
    );
    assert!((forward(&q, &k, &v, 0.6).0 - softmax_attention(&q, &k, &v, 0.6)).amax() < 1e-12);
}

#[test]
fn backward_matches_finite_differences() {
    let mut rng = seeded(5);
    let (q, k, v, d_o) = (
        gaussian(&mut rng, 6, 3, 1.0),
        gaussian(&mut rng, 6, 3, 1.0),
        gaussian(&mut rng, 6, 2, 1.0),
        gaussian(&mut rng, 6, 2, 1.0),
    );
    let (_, a) = forward(&q, &k, &v, 0.6);
    let (dq, dk, dv) = backward(&q, &k, &v, &a, 0.6, &d_o);
    let loss =
        |q: &DMatrix<f64>, k: &DMatrix<f64>, v: &DMatrix<f64>| forward(q, k, v, 0.6).0.dot(&d_o);
    let h = 1e-6;
    for (x, dx, which) in [(&q, &dq, 0), (&k, &dk, 1), (&v, &dv, 2)] {
        for i in 0..x.len() {
            let (mut p, mut m) = (x.clone(), x.clone());
            p[i] += h;
            m[i] -= h;
            let f = |y: &DMatrix<f64>| match which {
                0 => loss(y, &k, &v),
                1 => loss(&q, y, &v),
                _ => loss(&q, &k, y),
            };
            assert!(((f(&p) - f(&m)) / (2.0 * h) - dx[i]).abs() < 1e-7);
        }
    }
}
