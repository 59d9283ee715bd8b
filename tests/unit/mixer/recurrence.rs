//! Unit tests of `crate::mixer::recurrence` (`src/mixer/recurrence.rs`).

use attention_geometry::delta::{
    delta_rule, gated_delta_rule, kda, l2_normalize, linear_attention,
};
use attention_geometry::mixer::fast::recurrence as fast;
use attention_geometry::mixer::gate::features;
use attention_geometry::mixer::recurrence::*;
use attention_geometry::random::{gaussian, seeded};
use nalgebra::{DMatrix, DVector};

/// `(q, k, v, beta, g)`
type Case = (
    DMatrix<f64>,
    DMatrix<f64>,
    DMatrix<f64>,
    DVector<f64>,
    DMatrix<f64>,
);

fn case(seed: u64) -> Case {
    let mut rng = seeded(seed);
    let q = gaussian(&mut rng, 7, 3, 1.0);
    let k = l2_normalize(&gaussian(&mut rng, 7, 3, 1.0));
    let v = gaussian(&mut rng, 7, 2, 1.0);
    let beta = gaussian(&mut rng, 7, 1, 1.0)
        .column(0)
        .map(attention_geometry::delta::sigmoid);
    let g = -gaussian(&mut rng, 7, 3, 0.5).abs();
    (q, k, v, beta, g)
}

#[test]
fn forward_equals_the_reference_recurrences() {
    for seed in 0..4 {
        let (q, k, v, beta, g) = case(seed);
        let s = 0.7;
        let run = |beta: Option<&DVector<f64>>, g: Option<&DMatrix<f64>>| {
            forward(Inputs {
                q: &q,
                k: &k,
                v: &v,
                beta,
                g,
                scale: s,
                normaliser: None,
            })
            .0
        };
        let gs = g.column(0).clone_owned();
        let g_wide = DMatrix::from_fn(7, 3, |t, _| gs[t]);
        let pairs = [
            (run(None, None), linear_attention(&q, &k, &v, s, None).0),
            (
                run(Some(&beta), None),
                delta_rule(&q, &k, &v, &beta, s, None).0,
            ),
            (
                run(Some(&beta), Some(&g_wide)),
                gated_delta_rule(&q, &k, &v, &gs, &beta, s, None).0,
            ),
            (
                run(Some(&beta), Some(&g)),
                kda(&q, &k, &v, &g, &beta, s, None).0,
            ),
        ];
        for (mine, reference) in pairs {
            assert!((mine - reference).amax() < 1e-12);
        }
    }
}

#[test]
fn backward_matches_finite_differences() {
    let (q0, k0, v, beta, g) = case(9);
    let d_o = gaussian(&mut seeded(10), 7, 2, 1.0);
    let cases = [
        (None, None, None),
        (Some(&beta), None, None),
        (Some(&beta), Some(&g), None),
        (None, None, Some(1e-6)),
    ];
    for (b, gg, normaliser) in cases {
        // the normaliser divides by s q·z + ε: positive features keep it away from 0
        let (q, k) = match normaliser {
            Some(_) => (features(&q0), features(&k0)),
            None => (q0.clone(), k0.clone()),
        };
        let loss = |q: &DMatrix<f64>,
                    k: &DMatrix<f64>,
                    v: &DMatrix<f64>,
                    b: Option<&DVector<f64>>,
                    gg: Option<&DMatrix<f64>>| {
            forward(Inputs {
                q,
                k,
                v,
                beta: b,
                g: gg,
                scale: 0.7,
                normaliser,
            })
            .0
            .dot(&d_o)
        };
        let x = Inputs {
            q: &q,
            k: &k,
            v: &v,
            beta: b,
            g: gg,
            scale: 0.7,
            normaliser,
        };
        let gr = backward(x, &forward(x).1, &d_o);
        let h = 1e-6;
        for i in 0..q.len() {
            let (mut qp, mut qm, mut kp, mut km) = (q.clone(), q.clone(), k.clone(), k.clone());
            qp[i] += h;
            qm[i] -= h;
            kp[i] += h;
            km[i] -= h;
            let nq = (loss(&qp, &k, &v, b, gg) - loss(&qm, &k, &v, b, gg)) / (2.0 * h);
            let nk = (loss(&q, &kp, &v, b, gg) - loss(&q, &km, &v, b, gg)) / (2.0 * h);
            assert!((nq - gr.q[i]).abs() < 1e-7 && (nk - gr.k[i]).abs() < 1e-7);
            if let Some(g) = gg {
                let (mut gp, mut gm) = (g.clone(), g.clone());
                gp[i] += h;
                gm[i] -= h;
                let ng =
                    (loss(&q, &k, &v, b, Some(&gp)) - loss(&q, &k, &v, b, Some(&gm))) / (2.0 * h);
                assert!((ng - gr.g[i]).abs() < 1e-7);
            }
        }
        for i in 0..v.len() {
            let (mut vp, mut vm) = (v.clone(), v.clone());
            vp[i] += h;
            vm[i] -= h;
            let nv = (loss(&q, &k, &vp, b, gg) - loss(&q, &k, &vm, b, gg)) / (2.0 * h);
            assert!((nv - gr.v[i]).abs() < 1e-7);
        }
        if let Some(beta) = b {
            for i in 0..beta.len() {
                let (mut bp, mut bm) = (beta.clone(), beta.clone());
                bp[i] += h;
                bm[i] -= h;
                let nb =
                    (loss(&q, &k, &v, Some(&bp), gg) - loss(&q, &k, &v, Some(&bm), gg)) / (2.0 * h);
                assert!((nb - gr.beta[i]).abs() < 1e-7);
            }
        }
    }
}

