//! Unit tests of `crate::pretrained::jacobian` (`src/pretrained/jacobian.rs`).

use attention_geometry::pretrained::jacobian::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::DMatrix;

#[test]
fn on_a_linear_stack_the_composite_is_the_stack_for_any_change() {
    let mut rng = seeded(4);
    let (n, d) = (3, 5);
    // f_l(x) = P_l x W_l: token mixing and a channel map, both linear
    let maps: Vec<(DMatrix<f64>, DMatrix<f64>)> = (0..3)
        .map(|_| (gaussian(&mut rng, n, n, 1.0), gaussian(&mut rng, d, d, 1.0)))
        .collect();
    let stacked = |(p, m): &(DMatrix<f64>, DMatrix<f64>), x: &DMatrix<f64>| {
        let mut y = DMatrix::zeros(x.nrows(), d);
        for c in 0..x.nrows() / n {
            y.rows_mut(c * n, n).copy_from(&(p * x.rows(c * n, n) * m));
        }
        y
    };
    let x = gaussian(&mut rng, n, d, 1.0);
    let v = gaussian(&mut rng, 2 * n, d, 3.0);
    let (mut h, mut u, mut moved) = (x.clone(), v.clone(), DMatrix::zeros(2 * n, d));
    for c in 0..2 {
        moved.rows_mut(c * n, n).copy_from(&(&x + v.rows(c * n, n)));
    }
    for map in &maps {
        let f = |y: &DMatrix<f64>| stacked(map, y);
        let next = f(&h);
        u = jvp(&f, &h, &next, &u);
        (h, moved) = (next, f(&moved));
    }
    // the finite change through the stack, minus the clean output
    for c in 0..2 {
        let exact = moved.rows(c * n, n) - &h;
        let rel = (u.rows(c * n, n) - &exact).norm() / exact.norm();
        assert!(rel < 1e-7, "copy {c}: relative error {rel}");
    }
}
