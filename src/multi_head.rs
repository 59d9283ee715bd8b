//! Multi-head attention: split the projections into heads, run each head on
//! the same tokens, concatenate, mix with `W_O`.
//!
//! ```text
//! W_Q = [W_Q¹ … W_Qʰ]  (d, h·d_k),  W_V = [W_V¹ … W_Vʰ]  (d, h·d_v),  W_O = [W_O¹; …; W_Oʰ]  (h·d_v, d)
//! A_t = softmax(x W_Qᵗ (x W_Kᵗ)ᵀ / √d_k),   o_t = A_t x W_Vᵗ
//! out = [o_1 … o_h] W_O = Σ_t A_t x W_Vᵗ W_Oᵗ
//! ```
//! Introduced in chapter 3.

use nalgebra::DMatrix;

use crate::attention::{Head, Mask};
use crate::random::{Rng, projection};

/// The `h` column blocks of `m`, each of width `m.ncols() / h`.
///
/// # Shapes
/// `(r, h·w)` → `h × (r, w)`.
///
/// # Panics
/// If `h` is zero or does not divide the width.
///
/// ```
/// use attention_geometry::multi_head::{concat_heads, split_heads};
/// use nalgebra::DMatrix;
/// let m = DMatrix::from_fn(3, 6, |i, j| (i * 6 + j) as f64);
/// let parts = split_heads(&m, 3);
/// assert_eq!(parts[1][(0, 0)], 2.0);
/// assert_eq!(concat_heads(&parts), m);
/// ```
pub fn split_heads(m: &DMatrix<f64>, h: usize) -> Vec<DMatrix<f64>> {
    assert!(
        h > 0 && m.ncols().is_multiple_of(h),
        "split_heads: width {} does not split into {h} heads",
        m.ncols()
    );
    let w = m.ncols() / h;
    (0..h).map(|t| m.columns(t * w, w).into_owned()).collect()
}

/// Concatenate equal-height blocks side by side.
///
/// # Shapes
/// `h × (r, w_t)` → `(r, Σ w_t)`.
///
/// # Panics
/// If `parts` is empty or the heights differ.
pub fn concat_heads(parts: &[DMatrix<f64>]) -> DMatrix<f64> {
    assert!(!parts.is_empty(), "concat_heads: no heads to concatenate");
    let r = parts[0].nrows();
    assert!(
        parts.iter().all(|p| p.nrows() == r),
        "concat_heads: heads have different heights"
    );
    let width = parts.iter().map(|p| p.ncols()).sum();
    let mut out = DMatrix::zeros(r, width);
    let mut c = 0;
    for p in parts {
        out.columns_mut(c, p.ncols()).copy_from(p);
        c += p.ncols();
    }
    out
}

/// The best rank-`r` approximation of `m` in Frobenius norm (Eckart–Young):
/// its SVD with all but the `r` largest singular values set to zero.
///
/// ```
/// use attention_geometry::multi_head::best_rank;
/// use nalgebra::dmatrix;
/// let m = dmatrix![3.0, 0.0; 0.0, 1.0];
/// assert!((best_rank(&m, 1) - dmatrix![3.0, 0.0; 0.0, 0.0]).norm() < 1e-12);
/// ```
pub fn best_rank(m: &DMatrix<f64>, r: usize) -> DMatrix<f64> {
    best_ranks(m, r).pop().unwrap_or_else(|| m.map(|_| 0.0))
}

/// The best approximations of every rank `1..=r_max` from one SVD:
/// `m_r = Σ_{k ≤ r} σ_k u_k v_kᵀ`, singular values largest first.
///
/// # Shapes
/// `(a, b)` → `r_max × (a, b)` (fewer if `r_max > min(a, b)`).
pub fn best_ranks(m: &DMatrix<f64>, r_max: usize) -> Vec<DMatrix<f64>> {
    let svd = m.clone().svd(true, true);
    let (u, v_t) = (
        svd.u.expect("u was asked for"),
        svd.v_t.expect("v_t was asked for"),
    );
    let mut order: Vec<usize> = (0..svd.singular_values.len()).collect();
    order.sort_by(|&a, &b| svd.singular_values[b].total_cmp(&svd.singular_values[a]));
    let mut acc = m.map(|_| 0.0);
    order
        .into_iter()
        .take(r_max)
        .map(|k| {
            // m_r = m_{r−1} + σ_k u_k v_kᵀ
            acc += u.column(k) * v_t.row(k) * svd.singular_values[k];
            acc.clone()
        })
        .collect()
}

