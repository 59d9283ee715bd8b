//! Rotary positions as a bilinear form: the score RoPE gives query `i` and
//! key `j` is the unrotated query and key through a rotation by their offset,
//! so a head's learned form turns with the distance between the tokens.
//!
//! ```text
//! s_ij = q_i R(j − i) k_jᵀ / √r         R(Δ) = ⊕_p [[cos Δω_p, −sin Δω_p], [sin Δω_p, cos Δω_p]]
//! ω_p  = θ^(−2p/r),  p = 0 … r/2 − 1     (pairs (2p, 2p+1), GGUF's layout)
//! M(Δ) = A R(Δ) Bᵀ,  A = diag(g) W_Q,  B = diag(g) W_K    the effective form on rms(x)
//! ```
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

/// The block-diagonal rotation `R(Δ)`, `(r, r)`: `q_rot k_rotᵀ = q R(j − i) kᵀ`
/// for a query at position `i` and a key at `j` rotated by
/// [`super::smollm2::forward::rope`].
///
/// ```
/// use attention_geometry::pretrained::rotary::rotation;
/// let r = rotation(3.0, 4, 1e5);
/// assert!((&r * r.transpose() - nalgebra::DMatrix::<f64>::identity(4, 4)).norm() < 1e-12);
/// assert!((r[(0, 0)] - 3f64.cos()).abs() < 1e-12);
/// ```
///
/// # Panics
/// If `r` is odd.
pub fn rotation(delta: f64, r: usize, theta: f64) -> DMatrix<f64> {
    assert!(r.is_multiple_of(2), "rotation: width {r} is odd");
    let mut m = DMatrix::zeros(r, r);
    for p in 0..r / 2 {
        let (sin, cos) = (delta * theta.powf(-2.0 * p as f64 / r as f64)).sin_cos();
        let (a, b) = (2 * p, 2 * p + 1);
        m[(a, a)] = cos;
        m[(a, b)] = -sin;
        m[(b, a)] = sin;
        m[(b, b)] = cos;
    }
    m
}

/// `R m` for the block-diagonal `R` of [`rotation`], in `O(r²)` rather than `O(r³)`.
fn rotate_rows(rot: &DMatrix<f64>, m: &DMatrix<f64>) -> DMatrix<f64> {
    let mut out = m.clone();
    for p in 0..m.nrows() / 2 {
        let (a, b) = (2 * p, 2 * p + 1);
        let (cos, sin) = (rot[(a, a)], rot[(b, a)]);
        for c in 0..m.ncols() {
            // (R m)_a = cos m_a − sin m_b, (R m)_b = sin m_a + cos m_b
            out[(a, c)] = cos * m[(a, c)] - sin * m[(b, c)];
            out[(b, c)] = sin * m[(a, c)] + cos * m[(b, c)];
        }
    }
    out
}

/// The symmetric share `‖½(M + Mᵀ)‖² / ‖M‖²` of `M(Δ) = A R(Δ) Bᵀ` at every
/// offset in `deltas`, through `r × r` Gram matrices only:
///
/// ```text
/// ‖M‖²    = tr(Rᵀ AᵀA R BᵀB)        tr(M M) = tr((R BᵀA)(R BᵀA))
/// share   = ½ + ½ tr(M M) / ‖M‖²
/// ```
///
/// # Shapes
/// `a, b: (d, r)` → one share per offset.
///
/// ```
/// use attention_geometry::pretrained::rotary::symmetric_shares;
/// let a = nalgebra::DMatrix::from_fn(6, 2, |i, j| (i + 2 * j) as f64);
/// // a tied form at offset 0 is symmetric; turned by π it is −A Aᵀ, still symmetric
/// let s = symmetric_shares(&a, &a, &[0.0], 1e5);
/// assert!((s[0] - 1.0).abs() < 1e-12);
/// ```
///
/// # Panics
/// If `a` and `b` differ in shape or the width is odd.
pub fn symmetric_shares(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    deltas: &[f64],
    theta: f64,
) -> Vec<f64> {
    assert_eq!(
        a.shape(),
        b.shape(),
        "symmetric_shares: A and B differ in shape"
    );
    let r = a.ncols();
    let (ga, gb, c) = (a.transpose() * a, b.transpose() * b, b.transpose() * a);
    deltas
        .iter()
        .map(|&delta| {
            let rot = rotation(delta, r, theta);
            // Rᵀ G_A R = (Rᵀ (Rᵀ G_A)ᵀ)ᵀ, G_A symmetric
            let rt = rot.transpose();
            let rga = rotate_rows(&rt, &ga);
            let rgar = rotate_rows(&rt, &rga.transpose()).transpose();
            let norm = rgar.component_mul(&gb).sum();
            let rc = rotate_rows(&rot, &c);
            let trace_mm = rc.component_mul(&rc.transpose()).sum();
            0.5 + 0.5 * trace_mm / norm
        })
        .collect()
}
