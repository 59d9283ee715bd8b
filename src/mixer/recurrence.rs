//! The delta-family recurrence with a trace for its backward pass, and the
//! backward pass itself: a reverse-time recurrence on the state's gradient.
//!
//! ```text
//! forward   S' = Diag(α_t) S_{t-1},  u_t = v_t − S'ᵀ k_t,  S_t = S' + β_t k_t u_tᵀ,  o_t = S_tᵀ (s q_t)
//!           (linear attention: S_t = S_{t-1} + k_t v_tᵀ)
//! normaliser z_t = z_{t-1} + k_t,  d_t = s q_t·z_t + ε,  o_t = S_tᵀ (s q_t) / d_t   (optional)
//! backward  (normaliser: ō_t ← ō_t / d_t,  d̄_t = −q_t·(s S_t ō_t) / d_t,  q̄_t += s d̄_t z_t,
//!           ζ̄ ← ζ̄ + s d̄_t q_t,  k̄_t += ζ̄)
//!           Σ̄ ← Σ̄ + s q_t ō_tᵀ,   q̄_t = s S_t ō_t
//!           β̄_t = k_tᵀ Σ̄ u_t,  ū = β_t Σ̄ᵀ k_t,  v̄_t = ū,  k̄_t = β_t Σ̄ u_t − S' ū
//!           Σ̄' = Σ̄ − k_t ūᵀ,   ḡ_t[c] = α_t[c] Σ_j Σ̄'[c, j] S_{t-1}[c, j],   Σ̄ ← Diag(α_t) Σ̄'
//! ```
//! `Σ̄` is `∂L/∂S_t` and `ζ̄` is `∂L/∂z_t`, carried from `t = T` down to 1.
//! Introduced in chapter 7.

use nalgebra::{DMatrix, DVector};

/// What the forward pass keeps: every state `S_0 … S_T` (`[K, V]`, row-major),
/// the corrections `u_t`, and with the normaliser every `z_t` and `d_t`.
#[derive(Clone, Debug)]
pub struct Trace {
    states: Vec<Vec<f64>>,
    u: Vec<Vec<f64>>,
    z: Vec<Vec<f64>>,
    den: Vec<f64>,
}

/// The inputs of one head: `q, k: [T, K]`, `v: [T, V]`, `beta: [T]` (none:
/// linear attention), `g: [T, K]` natural-log decays (none: no decay), the
/// scale, and the normaliser's `ε` (none: no normaliser).
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    pub q: &'a DMatrix<f64>,
    pub k: &'a DMatrix<f64>,
    pub v: &'a DMatrix<f64>,
    pub beta: Option<&'a DVector<f64>>,
    pub g: Option<&'a DMatrix<f64>>,
    pub scale: f64,
    pub normaliser: Option<f64>,
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
/// let x = Inputs { q: &k, k: &k, v: &v, beta: Some(&beta), g: None, scale: 1.0, normaliser: None };
/// let (o, _) = forward(x);
/// assert_eq!((o[(0, 0)], o[(1, 0)]), (2.0, 3.0)); // β = 1 replaces the value
/// // the normaliser averages the values the query matches
/// let (o, _) = forward(Inputs { beta: None, normaliser: Some(0.0), ..x });
/// assert_eq!((o[(0, 0)], o[(1, 0)]), (2.0, 2.5));
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
    let mut trace = Trace {
        states: vec![s.clone()],
        u: Vec::with_capacity(t_len),
        z: Vec::new(),
        den: Vec::new(),
    };
    let mut z = vec![0.0; kd];
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
        // z_t = z_{t−1} + k_t;  o_t ← o_t / (s q_t·z_t + ε)
        if let Some(eps) = x.normaliser {
            z.iter_mut()
                .enumerate()
                .for_each(|(c, e)| *e += x.k[(t, c)]);
            let d = x.scale * (0..kd).map(|c| x.q[(t, c)] * z[c]).sum::<f64>() + eps;
            out.row_mut(t).iter_mut().for_each(|e| *e /= d);
            trace.z.push(z.clone());
            trace.den.push(d);
        }
        trace.states.push(s.clone());
        trace.u.push(u);
    }
    (out, trace)
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
    // ζ̄ = ∂L/∂z_t
    let mut dz = vec![0.0; kd];
    for t in (0..t_len).rev() {
        let (s_t, s_prev) = (&trace.states[t + 1], &trace.states[t]);
        // the numerator's ō: ō_t / d_t with the normaliser
        let den = x.normaliser.map_or(1.0, |_| trace.den[t]);
        let d_on: Vec<f64> = (0..vd).map(|j| d_o[(t, j)] / den).collect();
        // Σ̄ += s q_t ō_tᵀ;  q̄_t = s S_t ō_t
        for c in 0..kd {
            let w = x.scale * x.q[(t, c)];
            let mut dq = 0.0;
            for j in 0..vd {
                ds[c * vd + j] += w * d_on[j];
                dq += s_t[c * vd + j] * d_on[j];
            }
            gr.q[(t, c)] = x.scale * dq;
        }
        if x.normaliser.is_some() {
            // d̄ = −ō·o / d = −q_t·q̄_t / d;  q̄ += s d̄ z_t;  ζ̄ += s d̄ q_t;  k̄ += ζ̄
            let dd = -(0..kd).map(|c| x.q[(t, c)] * gr.q[(t, c)]).sum::<f64>() / den;
            for (c, zc) in dz.iter_mut().enumerate() {
                gr.q[(t, c)] += x.scale * dd * trace.z[t][c];
                *zc += x.scale * dd * x.q[(t, c)];
                gr.k[(t, c)] += *zc;
            }
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
            gr.k[(t, c)] += b * w;
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