/// `(φ(q), φ(k), v)` of `T = 9`, `K = 4`, `V = 3` from raw entries of spread `spread`.
fn features_case(seed: u64, spread: f64) -> (DMatrix<f64>, DMatrix<f64>, DMatrix<f64>) {
    let mut rng = seeded(seed);
    let q = gaussian(&mut rng, 9, 4, spread);
    let k = gaussian(&mut rng, 9, 4, spread);
    let v = gaussian(&mut rng, 9, 3, 1.0);
    (features(&q), features(&k), v)
}

fn zoology(q: &DMatrix<f64>, k: &DMatrix<f64>, v: &DMatrix<f64>, eps: Option<f64>) -> DMatrix<f64> {
    let x = Inputs {
        q,
        k,
        v,
        beta: None,
        g: None,
        scale: 0.5,
        normaliser: eps,
    };
    forward(x).0
}

/// `‖a − b‖ / ‖b‖`
fn gap(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    (a - b).norm() / b.norm()
}

#[test]
fn the_normaliser_is_linear_in_the_values_and_blind_to_the_keys_scale() {
    let eps = Some(1e-6);
    for seed in 0..4 {
        let (q, k, v) = features_case(30 + seed, 1.0);
        let o = zoology(&q, &k, &v, eps);
        // o(c v) = c o(v)
        assert!(gap(&zoology(&q, &k, &(&v * 3.7), eps), &(&o * 3.7)) < 1e-14);
        // o(c φk) = o(φk): the normaliser divides the keys' scale out, but for
        // ε, whose share of a denominator d is ε / (c d), d ≥ s φq_0·φk_0
        let d_min = 0.5 * q.row(0).dot(&k.row(0));
        for c in [0.01, 5.0, 1e3] {
            let g = gap(&zoology(&q, &(&k * c), &v, eps), &o);
            assert!(g < 1e-6 / (c.min(1.0) * d_min), "c = {c}: {g:e}");
            // at ε = 0 exactly
            let exact = zoology(&q, &k, &v, Some(0.0));
            assert!(gap(&zoology(&q, &(&k * c), &v, Some(0.0)), &exact) < 1e-14);
        }
        // without it the output scales with the keys: the test can fail
        let plain = zoology(&q, &k, &v, None);
        assert!(gap(&zoology(&q, &(&k * 5.0), &v, None), &(&plain * 5.0)) < 1e-14);
        assert!(gap(&plain, &o) > 0.5);
    }
}

#[test]
fn the_normalised_output_stays_finite_and_within_the_values_for_large_inputs() {
    for (seed, spread) in [(40, 10.0), (41, 30.0)] {
        let mut rng = seeded(seed);
        // raw q, k in [−30, 30], with rows of −30 (φ ≈ 10⁻¹³) and +30 (φ = 31)
        let mut raw = |rows: usize| {
            let mut x = gaussian(&mut rng, rows, 4, spread).map(|a| a.clamp(-30.0, 30.0));
            x.row_mut(0).fill(-30.0);
            x.row_mut(rows - 1).fill(30.0);
            x
        };
        let (q, k) = (features(&raw(9)), features(&raw(9)));
        let v = gaussian(&mut rng, 9, 3, 1.0);
        let top = v.amax();
        let x = Inputs {
            q: &q,
            k: &k,
            v: &v,
            beta: None,
            g: None,
            scale: 0.5,
            normaliser: Some(1e-6),
        };
        let (o, trace) = forward(x);
        // a weighted mean of the values with positive weights summing to at most 1
        assert!(
            o.iter()
                .all(|e| e.is_finite() && e.abs() <= top * (1.0 + 1e-12))
        );
        let gr = backward(x, &trace, &DMatrix::from_element(9, 3, 1.0));
        assert!(
            gr.q.iter()
                .chain(gr.k.iter())
                .chain(gr.v.iter())
                .all(|e| e.is_finite())
        );
        // and in f32, the fast recurrence
        let f32s =
            |m: &DMatrix<f64>| -> Vec<f32> { m.transpose().iter().map(|&e| e as f32).collect() };
        let (qf, kf, vf) = (f32s(&q), f32s(&k), f32s(&v));
        let lanes = fast::Lanes {
            q: &qf,
            k: &kf,
            v: &vf,
            beta: None,
            g: None,
            scale: 0.5,
            normaliser: Some(1e-6),
            t_len: 9,
            kd: 4,
        };
        let (of, trace) = fast::forward(&lanes);
        let reference = f32s(&o);
        for (a, b) in of.iter().zip(&reference) {
            assert!(
                a.is_finite() && (a - b).abs() <= 1e-5 * top as f32,
                "{a} vs {b}"
            );
        }
        let gf = fast::backward(&lanes, &trace, &[1.0; 27]);
        assert!(gf.q.iter().chain(&gf.k).chain(&gf.v).all(|e| e.is_finite()));
    }
}
