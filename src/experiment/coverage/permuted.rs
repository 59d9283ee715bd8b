//! The within-model null of chapter 2's weight-versus-norm test: the carried
//! norm with the value norms permuted across the keys ranked, so that the
//! weight stays and only the norm's link to its key is broken.
//!
//! ```text
//! null_ij(π) = α_ij ‖f_π(j)‖,   π a uniform permutation of the ranked keys
//! ρ_null     = mean over DRAWS permutations of the mean over queries of ρ(null(π), E)
//!              (ρ Spearman over the keys query i sees, queries that see ≥ 3, as in
//!              super::sensitivity::row_rho_under)
//! ```

use nalgebra::DMatrix;
use rand::seq::SliceRandom;

use super::sensitivity::visible;
use crate::pretrained::transformer::Mask;
use crate::random::seeded;
use crate::stats::{pearson, ranks};

/// Permutations drawn per head and sentence.
pub const DRAWS: usize = 10;

/// `ρ_null` against each of `effects`, permutations drawn from `seed`.
///
/// # Shapes
/// `alpha` and each effect `(n, n)`, `fnorm: n` (`‖f_j‖`), `keys ⊆ 0..n`.
pub fn permuted_rho(
    mask: Mask,
    alpha: &DMatrix<f64>,
    fnorm: &[f64],
    keys: &[usize],
    effects: &[&DMatrix<f64>],
    seed: u64,
) -> Vec<f64> {
    let n = alpha.nrows();
    // each query that counts, with the ranked keys it sees
    let rows: Vec<(usize, Vec<usize>)> = (0..n)
        .filter(|&i| visible(mask, n, i) >= 3)
        .map(|i| {
            let seen = visible(mask, n, i);
            (i, keys.iter().copied().filter(|&j| j < seen).collect())
        })
        .collect();
    let row = |m: &dyn Fn(usize) -> f64, ks: &[usize]| {
        ranks(&ks.iter().map(|&j| m(j)).collect::<Vec<_>>())
    };
    // ranks of each effect, [effect][row]
    let effect_ranks: Vec<Vec<Vec<f64>>> = effects
        .iter()
        .map(|e| {
            rows.iter()
                .map(|(i, ks)| row(&|j| e[(*i, j)], ks))
                .collect()
        })
        .collect();
    let mut rng = seeded(seed);
    let mut sums = vec![0.0; effects.len()];
    for _ in 0..DRAWS {
        let mut order = keys.to_vec();
        order.shuffle(&mut rng);
        // key keys[k] carries the norm of key order[k]
        let mut norm = vec![0.0; n];
        for (&j, &from) in keys.iter().zip(&order) {
            norm[j] = fnorm[from];
        }
        let mut acc = vec![(0.0, 0usize); effects.len()];
        for (r, (i, ks)) in rows.iter().enumerate() {
            let null = row(&|j| alpha[(*i, j)] * norm[j], ks);
            for (a, e) in acc.iter_mut().zip(&effect_ranks) {
                let rho = pearson(&null, &e[r]);
                if rho.is_finite() {
                    *a = (a.0 + rho, a.1 + 1);
                }
            }
        }
        for (s, (sum, count)) in sums.iter_mut().zip(acc) {
            *s += sum / count as f64;
        }
    }
    sums.into_iter().map(|s| s / DRAWS as f64).collect()
}
