//! The chunkwise-parallel form of KDA: within a chunk the delta corrections
//! are solved at once by the WY/UT transform; between chunks the state carries.

use nalgebra::{DMatrix, DVector};

use super::check_shapes;

/// How `exp(Γ_r − Γ_j)` inside a chunk is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecayForm {
    /// `exp(Γ_r − Γ_j)` from the difference, masked to `j ≤ r` before `exp`:
    /// always finite, `L²·K` exponentials per chunk.
    Difference,
    /// `exp(Γ_r) · exp(−Γ_j)` as two matrix factors: a matrix product, but
    /// `exp(−Γ_j)` overflows (and `∞ · 0 = NaN`) once a chunk decays past `e^−709`.
    Factorised,
    /// Per key channel: factorised where the chunk's `|Γ|` stays below
    /// [`SAFE_EXPONENT`] (both factors finite, no loss of precision), the
    /// difference form elsewhere. The default of [`kda_chunked`].
    Auto,
}

/// Largest `|Γ|` within a chunk for which `Auto` factorises a channel:
/// `e^{±300}` and their products stay far inside `f64`.
pub const SAFE_EXPONENT: f64 = 300.0;

/// KDA computed chunk by chunk (WY/UT transform); equal to [`super::kda`] up to rounding.
///
/// For a chunk of `L ≤ C` steps with incoming state `S0` (local `r, j < L`):
/// ```text
/// Γ_r = Σ_{i≤r} g_i,   E_rj = exp(Γ_r − Γ_j)              (j ≤ r)
/// A_kk[r,j] = β_r Σ_d k_r[d] k_j[d] E_rj[d]   (j < r),   A_qk[r,j] = Σ_d s q_r[d] k_j[d] E_rj[d]   (j ≤ r)
/// W = (I + A_kk)⁻¹ diag(β) (K ⊙ e^Γ),   U = (I + A_kk)⁻¹ diag(β) V,   N = U − W S0
/// O = (sQ ⊙ e^Γ) S0 + A_qk N,   S_next = Diag(e^{Γ_{L−1}}) S0 + (K ⊙ e^{Γ_{L−1} − Γ})ᵀ N
/// ```
/// Any `T` (the last chunk is partial) and any `chunk_size ≥ 1`. Memory beyond
/// inputs and outputs: `O(K·V + C·(K + V) + C²)`.
///
/// # Shapes
/// As [`super::kda`]: `q, k, g: [T, K]`, `v: [T, V]`, `beta: [T]`,
/// `initial_state: [K, V]` → `(outputs [T, V], final_state [K, V])`.
///
/// # Panics
/// If the shapes disagree (the message names them) or `chunk_size` is 0.
///
/// ```
/// use attention_geometry::delta::{kda, kda_chunked};
/// use attention_geometry::random::{gaussian, seeded};
/// use nalgebra::DVector;
/// let mut rng = seeded(0);
/// let (q, k, v) = (gaussian(&mut rng, 10, 4, 0.5), gaussian(&mut rng, 10, 4, 0.5), gaussian(&mut rng, 10, 3, 1.0));
/// let g = gaussian(&mut rng, 10, 4, 1.0).map(|x| -x.abs());
/// let beta = DVector::from_element(10, 0.5);
/// let (o1, s1) = kda(&q, &k, &v, &g, &beta, 0.5, None);
/// let (o2, s2) = kda_chunked(&q, &k, &v, &g, &beta, 0.5, None, 4);
/// assert!((o1 - o2).amax() < 1e-12 && (s1 - s2).amax() < 1e-12);
/// ```
///
/// Introduced in chapter 7.
#[allow(clippy::too_many_arguments)]
pub fn kda_chunked(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    g: &DMatrix<f64>,
    beta: &DVector<f64>,
    scale: f64,
    initial_state: Option<&DMatrix<f64>>,
    chunk_size: usize,
) -> (DMatrix<f64>, DMatrix<f64>) {
    kda_chunked_with(
        q,
        k,
        v,
        g,
        beta,
        scale,
        initial_state,
        chunk_size,
        DecayForm::Auto,
    )
}