/// A multi-head attention layer.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiHead {
    /// Number of heads `h`.
    pub h: usize,
    /// `(d, h·d_k)`
    pub w_q: DMatrix<f64>,
    /// `(d, h·d_k)`
    pub w_k: DMatrix<f64>,
    /// `(d, h·d_v)`
    pub w_v: DMatrix<f64>,
    /// `(h·d_v, d_out)`
    pub w_o: DMatrix<f64>,
}

/// What one multi-head layer computes on one input.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiPass {
    /// Each head's attention weights, `h × (n, n)`.
    pub weights: Vec<DMatrix<f64>>,
    /// Each head's output before `W_O`, `h × (n, d_v)`.
    pub heads: Vec<DMatrix<f64>>,
    /// `[o_1 … o_h] W_O`, `(n, d_out)`.
    pub output: DMatrix<f64>,
}

impl MultiHead {
    /// `h` heads on width `d` with independent `N(0, 1/d)` projections and
    /// an `N(0, 1/(h·d_v))` output map back to width `d`.
    pub fn random(rng: &mut Rng, d: usize, h: usize, d_k: usize, d_v: usize) -> MultiHead {
        MultiHead {
            h,
            w_q: projection(rng, d, h * d_k),
            w_k: projection(rng, d, h * d_k),
            w_v: projection(rng, d, h * d_v),
            w_o: projection(rng, h * d_v, d),
        }
    }

    /// The layer made of `heads` (equal shapes) and their output maps
    /// `w_o[t]: (d_v, d_out)`.
    ///
    /// # Panics
    /// If the heads have different shapes or the counts differ.
    pub fn from_heads(heads: &[Head], w_o: &[DMatrix<f64>]) -> MultiHead {
        assert_eq!(
            heads.len(),
            w_o.len(),
            "from_heads: {} heads but {} output maps",
            heads.len(),
            w_o.len()
        );
        let cat = |f: fn(&Head) -> &DMatrix<f64>| {
            concat_heads(&heads.iter().map(|hd| f(hd).clone()).collect::<Vec<_>>())
        };
        let (w_q, w_k, w_v) = (cat(|hd| &hd.w_q), cat(|hd| &hd.w_k), cat(|hd| &hd.w_v));
        for hd in heads {
            assert_eq!(
                (hd.w_q.shape(), hd.w_v.shape()),
                (heads[0].w_q.shape(), heads[0].w_v.shape()),
                "from_heads: heads of different shapes"
            );
        }
        let w_o = concat_heads(&w_o.iter().map(|m| m.transpose()).collect::<Vec<_>>()).transpose();
        MultiHead {
            h: heads.len(),
            w_q,
            w_k,
            w_v,
            w_o,
        }
    }

    /// Head `t` as a single [`Head`].
    pub fn head(&self, t: usize) -> Head {
        assert!(t < self.h, "head {t} of a {}-head layer", self.h);
        // columns t·w .. (t + 1)·w of each projection, w = width / h
        let pick = |m: &DMatrix<f64>| {
            m.columns(t * m.ncols() / self.h, m.ncols() / self.h)
                .into_owned()
        };
        Head {
            w_q: pick(&self.w_q),
            w_k: pick(&self.w_k),
            w_v: pick(&self.w_v),
        }
    }

