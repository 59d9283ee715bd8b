//! The recurrent forms: one state update per time step.

use nalgebra::{DMatrix, DVector};

use super::args::{Args, Decay};
use crate::attention::{causal_mask, scores, softmax_rows};

/// The shared loop: decay, optional delta correction (with `beta`), write, read.
pub fn recur(x: &Args) -> (DMatrix<f64>, DMatrix<f64>) {
    let (t_len, kd, vd) = x.dims();
    let mut s = x.start_state();
    // columns are time steps: [K, T], [K, T], [V, T]
    let (qt, kt, vt) = (x.q.transpose() * x.scale, x.k.transpose(), x.v.transpose());
    let mut g = vec![0.0; kd];
    let mut alpha = DVector::zeros(kd);
    let mut out = DMatrix::zeros(vd, t_len);
    let mut u = DVector::zeros(vd);
    for t in 0..t_len {
        // S ← Diag(α_t) S
        match x.decay {
            Decay::None => {}
            Decay::Scalar(g) => s *= g[t].exp(),
            Decay::Channel(_) => {
                x.decay.log_decays(t, &mut g);
                alpha.iter_mut().zip(&g).for_each(|(a, g)| *a = g.exp());
                s.column_iter_mut()
                    .for_each(|mut c| c.component_mul_assign(&alpha));
            }
        }
        let k_t = kt.column(t);
        u.copy_from(&vt.column(t));
        if let Some(beta) = x.beta {
            // u = v_t − Sᵀ k_t  [V];  S ← S + β_t k_t uᵀ
            u.gemv_tr(-1.0, &s, &k_t, 1.0);
            s.ger(beta[t], &k_t, &u, 1.0);
        } else {
            // S ← S + k_t v_tᵀ
            s.ger(1.0, &k_t, &u, 1.0);
        }
        // o_t = Sᵀ (scale q_t)  [V]
        out.column_mut(t).gemv_tr(1.0, &s, &qt.column(t), 0.0);
    }
    (out.transpose(), s)
}

/// Linear attention as a fast-weight memory: every step adds the outer product `k_t v_tᵀ`.
///
/// ```text
/// S_t = S_{t-1} + k_t v_tᵀ,    o_t = S_tᵀ (scale · q_t) = Σ_{j≤t} scale (q_t·k_j) v_j
/// ```
///
/// # Shapes
/// `q, k: [T, K]`, `v: [T, V]`, `initial_state: [K, V]` → `(outputs [T, V], final_state [K, V])`.
///
/// # Panics
/// If the shapes disagree; the message names them.
///
/// ```
/// use attention_geometry::delta::linear_attention;
/// use nalgebra::dmatrix;
/// let (q, k, v) = (dmatrix![1.0, 0.0; 1.0, 0.0], dmatrix![1.0, 0.0; 1.0, 0.0], dmatrix![2.0; 3.0]);
/// let (o, s) = linear_attention(&q, &k, &v, 1.0, None);
/// assert_eq!((o[(0, 0)], o[(1, 0)]), (2.0, 5.0)); // the second read sees 2 + 3
/// assert_eq!(s[(0, 0)], 5.0);
/// ```
///
/// Introduced in chapter 7.
pub fn linear_attention(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    scale: f64,
    initial_state: Option<&DMatrix<f64>>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let x = Args {
        q,
        k,
        v,
        decay: Decay::None,
        beta: None,
        scale,
        initial_state,
    };
    recur(&x.checked("linear_attention"))
}

/// DeltaNet: each step moves the state's answer for `k_t` a fraction `β_t` towards `v_t`.
///
/// ```text
/// S_t = S_{t-1} + β_t k_t (v_t − S_{t-1}ᵀ k_t)ᵀ = (I − β_t k_t k_tᵀ) S_{t-1} + β_t k_t v_tᵀ
/// ```
/// which is one gradient step of size `β_t` on `½‖Sᵀ k_t − v_t‖²` (see [`regression_loss`]).
///
/// # Shapes
/// `q, k: [T, K]`, `v: [T, V]`, `beta: [T]`, `initial_state: [K, V]` →
/// `(outputs [T, V], final_state [K, V])`.
///
/// # Panics
/// If the shapes disagree; the message names them.
///
/// ```
/// use attention_geometry::delta::delta_rule;
/// use nalgebra::{dmatrix, dvector};
/// // the same unit key written twice with β = 1: the second value replaces the first
/// let (k, v) = (dmatrix![1.0, 0.0; 1.0, 0.0], dmatrix![2.0; 3.0]);
/// let (o, _) = delta_rule(&k, &k, &v, &dvector![1.0, 1.0], 1.0, None);
/// assert_eq!((o[(0, 0)], o[(1, 0)]), (2.0, 3.0));
/// ```
///
/// Introduced in chapter 7.
pub fn delta_rule(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    beta: &DVector<f64>,
    scale: f64,
    initial_state: Option<&DMatrix<f64>>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let x = Args {
        q,
        k,
        v,
        decay: Decay::None,
        beta: Some(beta),
        scale,
        initial_state,
    };
    recur(&x.checked("delta_rule"))
}