/// [`kda_chunked`] with a chosen way of forming the in-chunk decay (see [`DecayForm`]).
///
/// # Panics
/// As [`kda_chunked`].
///
/// ```
/// use attention_geometry::delta::{kda_chunked_with, DecayForm};
/// use nalgebra::{DMatrix, DVector};
/// let (t, d) = (64, 2);
/// let x = DMatrix::from_element(t, d, 0.5);
/// let g = DMatrix::from_element(t, d, -20.0); // the chunk decays to e^-1280
/// let beta = DVector::from_element(t, 0.5);
/// let run = |form| kda_chunked_with(&x, &x, &x, &g, &beta, 1.0, None, 64, form).0;
/// assert!(run(DecayForm::Difference).iter().all(|o| o.is_finite()));
/// assert!(run(DecayForm::Factorised).iter().any(|o| o.is_nan()));
/// ```
///
/// Introduced in chapter 7.
#[allow(clippy::too_many_arguments)]
pub fn kda_chunked_with(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    v: &DMatrix<f64>,
    g: &DMatrix<f64>,
    beta: &DVector<f64>,
    scale: f64,
    initial_state: Option<&DMatrix<f64>>,
    chunk_size: usize,
    form: DecayForm,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let g_shape = ("[T, K]", g.shape(), k.shape());
    check_shapes(
        "kda_chunked",
        q,
        k,
        v,
        Some(beta),
        Some(g_shape),
        initial_state,
    );
    assert!(
        chunk_size >= 1,
        "kda_chunked: chunk_size must be at least 1 (got 0)"
    );
    let (t_len, kd) = k.shape();
    let vd = v.ncols();
    let mut s = initial_state
        .cloned()
        .unwrap_or_else(|| DMatrix::zeros(kd, vd));
    let mut out = DMatrix::zeros(t_len, vd);
    for t0 in (0..t_len).step_by(chunk_size) {
        let l = chunk_size.min(t_len - t0);
        let mut c = Chunk::new(q, k, g, beta, scale, form, t0, l);
        // T = (I + A_kk)⁻¹  [L, L]
        let mut t = DMatrix::identity(l, l);
        solve_unit_lower(&c.a_kk, &mut t);
        // [W | U] = T diag(β) [K ⊙ e^Γ | V]  [L, K + V]
        let mut rhs = DMatrix::zeros(l, kd + vd);
        let beta_c = c.beta.as_slice();
        for (j, col) in rhs.as_mut_slice().chunks_exact_mut(l).enumerate() {
            let src = if j < kd {
                &c.kq.as_slice()[j * 2 * l..j * 2 * l + l]
            } else {
                column(v, j - kd, t0, l)
            };
            for ((x, a), b) in col.iter_mut().zip(src).zip(beta_c) {
                *x = a * b;
            }
        }
        let mut wu = DMatrix::zeros(l, kd + vd);
        wu.gemm(1.0, &t, &rhs, 0.0);
        // [W; sQ ⊙ e^Γ] S0  [2L, V]: the top half is W S0, the bottom the read of S0
        c.kq.rows_mut(0, l).copy_from(&wu.columns(0, kd));
        let mut p = DMatrix::zeros(2 * l, vd);
        p.gemm(1.0, &c.kq, &s, 0.0);
        // N = U − W S0  [L, V]
        let n = wu.columns(kd, vd) - p.rows(0, l);
        // O = (sQ ⊙ e^Γ) S0 + A_qk N  [L, V]
        let mut o = out.rows_mut(t0, l);
        o.copy_from(&p.rows(l, l));
        o.gemm(1.0, &c.a_qk, &n, 1.0);
        // S ← Diag(e^{Γ_last}) S0 + (K ⊙ e^{Γ_last − Γ})ᵀ N  [K, V]
        for col in s.as_mut_slice().chunks_exact_mut(kd) {
            col.iter_mut()
                .zip(c.decay_last.as_slice())
                .for_each(|(x, a)| *x *= a);
        }
        s.gemm(1.0, &c.k_to_last_t, &n, 1.0);
    }
    (out, s)
}

/// Rows `t0..t0 + l` of column `d` of `m`, as a slice (column-major storage).
fn column(m: &DMatrix<f64>, d: usize, t0: usize, l: usize) -> &[f64] {
    let n = m.nrows();
    &m.as_slice()[d * n + t0..d * n + t0 + l]
}