    /// This layer with head `t` replaced by `head` and its rows of `W_O` by `w_o`.
    ///
    /// # Panics
    /// If the shapes do not match head `t`'s.
    pub fn with_head(mut self, t: usize, head: &Head, w_o: &DMatrix<f64>) -> MultiHead {
        let old = self.head(t);
        assert_eq!(
            (
                head.w_q.shape(),
                head.w_k.shape(),
                head.w_v.shape(),
                w_o.shape()
            ),
            (
                old.w_q.shape(),
                old.w_k.shape(),
                old.w_v.shape(),
                self.w_o_block(t).shape()
            ),
            "with_head: the new head's shapes differ from head {t}'s"
        );
        let (d_k, d_v) = (head.w_q.ncols(), head.w_v.ncols());
        self.w_q.columns_mut(t * d_k, d_k).copy_from(&head.w_q);
        self.w_k.columns_mut(t * d_k, d_k).copy_from(&head.w_k);
        self.w_v.columns_mut(t * d_v, d_v).copy_from(&head.w_v);
        self.w_o.rows_mut(t * d_v, d_v).copy_from(w_o);
        self
    }

    /// Head `t`'s rows of `W_O`, `(d_v, d_out)`.
    pub fn w_o_block(&self, t: usize) -> DMatrix<f64> {
        let d_v = self.w_v.ncols() / self.h;
        self.w_o.rows(t * d_v, d_v).into_owned()
    }

    /// Run the layer on `x: (n, d)` with the heads whose `keep[t]` is false
    /// removed (their output zeroed before `W_O`); `mask` masks the scores.
    ///
    /// # Panics
    /// If `keep` does not have one entry per head or `x` has the wrong width.
    pub fn forward_keeping(&self, x: &DMatrix<f64>, mask: Mask, keep: &[bool]) -> MultiPass {
        assert_eq!(
            keep.len(),
            self.h,
            "forward_keeping: {} flags for {} heads",
            keep.len(),
            self.h
        );
        let passes: Vec<_> = (0..self.h).map(|t| self.head(t).forward(x, mask)).collect();
        // o_t (n, d_v), zeroed when head t is ablated
        let heads: Vec<DMatrix<f64>> = passes
            .iter()
            .zip(keep)
            .map(|(p, &k)| {
                if k {
                    p.output.clone()
                } else {
                    p.output.map(|_| 0.0)
                }
            })
            .collect();
        // [o_1 … o_h] (n, h·d_v) · W_O (h·d_v, d_out)
        let output = concat_heads(&heads) * &self.w_o;
        MultiPass {
            weights: passes.into_iter().map(|p| p.weights).collect(),
            heads,
            output,
        }
    }

    /// Run every head: split, attend, concatenate, `W_O`.
    ///
    /// ```
    /// use attention_geometry::attention::Mask;
    /// use attention_geometry::multi_head::MultiHead;
    /// use attention_geometry::random::{gaussian, seeded};
    /// let mut rng = seeded(0);
    /// let layer = MultiHead::random(&mut rng, 8, 2, 4, 4);
    /// let x = gaussian(&mut rng, 5, 8, 1.0);
    /// let pass = layer.forward(&x, Mask::Causal);
    /// assert_eq!((pass.weights.len(), pass.output.shape()), (2, (5, 8)));
    /// ```
    pub fn forward(&self, x: &DMatrix<f64>, mask: Mask) -> MultiPass {
        self.forward_keeping(x, mask, &vec![true; self.h])
    }

    /// The residual layer `x + out`.
    pub fn residual(&self, x: &DMatrix<f64>, mask: Mask, keep: &[bool]) -> DMatrix<f64> {
        x + self.forward_keeping(x, mask, keep).output
    }

    /// The same layer as one block-structured product: the heads' weights
    /// side by side times the block-diagonal matrix of their values.
    ///
    /// ```text
    /// [A_1 … A_h] (n, h·n) · diag(x W_V¹, …, x W_Vʰ) (h·n, h·d_v) · W_O
    /// ```
    pub fn block_form(&self, x: &DMatrix<f64>, mask: Mask) -> DMatrix<f64> {
        let n = x.nrows();
        let weights: Vec<DMatrix<f64>> = (0..self.h)
            .map(|t| self.head(t).forward(x, mask).weights)
            .collect();
        let values = split_heads(&(x * &self.w_v), self.h);
        let d_v = values[0].ncols();
        let mut diag = DMatrix::zeros(self.h * n, self.h * d_v);
        for (t, v) in values.iter().enumerate() {
            diag.view_mut((t * n, t * d_v), (n, d_v)).copy_from(v);
        }
        concat_heads(&weights) * diag * &self.w_o
    }
}
