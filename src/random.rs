//! Seeded randomness: one portable generator for every experiment in the book.
//!
//! Every figure and every measured number starts from [`seeded`], so a run
//! with the same seed gives the same bytes on every machine.
//! Introduced in chapter 1.

use nalgebra::DMatrix;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// The book's random number generator (ChaCha8: portable and fast).
pub type Rng = ChaCha8Rng;

/// A generator seeded from `seed`.
pub fn seeded(seed: u64) -> Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A matrix with i.i.d. entries drawn from N(0, std²).
///
/// # Shapes
/// Output: `(rows, cols)`.
///
/// ```
/// use attention_geometry::random::{gaussian, seeded};
/// let a = gaussian(&mut seeded(7), 3, 2, 1.0);
/// let b = gaussian(&mut seeded(7), 3, 2, 1.0);
/// assert_eq!(a, b);
/// assert_eq!(a.shape(), (3, 2));
/// ```
pub fn gaussian(rng: &mut Rng, rows: usize, cols: usize, std: f64) -> DMatrix<f64> {
    DMatrix::from_fn(rows, cols, |_, _| {
        let z: f64 = StandardNormal.sample(rng);
        std * z
    })
}

/// A projection `(d_in, d_out)` with N(0, 1/d_in) entries: the usual
/// variance-preserving initialisation of `W_Q`, `W_K`, `W_V`.
pub fn projection(rng: &mut Rng, d_in: usize, d_out: usize) -> DMatrix<f64> {
    gaussian(rng, d_in, d_out, 1.0 / (d_in as f64).sqrt())
}

/// A uniformly random (Haar) orthogonal `n × n` matrix: QR of a Gaussian
/// matrix with the signs of `R`'s diagonal moved into `Q`.
///
/// ```
/// use attention_geometry::random::{orthogonal, seeded};
/// use nalgebra::DMatrix;
/// let q = orthogonal(&mut seeded(1), 4);
/// assert!((q.transpose() * &q - DMatrix::identity(4, 4)).norm() < 1e-12);
/// ```
pub fn orthogonal(rng: &mut Rng, n: usize) -> DMatrix<f64> {
    let qr = gaussian(rng, n, n, 1.0).qr();
    let r = qr.r();
    let mut q = qr.q();
    for j in 0..n {
        if r[(j, j)] < 0.0 {
            q.column_mut(j).neg_mut();
        }
    }
    q
}

/// `t` points drawn uniformly from the unit sphere in `d` dimensions, one per
/// row: Gaussian rows divided by their norm, `x_i / ‖x_i‖` exactly.
///
/// (The delta layer's [`crate::delta::l2_normalize`] adds `10⁻⁶` under the
/// root, as the kernels it mirrors do; memories of unit keys need the exact
/// norm.)
///
/// # Shapes
/// Output: `(t, d)`.
///
/// ```
/// use attention_geometry::random::{seeded, unit_rows};
/// let x = unit_rows(&mut seeded(2), 5, 3);
/// assert!(x.row_iter().all(|r| (r.norm() - 1.0).abs() < 1e-15));
/// ```
pub fn unit_rows(rng: &mut Rng, t: usize, d: usize) -> DMatrix<f64> {
    let mut x = gaussian(rng, t, d, 1.0);
    for mut r in x.row_iter_mut() {
        let n = r.norm();
        r /= n;
    }
    x
}
