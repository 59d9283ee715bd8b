//! The delta-family recurrence with a trace for its backward pass, and the
//! backward pass itself: a reverse-time recurrence on the state's gradient.
//!
//! ```text
//! forward   S' = Diag(α_t) S_{t-1},  u_t = v_t − S'ᵀ k_t,  S_t = S' + β_t k_t u_tᵀ,  o_t = S_tᵀ (s q_t)
//!           (linear attention: S_t = S_{t-1} + k_t v_tᵀ)
//! backward  Σ̄ ← Σ̄ + s q_t ō_tᵀ,   q̄_t = s S_t ō_t
//!           β̄_t = k_tᵀ Σ̄ u_t,  ū = β_t Σ̄ᵀ k_t,  v̄_t = ū,  k̄_t = β_t Σ̄ u_t − S' ū
//!           Σ̄' = Σ̄ − k_t ūᵀ,   ḡ_t[c] = α_t[c] Σ_j Σ̄'[c, j] S_{t-1}[c, j],   Σ̄ ← Diag(α_t) Σ̄'
//! ```
//! `Σ̄` is `∂L/∂S_t`, carried from `t = T` down to 1. Introduced in chapter 7.

use nalgebra::{DMatrix, DVector};

/// What the forward pass keeps: every state `S_0 … S_T` (`[K, V]`, row-major)
/// and the corrections `u_t`.
#[derive(Clone, Debug)]
pub struct Trace {
    states: Vec<Vec<f64>>,
    u: Vec<Vec<f64>>,
}

/// The inputs of one head: `q, k: [T, K]`, `v: [T, V]`, `beta: [T]` (none:
/// linear attention), `g: [T, K]` natural-log decays (none: no decay), and the scale.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    pub q: &'a DMatrix<f64>,
    pub k: &'a DMatrix<f64>,
    pub v: &'a DMatrix<f64>,
    pub beta: Option<&'a DVector<f64>>,
    pub g: Option<&'a DMatrix<f64>>,
    pub scale: f64,
}

/// The gradients of one head's inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct InputGrads {
    /// `[T, K]`
    pub q: DMatrix<f64>,
    /// `[T, K]`
    pub k: DMatrix<f64>,
    /// `[T, V]`
    pub v: DMatrix<f64>,
    /// `[T]` (zero for linear attention)
    pub beta: DVector<f64>,
    /// `[T, K]` (zero without decay)
    pub g: DMatrix<f64>,
}

/// Run the recurrence; returns the outputs `[T, V]` and the trace.
///
/// # Panics
/// If the shapes disagree.
///
/// ```
/// use attention_geometry::mixer::recurrence::{Inputs, forward};
/// use nalgebra::{dmatrix, dvector};
/// let (k, v) = (dmatrix![1.0, 0.0; 1.0, 0.0], dmatrix![2.0; 3.0]);
/// let beta = dvector![1.0, 1.0];
/// let (o, _) = forward(Inputs { q: &k, k: &k, v: &v, beta: Some(&beta), g: None, scale: 1.0 });
/// assert_eq!((o[(0, 0)], o[(1, 0)]), (2.0, 3.0)); // β = 1 replaces the value
/// ```
pub fn forward(x: Inputs) -> (DMatrix<f64>, Trace) {
    let (t_len, kd) = x.k.shape();
    let vd = x.v.ncols();
    assert!(
        x.q.shape() == x.k.shape()
            && x.v.nrows() == t_len
            && x.beta.is_none_or(|b| b.len() == t_len)
            && x.g.is_none_or(|g| g.shape() == x.k.shape()),
        "recurrence: q {:?}, k {:?}, v {:?}, beta {:?}, g {:?}; need q, k, g [T, K], v [T, V], beta [T]",
        x.q.shape(),
        x.k.shape(),
        x.v.shape(),
        x.beta.map(|b| b.len()),
        x.g.map(|g| g.shape())
    );
    let mut s = vec![0.0; kd * vd];
    let mut states = Vec::with_capacity(t_len + 1);
    let mut us = Vec::with_capacity(t_len);
    states.push(s.clone());
    let mut out = DMatrix::zeros(t_len, vd);
    for t in 0..t_len {
        // S ← Diag(α_t) S
        if let Some(g) = x.g {
            for c in 0..kd {
                let a = g[(t, c)].exp();
                s[c * vd..(c + 1) * vd].iter_mut().for_each(|e| *e *= a);
            }
        }
        // u = v_t − Sᵀ k_t (delta) or v_t (linear);  S ← S + β_t k_t uᵀ
        let mut u: Vec<f64> = (0..vd).map(|j| x.v[(t, j)]).collect();
        let b = x.beta.map_or(1.0, |beta| beta[t]);
        if x.beta.is_some() {
            for c in 0..kd {
                let kc = x.k[(t, c)];
                u.iter_mut()
                    .zip(&s[c * vd..(c + 1) * vd])
                    .for_each(|(uj, sj)| *uj -= sj * kc);
            }
        }
        for c in 0..kd {
            let w = b * x.k[(t, c)];
            s[c * vd..(c + 1) * vd]
                .iter_mut()
                .zip(&u)
                .for_each(|(sj, uj)| *sj += w * uj);
        }
        // o_t = S_tᵀ (s q_t)
        for c in 0..kd {
            let w = x.scale * x.q[(t, c)];
            for j in 0..vd {
                out[(t, j)] += w * s[c * vd + j];
            }
        }
        states.push(s.clone());
        us.push(u);
    }
    (out, Trace { states, u: us })
}

