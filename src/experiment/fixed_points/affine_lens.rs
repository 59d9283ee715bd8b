//! A lens fitted per layer boundary (after Din et al. 2023): a ridge
//! least-squares affine map from the boundary's stream to the final stream,
//! both read at unit RMS, then the model's own final RMSNorm and unembedding.
//!
//! ```text
//! u(x)   = x / rms(x)                                  per row (the final norm ignores scale)
//! X_l    = u(h_l),  Y = u(h_L)                         held-out positions, (N, d)
//! A_l    = (X̃_lᵀ X̃_l + λ_l I)⁻¹ X̃_lᵀ Ỹ              X̃, Ỹ: centred; λ_l = ridge · tr(X̃_lᵀ X̃_l) / d
//! b_l    = ȳ − x̄_l A_l
//! lens_l = unembed(rms(u(h_l) A_l + b_l) ⊙ g_out)      boundary L keeps h_L: the model's own output
//! ```
//!
//! The unit-RMS reading keeps the first position's huge stream (the
//! attention sink) from dominating the fit; the final norm would discard
//! the scale anyway.
//!
//! Introduced in chapter 5.

use nalgebra::{DMatrix, DVector};

/// One affine map per boundary `0 … L − 1`; boundary `L` is the identity.
#[derive(Clone, Debug, PartialEq)]
pub struct AffineLens {
    /// `(A_l, x̄_l, ȳ)`: `(d, d)`, `(d)`, `(d)` per boundary.
    maps: Vec<(DMatrix<f64>, DVector<f64>, DVector<f64>)>,
}

/// Each row divided by its RMS: `x / √(mean(x²))`.
///
/// # Shapes
/// `x: (n, d)` → `(n, d)`.
pub fn unit_rms(x: &DMatrix<f64>) -> DMatrix<f64> {
    let d = x.ncols() as f64;
    let mut y = x.clone();
    for mut row in y.row_iter_mut() {
        let r = (row.norm_squared() / d).sqrt().max(f64::MIN_POSITIVE);
        row /= r;
    }
    y
}

/// The mean row and the rows minus it.
fn centred(x: &DMatrix<f64>) -> (DVector<f64>, DMatrix<f64>) {
    let mean = x.row_mean().transpose();
    let mut c = x.clone();
    for mut row in c.row_iter_mut() {
        row -= mean.transpose();
    }
    (mean, c)
}

impl AffineLens {
    /// Fit on held-out runs: `runs[s][l]` is sentence `s`'s stream at
    /// boundary `l`, `(n_s, d)`, the last boundary the final stream.
    ///
    /// # Panics
    /// If there are no runs, or runs disagree on the boundary count, or `ridge ≤ 0`.
    pub fn fit(runs: &[Vec<DMatrix<f64>>], ridge: f64) -> AffineLens {
        assert!(!runs.is_empty(), "AffineLens::fit: no held-out runs");
        assert!(
            ridge > 0.0,
            "AffineLens::fit: ridge {ridge} must be positive"
        );
        let boundaries = runs[0].len();
        assert!(
            runs.iter().all(|r| r.len() == boundaries),
            "AffineLens::fit: runs disagree on the boundary count"
        );
        // (N, d): every held-out position at boundary l, at unit RMS
        let stack = |l: usize| -> DMatrix<f64> {
            let rows: usize = runs.iter().map(|r| r[l].nrows()).sum();
            let mut x = DMatrix::zeros(rows, runs[0][l].ncols());
            let mut at = 0;
            for r in runs {
                x.rows_mut(at, r[l].nrows()).copy_from(&unit_rms(&r[l]));
                at += r[l].nrows();
            }
            x
        };
        let (y_mean, y) = centred(&stack(boundaries - 1));
        let maps = crate::parallel::map(0..boundaries as u64 - 1, |l| {
            let (x_mean, x) = centred(&stack(l as usize));
            let mut gram = x.tr_mul(&x);
            let lambda = ridge * gram.trace() / gram.nrows() as f64;
            for i in 0..gram.nrows() {
                gram[(i, i)] += lambda;
            }
            let a = gram
                .cholesky()
                .expect("a ridge-regularised Gram matrix is positive definite")
                .solve(&x.tr_mul(&y));
            (a, x_mean, y_mean.clone())
        });
        AffineLens { maps }
    }

    /// The streams as the lens reads them: boundary `l < L` mapped to the
    /// final stream's space, boundary `L` unchanged.
    ///
    /// # Shapes
    /// `states[l]: (n, d)` → the same.
    ///
    /// # Panics
    /// If `states` has a different boundary count from the fit.
    pub fn apply(&self, states: &[DMatrix<f64>]) -> Vec<DMatrix<f64>> {
        assert_eq!(
            states.len(),
            self.maps.len() + 1,
            "AffineLens::apply: {} boundaries, fitted on {}",
            states.len(),
            self.maps.len() + 1
        );
        let mut out: Vec<DMatrix<f64>> = self
            .maps
            .iter()
            .zip(states)
            .map(|((a, x_mean, y_mean), h)| {
                let mut x = unit_rms(h);
                for mut row in x.row_iter_mut() {
                    row -= x_mean.transpose();
                }
                let mut y = x * a;
                for mut row in y.row_iter_mut() {
                    row += y_mean.transpose();
                }
                y
            })
            .collect();
        out.push(states[states.len() - 1].clone());
        out
    }

    /// Per boundary, the share of the final stream's variance (at unit RMS)
    /// the map explains on `runs`: `1 − ‖Y − Ŷ‖² / ‖Y − ȳ‖²`.
    pub fn explained(&self, runs: &[Vec<DMatrix<f64>>]) -> Vec<f64> {
        let mut residual = vec![0.0; self.maps.len()];
        let mut total = 0.0;
        for r in runs {
            let y = unit_rms(&r[r.len() - 1]);
            let mapped = self.apply(r);
            for (l, m) in mapped[..self.maps.len()].iter().enumerate() {
                residual[l] += (&y - m).norm_squared();
            }
            let y_mean = &self.maps[0].2;
            total += y
                .row_iter()
                .map(|row| (row - y_mean.transpose()).norm_squared())
                .sum::<f64>();
        }
        residual.iter().map(|e| 1.0 - e / total).collect()
    }
}