/// Gated DeltaNet: the state decays by the scalar `exp(g_t)` and then takes a delta step.
///
/// ```text
/// S' = exp(g_t) S_{t-1},    S_t = S' + β_t k_t (v_t − S'ᵀ k_t)ᵀ,    g_t ≤ 0
/// ```
///
/// # Shapes
/// `q, k: [T, K]`, `v: [T, V]`, `g, beta: [T]`, `initial_state: [K, V]` →
/// `(outputs [T, V], final_state [K, V])`.
///
/// # Panics
/// If the shapes disagree; the message names them.
///
/// ```
/// use attention_geometry::delta::gated_delta_rule;
/// use nalgebra::{dmatrix, dvector};
/// let (q, k, v) = (dmatrix![1.0; 1.0], dmatrix![1.0; 0.0], dmatrix![4.0; 0.0]);
/// let (o, _) = gated_delta_rule(&q, &k, &v, &dvector![0.0, 0.5f64.ln()], &dvector![1.0, 0.0], 1.0, None);
/// assert!((o[(1, 0)] - 2.0).abs() < 1e-12); // β = 0 writes nothing; the decay halves the memory
/// ```
///
/// Introduced in chapter 7.
pub fn gated_delta_rule(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    g: &DVector<f64>,
    beta: &DVector<f64>,
    scale: f64,
    initial_state: Option<&DMatrix<f64>>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let x = Args {
        q,
        k,
        v,
        decay: Decay::Scalar(g),
        beta: Some(beta),
        scale,
        initial_state,
    };
    recur(&x.checked("gated_delta_rule"))
}

/// Kimi Delta Attention: the state decays per key channel by `exp(g_t)` and then takes a delta step.
///
/// ```text
/// S' = Diag(exp(g_t)) S_{t-1},    S_t = S' + β_t k_t (v_t − S'ᵀ k_t)ᵀ,    g_t ∈ (−∞, 0]^K
/// ```
///
/// # Shapes
/// `q, k, g: [T, K]`, `v: [T, V]`, `beta: [T]`, `initial_state: [K, V]` →
/// `(outputs [T, V], final_state [K, V])`.
///
/// # Panics
/// If the shapes disagree; the message names them.
///
/// ```
/// use attention_geometry::delta::kda;
/// use nalgebra::{dmatrix, dvector};
/// // two channels hold 1 each; channel 0 forgets half per step, channel 1 nothing
/// let s0 = dmatrix![1.0; 1.0];
/// let (q, v) = (dmatrix![1.0, 1.0], dmatrix![0.0]);
/// let g = dmatrix![0.5f64.ln(), 0.0];
/// let (o, s) = kda(&q, &dmatrix![0.0, 0.0], &v, &g, &dvector![0.0], 1.0, Some(&s0));
/// assert!((s[(0, 0)] - 0.5).abs() < 1e-12 && s[(1, 0)] == 1.0 && (o[(0, 0)] - 1.5).abs() < 1e-12);
/// ```
///
/// Introduced in chapter 7.
pub fn kda(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    g: &DMatrix<f64>,
    beta: &DVector<f64>,
    scale: f64,
    initial_state: Option<&DMatrix<f64>>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let x = Args {
        q,
        k,
        v,
        decay: Decay::Channel(g),
        beta: Some(beta),
        scale,
        initial_state,
    };
    recur(&x.checked("kda"))
}

