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
    // panel; m across the row blocks; k = 0 and k = 1 at the edges, and k
    // whole vectors (a row-major A's columns past the last whole vector of
    // C are then dot products)
    let ns = [1, 5, 8, 9, 24, 33, 41, 64, 65, 130];
    let number = |i: usize| ((i * 37 + 11) % 23) as f32 / 7.0 - 1.5;
    for m in [1, 2, 7, 13] {
        for k in [0, 1, 8, 16, 41] {
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

#[test]
fn a_product_that_skips_a_causal_views_zeros_is_the_whole_product() {
    // rows at ascending positions (a sequence read at every row, or at its
    // queries), and out of order; the view as given and transposed, so that
    // both `A V` and `Aᵀ Ō` skip; m across the row blocks and their tails
    let number = |i: usize| ((i * 37 + 11) % 23) as f32 / 7.0 - 1.5;
    let t_len = 24;
    let orders: [Vec<usize>; 4] = [
        (0..t_len).collect(),
        vec![3, 9, 10, 17, 23],
        vec![17, 2, 23, 9, 0, 11, 5],
        vec![0],
    ];
    for last in &orders {
        let n = last.len();
        // A: row i zero past column last[i]
        let mut a_data: Vec<f32> = (0..n * t_len).map(number).collect();
        for (row, &t) in a_data.chunks_exact_mut(t_len).zip(last) {
            row[t + 1..].fill(0.0);
        }
        let b_data: Vec<f32> = (0..t_len.max(n) * 11).map(|i| number(i + 5)).collect();
        let a = View::rows(&a_data, n, t_len);
        let pairs = [
            (
                a,
                a.zero_past(last),
                View::rows(&b_data[..t_len * 11], t_len, 11),
            ),
            (
                a.t(),
                a.zero_past(last).t(),
                View::rows(&b_data[..n * 11], n, 11),
            ),
        ];
        for (whole, skipping, b) in pairs {
            for add in [false, true] {
                let c0: Vec<f32> = (0..whole.rows * 11).map(|i| number(i + 9)).collect();
                let (mut c, mut want) = (c0.clone(), c0.clone());
                gemm(skipping, b, &mut c, add);
                gemm(whole, b, &mut want, add);
                assert_eq!(c, want, "rows at {last:?}, add {add}");
            }
        }
    }
}

/// The largest difference between two rows of numbers.
fn gap(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn every_row_step_agrees_with_its_portable_definition_at_every_width() {
    use attention_geometry::fused::rows;
    let number = |i: usize| ((i * 37 + 11) % 23) as f32 / 7.0 - 1.5;
    // two sequences of five rows: the convolution's first taps fall off each start
    let (t_len, n, taps) = (5, 10, 4);
    for c in [8, 16, 24, 32, 48, 12] {
        let x: Vec<f32> = (0..n * c).map(number).collect();
        let dy: Vec<f32> = (0..n * c).map(|i| number(i + 3)).collect();
        let gamma: Vec<f32> = (0..c).map(|i| 1.0 + number(i) / 4.0).collect();
        // RMSNorm and its backward
        let (y, inv) = rows::rms_norm(&x, &gamma);
        let (mut y0, mut inv0) = (vec![0.0; n * c], vec![0.0; n]);
        rows::rms_norm_with::<0>(&x, &gamma, &mut y0, &mut inv0);
        assert!(
            gap(&y, &y0) < 1e-5 && gap(&inv, &inv0) < 1e-5,
            "rms_norm, C = {c}"
        );
        let (mut dg, mut dg0) = (vec![0.5; c], vec![0.5; c]);
        let dx = rows::rms_norm_backward(&x, &gamma, &inv, &dy, &mut dg);
        let mut dx0 = vec![0.0; n * c];
        rows::rms_norm_backward_with::<0>(&x, &gamma, &inv, &dy, &mut dg0, &mut dx0);
        assert!(
            gap(&dx, &dx0) < 1e-5 && gap(&dg, &dg0) < 1e-4,
            "rms_norm_backward, C = {c}"
        );
        // L2 and its backward
        let (mut xh, mut xh0) = (x.clone(), x.clone());
        let norms = rows::l2(&mut xh, c);
        let mut norms0 = vec![0.0; n];
        rows::l2_with::<0>(&mut xh0, &mut norms0);
        assert!(
            gap(&xh, &xh0) < 1e-6 && gap(&norms, &norms0) < 1e-5,
            "l2, C = {c}"
        );
        let (mut d, mut d0) = (dy.clone(), dy.clone());
        rows::l2_backward(&xh, &norms, &mut d);
        rows::l2_backward_with::<0>(&xh, &norms, &mut d0);
        assert!(gap(&d, &d0) < 1e-6, "l2_backward, C = {c}");
        // the convolution over columns 3 .. 3 + C of rows C + 5 wide, and its backward
        let width = c + 5;
        let a: Vec<f32> = (0..n * width).map(|i| number(i + 7)).collect();
        let w: Vec<f32> = (0..taps * c).map(|i| number(i + 1) / 2.0).collect();
        let input = rows::Conv {
            x: &a,
            width,
            at: 3,
            w: &w,
            t_len,
        };
        let z = rows::conv(&input, c);
        let mut z0 = vec![0.0; n * c];
        rows::conv_with::<0>(&input, &mut z0);
        assert!(gap(&z, &z0) < 1e-5, "conv, C = {c}");
        let (mut dx, mut dw) = (vec![0.25; n * width], vec![0.5; taps * c]);
        let (mut dx0, mut dw0) = (dx.clone(), dw.clone());
        rows::conv_backward(&input, &dy, &mut dx, &mut dw);
        rows::conv_backward_with::<0>(&input, &dy, &mut dx0, &mut dw0);
        assert!(
            gap(&dx, &dx0) < 1e-5 && gap(&dw, &dw0) < 1e-4,
            "conv_backward, C = {c}"
        );
    }
}

#[test]
fn attention_weights_and_their_gradient_agree_with_their_portable_definitions() {
    use attention_geometry::fused::attention;
    let number = |i: usize| ((i * 37 + 11) % 23) as f32 / 7.0 - 1.5;
    // T = 16 and 64 take the row kernels where the processor has AVX2; T = 12 the products
    for (t_len, kd, vd) in [(16, 8, 8), (64, 8, 16), (64, 16, 8), (12, 8, 8)] {
        let q: Vec<f32> = (0..t_len * kd).map(number).collect();
        let k: Vec<f32> = (0..t_len * kd).map(|i| number(i + 3)).collect();
        let v: Vec<f32> = (0..t_len * vd).map(|i| number(i + 5)).collect();
        let d_o: Vec<f32> = (0..t_len * vd).map(|i| number(i + 9)).collect();
        let ts: Vec<usize> = (0..t_len).collect();
        let (mut a, mut a0) = (vec![1.0; t_len * t_len], vec![2.0; t_len * t_len]);
        attention::weights(&q, &k, kd, t_len, &ts, &mut a);
        attention::weights_with(&q, &k, kd, t_len, &ts, &mut a0);
        assert!(gap(&a, &a0) < 1e-6, "weights, T = {t_len}, K = {kd}");
        // causal, and every row a distribution
        for (t, row) in a.chunks_exact(t_len).enumerate() {
            assert!(
                row[t + 1..].iter().all(|&x| x == 0.0),
                "row {t} sees the future"
            );
            assert!(
                (row.iter().sum::<f32>() - 1.0).abs() < 1e-5,
                "row {t} sums to one"
            );
        }
        let (mut dp, mut dp0) = (vec![1.0; t_len * t_len], vec![2.0; t_len * t_len]);
        attention::scores_backward(&d_o, &v, &a, kd, t_len, &ts, &mut dp);
        attention::scores_backward_with(&d_o, &v, &a, kd, t_len, &ts, &mut dp0);
        assert!(
            gap(&dp, &dp0) < 1e-6,
            "scores_backward, T = {t_len}, V = {vd}"
        );
        // read at some positions only, each row is the whole sequence's row there
        let some = [0, 5, t_len / 2, t_len - 1, 7];
        let at = |x: &[f32], c: usize| -> Vec<f32> {
            some.iter()
                .flat_map(|&t| x[t * c..][..c].to_vec())
                .collect()
        };
        let mut a_some = vec![3.0; some.len() * t_len];
        attention::weights(&at(&q, kd), &k, kd, t_len, &some, &mut a_some);
        assert!(
            gap(&a_some, &at(&a, t_len)) < 1e-6,
            "weights at positions, T = {t_len}"
        );
        let mut dp_some = vec![3.0; some.len() * t_len];
        let d_o_some = at(&d_o, vd);
        attention::scores_backward(&d_o_some, &v, &a_some, kd, t_len, &some, &mut dp_some);
        assert!(
            gap(&dp_some, &at(&dp, t_len)) < 1e-6,
            "scores_backward at positions, T = {t_len}"
        );
    }
}

/// The trainer is `train::Adam` on the fused pass's gradient: its model
/// starts as the given one (rounded to `f32`), follows Adam with weight
/// decay step for step, and answers as that model does.
#[test]
fn the_trainer_is_adam_on_the_fused_gradient_and_its_model_is_its_tensors() {
    use attention_geometry::fused::{self, trainer::Trainer};
    use attention_geometry::mixer::Mixer;
    use attention_geometry::mixer::layer::GateInit;
    use attention_geometry::mixer::stack::Stack;
    use attention_geometry::random::seeded;
    use attention_geometry::recall::Mqar;
    use attention_geometry::train::Adam;
    let task = Mqar {
        vocab: 64,
        pairs: 8,
        len: 64,
    };
    for mixer in [Mixer::Softmax, Mixer::Kda] {
        let mut rng = seeded(3);
        let config = attention_geometry::bench::training::config(mixer);
        let model = Stack::init(config, GateInit::Fla, &mut rng);
        let rounded = model.map(|m| m.map(|x| f64::from(x as f32)));
        let mut adam = Adam::new(0.01);
        adam.weight_decay = 0.1;
        let mut trainer = Trainer::new(&model, &adam);
        assert_eq!(trainer.model(), rounded, "{mixer:?}");
        let (mut reference, mut ref_adam) = (rounded, adam);
        for _ in 0..20 {
            let batch = task.batch(&mut rng, 8);
            let (loss, grad) = fused::loss_and_grad(&reference, &batch);
            ref_adam.step(reference.tensors_mut(), grad.tensors());
            let gap = (trainer.step(&batch) - loss).abs();
            assert!(gap < 1e-5, "{mixer:?}: the losses part by {gap:e}");
        }
        let (now, set) = (trainer.model(), task.batch(&mut rng, 32));
        for (a, b) in now.tensors().into_iter().zip(reference.tensors()) {
            assert!((a - b).norm() < 1e-4 * b.norm().max(1.0), "{mixer:?}");
        }
        assert_eq!(trainer.accuracy(&set), fused::accuracy(&now, &set));
    }
}

/// A buffer given back is the next one taken of its length, whatever it
/// holds; a length never given is allocated.
#[test]
fn a_spare_buffer_is_taken_again_at_its_length_only() {
    use attention_geometry::fused::spare;
    // a length no pass uses, on this test's own thread
    let n = 12_345;
    let mut v = spare::take(n);
    assert_eq!(v.len(), n);
    v.fill(7.0);
    let at = v.as_ptr();
    spare::give(v);
    let other = spare::take(n + 1);
    assert!(other.len() == n + 1 && other.as_ptr() != at);
    let again = spare::take(n);
    assert!(again.as_ptr() == at && again.iter().all(|&x| x == 7.0));
}
