//! Unit tests of `crate::fused` (`src/fused/mod.rs`); the pass itself is
//! tested against the reference in `mixer/fast.rs`.

use attention_geometry::fused::gemm::{View, gemm};

/// `a b (+ c)` by the definition, in `f64`.
fn product(a: View, b: View, c: &[f32], add: bool) -> Vec<f64> {
    let at = |v: &View, i: usize, j: usize| f64::from(v.get(i, j));
    let mut out = vec![0.0; a.rows * b.cols];
    for i in 0..a.rows {
        for j in 0..b.cols {
            let sum: f64 = (0..a.cols).map(|p| at(&a, i, p) * at(&b, p, j)).sum();
            let base = if add {
                f64::from(c[i * b.cols + j])
            } else {
                0.0
            };
            out[i * b.cols + j] = base + sum;
        }
    }
    out
}

#[test]
fn the_small_product_is_the_product_for_every_shape_stride_and_tail() {
    // n across the panel's vectors, a partial last vector and more than one
    // panel; m across the row blocks; k = 0 and k = 1 at the edges
    let ns = [1, 5, 8, 9, 24, 33, 41, 64, 65, 130];
    let number = |i: usize| ((i * 37 + 11) % 23) as f32 / 7.0 - 1.5;
    for m in [1, 2, 7, 13] {
        for k in [0, 1, 8, 41] {
            for n in ns {
                let a_data: Vec<f32> = (0..m * k).map(number).collect();
                let b_data: Vec<f32> = (0..k * n).map(|i| number(i + 5)).collect();
                let c0: Vec<f32> = (0..m * n).map(|i| number(i + 9)).collect();
                let a_views = [View::rows(&a_data, m, k), View::rows(&a_data, k, m).t()];
                let b_views = [View::rows(&b_data, k, n), View::columns(&b_data, k, n)];
                for (a, b) in a_views.into_iter().flat_map(|a| b_views.map(|b| (a, b))) {
                    for add in [false, true] {
                        let mut c = c0.clone();
                        gemm(a, b, &mut c, add);
                        let want = product(a, b, &c0, add);
                        for (x, y) in c.iter().zip(&want) {
                            assert!(
                                (f64::from(*x) - y).abs() < 1e-5 * (1.0 + y.abs()),
                                "[{m}, {k}] by [{k}, {n}], add {add}: {x} against {y}"
                            );
                        }
                    }
                }
            }
        }
    }
}