/// The regression loss whose gradient step the delta rule takes.
///
/// ```text
/// L(S) = ½ ‖Sᵀ k − v‖²,    ∇_S L = k (Sᵀ k − v)ᵀ
/// ```
///
/// # Shapes
/// `s: [K, V]`, `k: [K]`, `v: [V]`.
///
/// # Panics
/// If the shapes disagree.
///
/// ```
/// use attention_geometry::delta::regression_loss;
/// use nalgebra::{dmatrix, dvector};
/// assert_eq!(regression_loss(&dmatrix![1.0; 0.0], &dvector![1.0, 0.0], &dvector![3.0]), 2.0);
/// ```
///
/// Introduced in chapter 7.
pub fn regression_loss(s: &DMatrix<f64>, k: &DVector<f64>, v: &DVector<f64>) -> f64 {
    assert!(
        s.nrows() == k.len() && s.ncols() == v.len(),
        "regression_loss: s is {:?}, k has length {}, v has length {}; s must be [K, V]",
        s.shape(),
        k.len(),
        v.len()
    );
    0.5 * (s.tr_mul(k) - v).norm_squared()
}

/// The weight each output puts on each value under KDA: since `o_t` is linear
/// in the values, `o_t = Σ_{j≤t} W[t, j] v_j` for a `[T, T]` matrix `W`.
///
/// ```text
/// W[t, j] = scale q_tᵀ (Π_{i=t..j+1} (I − β_i k_i k_iᵀ) Diag(α_i)) β_j k_j     (DeltaNet: α = 1)
/// W[t, j] = scale q_t · k_j                                                   (linear attention)
/// ```
/// Computed by running [`kda`] with the values `V = I_T`.
///
/// # Shapes
/// `q, k, g: [T, K]`, `beta: [T]` → `[T, T]`, lower triangular.
///
/// # Panics
/// If the shapes disagree.
///
/// ```
/// use attention_geometry::delta::effective_weights;
/// use nalgebra::{dmatrix, dvector, DMatrix};
/// let (q, k) = (dmatrix![1.0, 0.0; 0.3, 1.0], dmatrix![1.0, 0.0; 0.6, 0.8]);
/// let w = effective_weights(&q, &k, &DMatrix::zeros(2, 2), &dvector![1.0, 1.0], 1.0);
/// // q_2 · k_1 = 0.3 > 0, yet the second write turns the weight on v_1 negative
/// assert!((w[(1, 0)] - (0.3 - 0.98 * 0.6)).abs() < 1e-12);
/// ```
///
/// Introduced in chapter 7.
pub fn effective_weights(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    g: &DMatrix<f64>,
    beta: &DVector<f64>,
    scale: f64,
) -> DMatrix<f64> {
    let t = k.nrows();
    kda(q, k, &DMatrix::identity(t, t), g, beta, scale, None).0
}

/// Causal softmax attention in the same conventions, built on
/// [`crate::attention::softmax_rows`]; queries run in blocks of 256 rows so
/// memory stays `O(256 · T)`.
///
/// ```text
/// o_t = Σ_{j≤t} softmax_j(scale q_t · k_j) v_j
/// ```
///
/// # Shapes
/// `q, k: [T, K]`, `v: [T, V]` → `[T, V]`.
///
/// # Panics
/// If the shapes disagree.
///
/// ```
/// use attention_geometry::delta::softmax_attention;
/// use nalgebra::dmatrix;
/// let (q, v) = (dmatrix![0.0; 0.0], dmatrix![2.0; 4.0]);
/// let o = softmax_attention(&q, &q, &v, 1.0);
/// assert_eq!((o[(0, 0)], o[(1, 0)]), (2.0, 3.0)); // equal scores: the mean of what is visible
/// ```
///
/// Introduced in chapter 7.
pub fn softmax_attention(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    scale: f64,
) -> DMatrix<f64> {
    let x = Args {
        q,
        k,
        v,
        decay: Decay::None,
        beta: None,
        scale,
        initial_state: None,
    };
    softmax(&x.checked("softmax_attention"))
}

/// Causal softmax attention on checked inputs, in blocks of 256 query rows.
pub fn softmax(x: &Args) -> DMatrix<f64> {
    const BLOCK: usize = 256;
    let (q, k, v) = (x.q, x.k, x.v);
    let t_len = k.nrows();
    let mut out = DMatrix::zeros(t_len, v.ncols());
    for i0 in (0..t_len).step_by(BLOCK) {
        let n = BLOCK.min(t_len - i0);
        // [n, i0 + n]: block rows against every visible key
        let mut s = scores(
            &q.rows(i0, n).clone_owned(),
            &k.rows(0, i0 + n).clone_owned(),
            x.scale,
        );
        let mut diagonal = s.columns(i0, n).clone_owned();
        causal_mask(&mut diagonal);
        s.columns_mut(i0, n).copy_from(&diagonal);
        out.rows_mut(i0, n)
            .copy_from(&(softmax_rows(&s) * v.rows(0, i0 + n)));
    }
    out
}
