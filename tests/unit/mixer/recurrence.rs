//! Unit tests of `crate::mixer::recurrence` (`src/mixer/recurrence.rs`).

use attention_geometry::delta::{
    delta_rule, gated_delta_rule, kda, l2_normalize, linear_attention,
};
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
    let (q, k, v, beta, g) = case(9);
    let d_o = gaussian(&mut seeded(10), 7, 2, 1.0);
    for (b, gg) in [(None, None), (Some(&beta), None), (Some(&beta), Some(&g))] {
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
