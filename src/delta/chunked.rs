//! The chunkwise-parallel form of KDA: within a chunk the delta corrections
//! are solved at once by the WY/UT transform; between chunks the state carries.

use nalgebra::{DMatrix, DMatrixView, DVector, Dyn};

use super::args::{Args, Decay};

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
/// N = (I + A_kk)⁻¹ diag(β) (V − (K ⊙ e^Γ) S0)       the chunk's delta corrections, [L, V]
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
    let x = Args {
        q,
        k,
        v,
        decay: Decay::Channel(g),
        beta: Some(beta),
        scale,
        initial_state,
    };
    run(&x.checked("kda_chunked"), chunk_size, form)
}

/// The chunkwise form on checked inputs; any decay (none, scalar or per channel).
pub fn run(x: &Args, chunk_size: usize, form: DecayForm) -> (DMatrix<f64>, DMatrix<f64>) {
    assert!(
        chunk_size >= 1,
        "kda_chunked: chunk_size must be at least 1 (got 0)"
    );
    let beta = x
        .beta
        .expect("the chunkwise form is a delta rule: beta is given");
    let v = x.v;
    let (t_len, kd, vd) = x.dims();
    let mut s = x.start_state();
    let mut out = DMatrix::zeros(t_len, vd);
    // buffers for full chunks, rebuilt once for a partial last chunk
    let mut c = Chunk::new(chunk_size.min(t_len), kd);
    let mut p = DMatrix::zeros(2 * c.l, vd);
    let mut n = DMatrix::zeros(c.l, vd);
    for t0 in (0..t_len).step_by(chunk_size) {
        let l = chunk_size.min(t_len - t0);
        if l != c.l {
            c = Chunk::new(l, kd);
            p = DMatrix::zeros(2 * l, vd);
            n = DMatrix::zeros(l, vd);
        }
        c.fill(x, form, t0);
        // [K ⊙ e^Γ; sQ ⊙ e^Γ] S0  [2L, V]: what S0 recalls for the chunk's keys, and reads out
        p.gemm(1.0, &c.kq, &s, 0.0);
        // the corrections diag(β) (V − (K ⊙ e^Γ) S0), in place of the recall  [L, V]
        let beta_c = &beta.as_slice()[t0..t0 + l];
        for (j, col) in p.as_mut_slice().chunks_exact_mut(2 * l).enumerate() {
            col[..l]
                .iter_mut()
                .zip(column(v, j, t0, l))
                .zip(beta_c)
                .for_each(|((x, v), b)| *x = b * (v - *x));
        }
        // N = T diag(β) (V − (K ⊙ e^Γ) S0)  [L, V]
        n.gemm(1.0, &c.t, &p.rows(0, l), 0.0);
        // O = (sQ ⊙ e^Γ) S0 + A_qk N  [L, V]
        let mut o = out.rows_mut(t0, l);
        o.copy_from(&p.rows(l, l));
        o.gemm(1.0, &c.a.rows(l, l), &n, 1.0);
        // S ← Diag(e^{Γ_last}) S0 + (K ⊙ e^{Γ_last − Γ})ᵀ N  [K, V]
        for col in s.as_mut_slice().chunks_exact_mut(kd) {
            col.iter_mut()
                .zip(c.decay_last.as_slice())
                .for_each(|(x, a)| *x *= a);
        }
        with_transpose(&c.k_last, vd, |kt| s.gemm(1.0, &kt, &n, 1.0));
    }
    (out, s)
}

/// Rows `t0..t0 + l` of column `d` of `m`, as a slice (column-major storage).
fn column(m: &DMatrix<f64>, d: usize, t0: usize, l: usize) -> &[f64] {
    let n = m.nrows();
    &m.as_slice()[d * n + t0..d * n + t0 + l]
}

