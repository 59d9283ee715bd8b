//! Chapter 2: one random head and the prompt it reads — the sizes, and how
//! tokens are drawn — shared by the experiments on physical coverage.

use nalgebra::DMatrix;

use crate::attention::Head;
use crate::random::{Rng, gaussian, seeded};

/// Sizes of one head and its prompt: `n` tokens of width `d`, head widths `d_k = d_v`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub d: usize,
    pub d_head: usize,
}

/// The size the book reports. `d_head < n − 1`, so values leave room for
/// equivalent patterns.
pub const BOOK: Setup = Setup {
    n: 16,
    d: 16,
    d_head: 4,
};

/// A smaller head for the Jacobian pictures.
pub const SMALL: Setup = Setup {
    n: 8,
    d: 8,
    d_head: 4,
};

/// How tokens are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tokens {
    /// `x_j ~ N(0, I)`.
    Isotropic,
    /// `x_j = r_j z_j`, `z_j ~ N(0, I)`, `log r_j ~ N(0, 0.75²)`: tokens of unequal norm.
    Varied,
}

impl Tokens {
    pub const ALL: [Tokens; 2] = [Tokens::Isotropic, Tokens::Varied];

    pub fn name(self) -> &'static str {
        match self {
            Tokens::Isotropic => "isotropic",
            Tokens::Varied => "varied",
        }
    }
}

/// A prompt `(n, d)` drawn as asked.
pub fn prompt(rng: &mut Rng, setup: Setup, tokens: Tokens) -> DMatrix<f64> {
    let mut x = gaussian(rng, setup.n, setup.d, 1.0);
    if tokens == Tokens::Varied {
        let r = gaussian(rng, setup.n, 1, 0.75);
        for (i, mut row) in x.row_iter_mut().enumerate() {
            row *= r[(i, 0)].exp();
        }
    }
    x
}

/// A head and a prompt from one seed.
pub fn sample(setup: Setup, tokens: Tokens, seed: u64) -> (Head, DMatrix<f64>) {
    let mut rng = seeded(seed);
    let head = Head::random(&mut rng, setup.d, setup.d_head, setup.d_head);
    (head, prompt(&mut rng, setup, tokens))
}

/// Relative difference `‖a − b‖_F / ‖b‖_F`.
pub fn relative(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    (a - b).norm() / b.norm()
}