/// Solve `(I + A) X = B` in place for strictly lower triangular `A` `[L, L]`, `B: [L, n]`.
fn solve_unit_lower(a: &DMatrix<f64>, b: &mut DMatrix<f64>) {
    let l = a.nrows();
    let a = a.as_slice();
    for mut x in b.column_iter_mut() {
        let x = x.as_mut_slice();
        // x[i+1..] −= A[i+1.., i] x[i], once x[i] is final
        for i in 0..l {
            let xi = x[i];
            if xi != 0.0 {
                let a_col = &a[i * l + i + 1..(i + 1) * l];
                x[i + 1..]
                    .iter_mut()
                    .zip(a_col)
                    .for_each(|(x, a)| *x -= a * xi);
            }
        }
    }
}

/// The in-chunk quantities shared by [`kda_chunked`] and [`chunk_matrices`].
struct Chunk {
    beta: DVector<f64>,
    /// `Γ`, `[L, K]`
    gamma: DMatrix<f64>,
    /// `[K ⊙ e^Γ; sQ ⊙ e^Γ]`, stacked, `[2L, K]`
    kq: DMatrix<f64>,
    /// `e^{Γ_{L−1}}`, `[K]`
    decay_last: DVector<f64>,
    /// `(K ⊙ e^{Γ_{L−1} − Γ})ᵀ`, `[K, L]`
    k_to_last_t: DMatrix<f64>,
    /// strictly lower, rows scaled by β, `[L, L]`
    a_kk: DMatrix<f64>,
    /// lower with the diagonal, `[L, L]`
    a_qk: DMatrix<f64>,
}

impl Chunk {
    /// The chunk of steps `t0..t0 + l` of the inputs.
    #[allow(clippy::too_many_arguments)]
    fn new(
        q: &DMatrix<f64>,
        k: &DMatrix<f64>,
        g: &DMatrix<f64>,
        beta: &DVector<f64>,
        scale: f64,
        form: DecayForm,
        t0: usize,
        l: usize,
    ) -> Chunk {
        let kd = k.ncols();
        let mut gamma = DMatrix::zeros(l, kd);
        let mut kq = DMatrix::zeros(2 * l, kd);
        let mut decay_last = DVector::zeros(kd);
        // K ⊙ e^{−Γ}, transposed, on factorised channels only  [K, L]
        let mut k_inv_t = DMatrix::zeros(kd, l);
        let mut k_to_last_t = DMatrix::zeros(kd, l);
        let mut slow = Vec::new();
        for d in 0..kd {
            let (qd, kd_, gd) = (
                column(q, d, t0, l),
                column(k, d, t0, l),
                column(g, d, t0, l),
            );
            // Γ_r = Σ_{i≤r} g_i
            let mut acc = 0.0;
            let mut gamma_d = gamma.column_mut(d);
            for r in 0..l {
                acc += gd[r];
                gamma_d[r] = acc;
            }
            let bound = gamma_d.amax();
            let last = gamma_d[l - 1];
            decay_last[d] = last.exp();
            let factorise = match form {
                DecayForm::Difference => false,
                DecayForm::Factorised => true,
                DecayForm::Auto => bound <= SAFE_EXPONENT,
            };
            if !factorise {
                slow.push(d);
            }
            let gamma_d = &gamma.as_slice()[d * l..(d + 1) * l];
            let (k_col, q_col) = kq.as_mut_slice()[d * 2 * l..(d + 1) * 2 * l].split_at_mut(l);
            let (inv_t, last_t) = (k_inv_t.as_mut_slice(), k_to_last_t.as_mut_slice());
            for r in 0..l {
                let gr = gamma_d[r];
                let e = gr.exp();
                k_col[r] = kd_[r] * e;
                q_col[r] = scale * qd[r] * e;
                if factorise {
                    // e^{−Γ_r} = 1 / e^{Γ_r} and e^{Γ_last − Γ_r} = e^{Γ_last} e^{−Γ_r}, all finite here
                    let inv = kd_[r] / e;
                    inv_t[r * kd + d] = inv;
                    last_t[r * kd + d] = inv * decay_last[d];
                } else {
                    last_t[r * kd + d] = kd_[r] * (last - gr).exp();
                }
            }
        }
        // factorised channels: A[r, j] = Σ_d (x_r[d] e^{Γ_r[d]}) (k_j[d] e^{−Γ_j[d]})  [L, L]
        // [A_kk; A_qk] before masking  [2L, L]
        let mut a = DMatrix::zeros(2 * l, l);
        a.gemm(1.0, &kq, &k_inv_t, 0.0);
        let mut a_kk = a.rows(0, l).clone_owned();
        let mut a_qk = a.rows(l, l).clone_owned();
        // other channels: E_rj = exp(Γ_r − Γ_j), masked to j ≤ r before exp
        for &d in &slow {
            let (qd, kd_) = (column(q, d, t0, l), column(k, d, t0, l));
            let gamma_d = gamma.column(d);
            for j in 0..l {
                for r in j..l {
                    let kj = kd_[j] * (gamma_d[r] - gamma_d[j]).exp();
                    a_qk[(r, j)] += scale * qd[r] * kj;
                    if j < r {
                        a_kk[(r, j)] += kd_[r] * kj;
                    }
                }
            }
        }
        let beta = beta.rows(t0, l).clone_owned();
        for j in 0..l {
            for r in 0..l {
                if j >= r {
                    a_kk[(r, j)] = 0.0;
                } else {
                    a_kk[(r, j)] *= beta[r];
                }
                if j > r {
                    a_qk[(r, j)] = 0.0;
                }
            }
        }
        Chunk {
            beta,
            gamma,
            kq,
            decay_last,
            k_to_last_t,
            a_kk,
            a_qk,
        }
    }
}