/// Call `f` with `mᵀ`, for a product whose third dimension is `other`.
///
/// Without a copy where it can: a view with swapped strides goes straight to
/// matrixmultiply, which packs its operands anyway. nalgebra 0.35 hands a
/// product to matrixmultiply only when every dimension exceeds 5; its fallback
/// loop for smaller ones runs past the end of a strided view (nalgebra issue
/// #1616), so small products get an owned transpose.
fn with_transpose<R>(
    m: &DMatrix<f64>,
    other: usize,
    f: impl FnOnce(DMatrixView<'_, f64, Dyn, Dyn>) -> R,
) -> R {
    let (rows, cols) = m.shape();
    if rows.min(cols).min(other) > 5 {
        f(DMatrixView::from_slice_with_strides(
            m.as_slice(),
            cols,
            rows,
            rows,
            1,
        ))
    } else {
        let t = m.transpose();
        f(DMatrixView::from_slice_with_strides(
            t.as_slice(),
            cols,
            rows,
            1,
            cols,
        ))
    }
}

/// The matrices of one chunk of `L` steps (local `r, j < L`), in buffers
/// that [`Chunk::fill`] overwrites from chunk to chunk.
struct Chunk {
    l: usize,
    /// `Γ`, `[L, K]`
    gamma: DMatrix<f64>,
    /// `[K ⊙ e^Γ; sQ ⊙ e^Γ]`, stacked, `[2L, K]`
    kq: DMatrix<f64>,
    /// `K ⊙ e^{−Γ}` on factorised channels, zero on the others, `[L, K]`
    k_inv: DMatrix<f64>,
    /// `K ⊙ e^{Γ_{L−1} − Γ}`, `[L, K]`
    k_last: DMatrix<f64>,
    /// `e^{Γ_{L−1}}`, `[K]`
    decay_last: DVector<f64>,
    /// `[A_kk; A_qk]`, `[2L, L]`: `A_kk` strictly lower with row `r` scaled
    /// by `β_r`, `A_qk` lower with the diagonal
    a: DMatrix<f64>,
    /// `T = (I + A_kk)⁻¹`, unit lower triangular, `[L, L]`
    t: DMatrix<f64>,
    /// channels in the difference form
    slow: Vec<usize>,
}

impl Chunk {
    /// Buffers for a chunk of `l ≥ 1` steps and `kd` key channels.
    fn new(l: usize, kd: usize) -> Chunk {
        Chunk {
            l,
            gamma: DMatrix::zeros(l, kd),
            kq: DMatrix::zeros(2 * l, kd),
            k_inv: DMatrix::zeros(l, kd),
            k_last: DMatrix::zeros(l, kd),
            decay_last: DVector::zeros(kd),
            a: DMatrix::zeros(2 * l, l),
            t: DMatrix::zeros(l, l),
            slow: Vec::with_capacity(kd),
        }
    }

    /// Compute the matrices for steps `t0..t0 + L` of the inputs.
    fn fill(&mut self, x: &Args, form: DecayForm, t0: usize) {
        let (q, k, scale) = (x.q, x.k, x.scale);
        let beta = x
            .beta
            .expect("the chunkwise form is a delta rule: beta is given");
        let (l, kd) = (self.l, k.ncols());
        self.slow.clear();
        // the chunk's rows first, in one pass: [K; Q] and g, scaled in place below
        self.kq.rows_mut(0, l).copy_from(&k.rows(t0, l));
        self.kq.rows_mut(l, l).copy_from(&q.rows(t0, l));
        for (d, col) in self.gamma.as_mut_slice().chunks_exact_mut(l).enumerate() {
            match x.decay {
                Decay::None => col.fill(0.0),
                Decay::Scalar(g) => col.copy_from_slice(&g.as_slice()[t0..t0 + l]),
                Decay::Channel(g) => col.copy_from_slice(column(g, d, t0, l)),
            }
        }
        for d in 0..kd {
            // Γ_r = Σ_{i≤r} g_i, and the largest |Γ_r|
            let gamma_d = &mut self.gamma.as_mut_slice()[d * l..(d + 1) * l];
            let (mut acc, mut bound) = (0.0, 0.0_f64);
            for x in gamma_d.iter_mut() {
                acc += *x;
                *x = acc;
                bound = bound.max(acc.abs());
            }
            let last = gamma_d[l - 1];
            let decay_last = last.exp();
            self.decay_last[d] = decay_last;
            let factorise = match form {
                DecayForm::Difference => false,
                DecayForm::Factorised => true,
                DecayForm::Auto => bound <= SAFE_EXPONENT,
            };
            let (k_col, q_col) = self.kq.as_mut_slice()[d * 2 * l..(d + 1) * 2 * l].split_at_mut(l);
            let inv_col = &mut self.k_inv.as_mut_slice()[d * l..(d + 1) * l];
            let last_col = &mut self.k_last.as_mut_slice()[d * l..(d + 1) * l];
            if !factorise {
                self.slow.push(d);
            }
            for r in 0..l {
                let e = gamma_d[r].exp();
                if factorise {
                    // e^{−Γ_r} = 1 / e^{Γ_r} and e^{Γ_last − Γ_r} = e^{Γ_last} e^{−Γ_r}, all finite here
                    inv_col[r] = k_col[r] / e;
                    last_col[r] = inv_col[r] * decay_last;
                } else {
                    inv_col[r] = 0.0;
                    last_col[r] = k_col[r] * (last - gamma_d[r]).exp();
                }
                k_col[r] *= e;
                q_col[r] *= scale * e;
            }
        }
        // factorised channels: A[r, j] = Σ_d (x_r[d] e^{Γ_r[d]}) (k_j[d] e^{−Γ_j[d]})
        // [A_kk; A_qk] before masking  [2L, L]
        with_transpose(&self.k_inv, 2 * l, |kt| {
            self.a.gemm(1.0, &self.kq, &kt, 0.0)
        });
        // other channels: E_rj = exp(Γ_r − Γ_j), masked to j ≤ r before exp
        for &d in &self.slow {
            let (qd, kd_) = (column(q, d, t0, l), column(k, d, t0, l));
            let gamma_d = self.gamma.column(d);
            for j in 0..l {
                for r in j..l {
                    let kj = kd_[j] * (gamma_d[r] - gamma_d[j]).exp();
                    self.a[(l + r, j)] += scale * qd[r] * kj;
                    if j < r {
                        self.a[(r, j)] += kd_[r] * kj;
                    }
                }
            }
        }
        // mask: A_kk to j < r with row r scaled by β_r, A_qk to j ≤ r
        let beta = &beta.as_slice()[t0..t0 + l];
        for (j, col) in self.a.as_mut_slice().chunks_exact_mut(2 * l).enumerate() {
            let (kk, qk) = col.split_at_mut(l);
            kk[..=j].fill(0.0);
            kk[j + 1..]
                .iter_mut()
                .zip(&beta[j + 1..])
                .for_each(|(x, b)| *x *= b);
            qk[..j].fill(0.0);
        }
        // T = (I + A_kk)⁻¹, column by column: x[i+1..] −= A_kk[i+1.., i] x[i], once x[i] is final
        self.t.fill(0.0);
        let a = self.a.as_slice();
        for (c, x) in self.t.as_mut_slice().chunks_exact_mut(l).enumerate() {
            x[c] = 1.0;
            for i in c..l {
                let xi = x[i];
                let a_col = &a[i * 2 * l + i + 1..i * 2 * l + l];
                x[i + 1..]
                    .iter_mut()
                    .zip(a_col)
                    .for_each(|(x, a)| *x -= a * xi);
            }
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
    assert!(
        k.nrows() >= 1,
        "chunk_matrices: the chunk is empty (k is {:?})",
        k.shape()
    );
    let x = Args {
        q,
        k,
        v: k,
        decay: Decay::Channel(g),
        beta: Some(beta),
        scale,
        initial_state: None,
    }
    .checked("chunk_matrices");
    let l = k.nrows();
    let mut c = Chunk::new(l, k.ncols());
    c.fill(&x, DecayForm::Difference, 0);
    ChunkMatrices {
        a_kk: c.a.rows(0, l).into_owned(),
        a_qk: c.a.rows(l, l).into_owned(),
        gamma: c.gamma,
        t: c.t,
    }
}
