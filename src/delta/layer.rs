//! The pieces of a KDA layer around the kernel (flash-linear-attention's
//! `layers/kda.py`): L2-normalised q and k, the forget gate, β, and the gated
//! RMSNorm on the output.

use nalgebra::{DMatrix, DVector};

/// The logistic function `1 / (1 + e^{−x})`, stable for any finite `x`.
///
/// ```
/// use attention_geometry::delta::sigmoid;
/// assert_eq!(sigmoid(0.0), 0.5);
/// assert!(sigmoid(-1000.0) == 0.0 && sigmoid(1000.0) == 1.0);
/// ```
///
/// Introduced in chapter 7.
pub fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        x.exp() / (1.0 + x.exp())
    }
}

/// `softplus(x) = ln(1 + e^x)`, exact and stable: `max(x, 0) + ln(1 + e^{−|x|})`.
///
/// ```
/// use attention_geometry::delta::softplus;
/// assert!((softplus(0.0) - 2f64.ln()).abs() < 1e-15);
/// assert_eq!(softplus(1000.0), 1000.0);
/// ```
///
/// Introduced in chapter 7.
pub fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// Each row divided by its L2 norm, with flash-linear-attention's epsilon inside the root.
///
/// ```text
/// x_t ← x_t / sqrt(Σ_d x_t[d]² + 1e-6)
/// ```
///
/// # Shapes
/// `[T, K]` → `[T, K]`.
///
/// ```
/// use attention_geometry::delta::l2_normalize;
/// use nalgebra::dmatrix;
/// let x = l2_normalize(&dmatrix![3.0, 4.0]);
/// assert!((x[(0, 0)] - 0.6).abs() < 1e-7 && (x.row(0).norm() - 1.0).abs() < 1e-7);
/// ```
///
/// Introduced in chapter 7.
pub fn l2_normalize(x: &DMatrix<f64>) -> DMatrix<f64> {
    let mut out = x.clone();
    for mut row in out.row_iter_mut() {
        let norm = (row.norm_squared() + 1e-6).sqrt();
        row /= norm;
    }
    out
}

/// KDA's per-channel forget gate, in natural log.
///
/// ```text
/// g[t, d] = −exp(a_log) · softplus(f[t, d] + dt_bias[d])   ≤ 0
/// ```
///
/// # Shapes
/// `f: [T, K]`, `dt_bias: [K]` → `[T, K]`.
///
/// # Panics
/// If `dt_bias` does not have one entry per column of `f`.
///
/// ```
/// use attention_geometry::delta::kda_gate;
/// use nalgebra::{dmatrix, dvector};
/// let g = kda_gate(&dmatrix![0.0, 100.0], 0.0, &dvector![0.0, 0.0]);
/// assert!((g[(0, 0)] + 2f64.ln()).abs() < 1e-15 && g[(0, 1)] == -100.0);
/// ```
///
/// Introduced in chapter 7.
pub fn kda_gate(f: &DMatrix<f64>, a_log: f64, dt_bias: &DVector<f64>) -> DMatrix<f64> {
    assert_eq!(
        f.ncols(),
        dt_bias.len(),
        "kda_gate: f is {:?} but dt_bias has length {}; it must be [K]",
        f.shape(),
        dt_bias.len()
    );
    let a = a_log.exp();
    DMatrix::from_fn(f.nrows(), f.ncols(), |t, d| {
        -a * softplus(f[(t, d)] + dt_bias[d])
    })
}

/// The write strength `β_t = sigmoid(b_t)` of each step.
///
/// ```
/// use attention_geometry::delta::beta_from_logits;
/// use nalgebra::dvector;
/// assert_eq!(beta_from_logits(&dvector![0.0])[0], 0.5);
/// ```
///
/// Introduced in chapter 7.
pub fn beta_from_logits(b: &DVector<f64>) -> DVector<f64> {
    b.map(sigmoid)
}

/// The gated RMSNorm on KDA's output, row by row.
///
/// ```text
/// y_t = o_t / sqrt(mean_d o_t[d]² + eps) ⊙ weight ⊙ sigmoid(gate_t)      (eps = 1e-5 in fla)
/// ```
///
/// # Shapes
/// `o, gate: [T, V]`, `weight: [V]` → `[T, V]`.
///
/// # Panics
/// If the shapes disagree.
///
/// ```
/// use attention_geometry::delta::gated_rms_norm;
/// use nalgebra::{dmatrix, dvector};
/// let y = gated_rms_norm(&dmatrix![3.0, -3.0], &dvector![1.0, 2.0], &dmatrix![0.0, 0.0], 0.0);
/// assert_eq!((y[(0, 0)], y[(0, 1)]), (0.5, -1.0));
/// ```
///
/// Introduced in chapter 7.
pub fn gated_rms_norm(
    o: &DMatrix<f64>,
    weight: &DVector<f64>,
    gate: &DMatrix<f64>,
    eps: f64,
) -> DMatrix<f64> {
    assert!(
        gate.shape() == o.shape() && weight.len() == o.ncols(),
        "gated_rms_norm: o is {:?}, gate is {:?}, weight has length {}; need gate [T, V] like o and weight [V]",
        o.shape(),
        gate.shape(),
        weight.len()
    );
    let v = o.ncols() as f64;
    let mut y = o.clone();
    for (t, mut row) in y.row_iter_mut().enumerate() {
        let rms = (row.norm_squared() / v + eps).sqrt();
        for d in 0..row.len() {
            row[d] = row[d] / rms * weight[d] * sigmoid(gate[(t, d)]);
        }
    }
    y
}