/// The matrices of one chunk, for inspection.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkMatrices {
    /// `Γ`, the in-chunk cumulative log decay, `[L, K]`.
    pub gamma: DMatrix<f64>,
    /// `A_kk`, strictly lower triangular, row `r` scaled by `β_r`, `[L, L]`.
    pub a_kk: DMatrix<f64>,
    /// `T = (I + A_kk)⁻¹`, unit lower triangular, `[L, L]`.
    pub t: DMatrix<f64>,
    /// `A_qk`, lower triangular with the diagonal, `[L, L]`.
    pub a_qk: DMatrix<f64>,
}

/// The matrices [`kda_chunked`] builds for one chunk of `L` steps (difference form).
///
/// ```text
/// A_kk[r,j] = β_r Σ_d k_r[d] k_j[d] exp(Γ_r[d] − Γ_j[d]),  j < r;    T = (I + A_kk)⁻¹
/// ```
///
/// # Shapes
/// `q, k, g: [L, K]`, `beta: [L]` → the fields of [`ChunkMatrices`].
///
/// # Panics
/// If the shapes disagree.
///
/// ```
/// use attention_geometry::delta::chunk_matrices;
/// use nalgebra::{dmatrix, dvector, DMatrix};
/// let k = dmatrix![1.0, 0.0; 1.0, 0.0];
/// let m = chunk_matrices(&k, &k, &DMatrix::zeros(2, 2), &dvector![1.0, 0.5], 1.0);
/// assert_eq!(m.a_kk[(1, 0)], 0.5);
/// assert_eq!(m.t[(1, 0)], -0.5);
/// ```
///
/// Introduced in chapter 7.
pub fn chunk_matrices(
    q: &DMatrix<f64>,
    k: &DMatrix<f64>,
    g: &DMatrix<f64>,
    beta: &DVector<f64>,
    scale: f64,
) -> ChunkMatrices {
    let g_shape = ("[L, K]", g.shape(), k.shape());
    assert!(
        k.nrows() >= 1,
        "chunk_matrices: the chunk is empty (k is {:?})",
        k.shape()
    );
    check_shapes("chunk_matrices", q, k, k, Some(beta), Some(g_shape), None);
    let c = Chunk::new(q, k, g, beta, scale, DecayForm::Difference, 0, k.nrows());
    let mut t = DMatrix::identity(k.nrows(), k.nrows());
    solve_unit_lower(&c.a_kk, &mut t);
    ChunkMatrices {
        gamma: c.gamma,
        a_kk: c.a_kk,
        t,
        a_qk: c.a_qk,
    }
}