/// The gradients of the inputs given `d_o = ∂L/∂o: [T, V]` (see the module docs).
///
/// # Panics
/// If `d_o` is not `[T, V]`.
pub fn backward(x: Inputs, trace: &Trace, d_o: &DMatrix<f64>) -> InputGrads {
    let (t_len, kd) = x.k.shape();
    let vd = x.v.ncols();
    assert_eq!(d_o.shape(), (t_len, vd), "backward: d_o must be [T, V]");
    let mut gr = InputGrads {
        q: DMatrix::zeros(t_len, kd),
        k: DMatrix::zeros(t_len, kd),
        v: DMatrix::zeros(t_len, vd),
        beta: DVector::zeros(t_len),
        g: DMatrix::zeros(t_len, kd),
    };
    // Σ̄ = ∂L/∂S_t, [K, V] row-major
    let mut ds = vec![0.0; kd * vd];
    let mut prev = vec![0.0; kd * vd];
    for t in (0..t_len).rev() {
        let (s_t, s_prev) = (&trace.states[t + 1], &trace.states[t]);
        // Σ̄ += s q_t ō_tᵀ;  q̄_t = s S_t ō_t
        for c in 0..kd {
            let w = x.scale * x.q[(t, c)];
            let mut dq = 0.0;
            for j in 0..vd {
                ds[c * vd + j] += w * d_o[(t, j)];
                dq += s_t[c * vd + j] * d_o[(t, j)];
            }
            gr.q[(t, c)] = x.scale * dq;
        }
        let Some(beta) = x.beta else {
            // linear: k̄_t = Σ̄ v_t, v̄_t = Σ̄ᵀ k_t, and Σ̄ passes on unchanged
            for c in 0..kd {
                for j in 0..vd {
                    gr.k[(t, c)] += ds[c * vd + j] * x.v[(t, j)];
                    gr.v[(t, j)] += ds[c * vd + j] * x.k[(t, c)];
                }
            }
            continue;
        };
        let (b, u) = (beta[t], &trace.u[t]);
        // ū = β Σ̄ᵀ k_t;  w = Σ̄ u;  β̄ = k_t · w
        let mut du = vec![0.0; vd];
        let mut db = 0.0;
        for c in 0..kd {
            let kc = x.k[(t, c)];
            let row = &ds[c * vd..(c + 1) * vd];
            let w: f64 = row.iter().zip(u).map(|(a, b)| a * b).sum();
            db += kc * w;
            gr.k[(t, c)] = b * w;
            du.iter_mut().zip(row).for_each(|(d, r)| *d += b * kc * r);
        }
        gr.beta[t] = db;
        for (j, &d) in du.iter().enumerate() {
            gr.v[(t, j)] = d;
        }
        for c in 0..kd {
            let a = x.g.map_or(1.0, |g| g[(t, c)].exp());
            let kc = x.k[(t, c)];
            let (mut dk, mut dalpha) = (0.0, 0.0);
            for (j, &dj) in du.iter().enumerate() {
                let i = c * vd + j;
                // S' = α S_{t-1};  k̄ −= S' ū;  Σ̄' = Σ̄ − k ūᵀ
                dk += a * s_prev[i] * dj;
                let dsp = ds[i] - kc * dj;
                dalpha += dsp * s_prev[i];
                prev[i] = a * dsp;
            }
            gr.k[(t, c)] -= dk;
            gr.g[(t, c)] = a * dalpha;
        }
        std::mem::swap(&mut ds, &mut prev);
    }
    gr
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delta::{delta_rule, gated_delta_rule, kda, l2_normalize, linear_attention};
    use crate::random::{gaussian, seeded};

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
            .map(crate::delta::sigmoid);
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
                    let ng = (loss(&q, &k, &v, b, Some(&gp)) - loss(&q, &k, &v, b, Some(&gm)))
                        / (2.0 * h);
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
                    let nb = (loss(&q, &k, &v, Some(&bp), gg) - loss(&q, &k, &v, Some(&bm), gg))
                        / (2.0 * h);
                    assert!((nb - gr.beta[i]).abs() < 1e-7);
                }
            }
        }
    }
}
