//! Mathematical and physical coverage: the linear pieces a ReLU network cuts
//! its input space into, and the local linear map (the Jacobian) that one
//! forward pass of an attention head exposes.
//!
//! ```text
//! ReLU net:   h_0 = x,  h_l = relu(h_{l−1} W_l + b_l),  f(x) = h_{L−1} W_L + b_L
//!             on each activation pattern f is affine:  f(x) = x J_p + c_p
//! one head:   o_i = Σ_j α_ij v_j,   α_ij = softmax_j(x_i W_QK x_jᵀ / √d_k),   v_j = x_j W_V
//!             J = ∂ vec(o) / ∂ vec(x)   (row-major vec)
//! ```
//! Introduced in chapter 2.

use std::collections::VecDeque;

use nalgebra::{DMatrix, DVector};

use crate::attention::{Head, Mask};
use crate::random::{Rng, gaussian};

/// A fully connected ReLU network on row vectors: ReLU after every layer
/// but the last.
#[derive(Clone, Debug, PartialEq)]
pub struct ReluNet {
    /// `W_l`, `(d_{l−1}, d_l)`.
    pub weights: Vec<DMatrix<f64>>,
    /// `b_l`, `(1, d_l)`.
    pub biases: Vec<DMatrix<f64>>,
}

impl ReluNet {
    /// A network with layer widths `widths = [d_in, d_1, …, d_out]`,
    /// He-initialised weights `N(0, 2/d_in)` and biases `N(0, 1)`.
    ///
    /// # Panics
    /// If fewer than two widths are given.
    pub fn random(rng: &mut Rng, widths: &[usize]) -> ReluNet {
        assert!(
            widths.len() >= 2,
            "ReluNet::random needs at least [d_in, d_out], got {widths:?}"
        );
        let mut weights = Vec::new();
        let mut biases = Vec::new();
        for w in widths.windows(2) {
            weights.push(gaussian(rng, w[0], w[1], (2.0 / w[0] as f64).sqrt()));
            biases.push(gaussian(rng, 1, w[1], 1.0));
        }
        ReluNet { weights, biases }
    }

    /// Number of hidden ReLU units.
    pub fn hidden_units(&self) -> usize {
        self.weights[..self.weights.len() - 1]
            .iter()
            .map(|w| w.ncols())
            .sum()
    }

    /// Outputs and the activation pattern (which hidden units are on) of
    /// every row of `x`, packed 64 units to a word: with
    /// `w = ⌈hidden_units() / 64⌉` words per row, unit `u` of row `i` is bit
    /// `u % 64` of word `i·w + u / 64`.
    ///
    /// # Shapes
    /// `x: (m, d_in)` → `((m, d_out), m·w words)`.
    pub fn run(&self, x: &DMatrix<f64>) -> (DMatrix<f64>, Vec<u64>) {
        assert_eq!(
            x.ncols(),
            self.weights[0].nrows(),
            "ReluNet::run: x is {:?} but the net expects width {}",
            x.shape(),
            self.weights[0].nrows()
        );
        let words = self.hidden_units().div_ceil(64);
        let mut patterns = vec![0u64; words * x.nrows()];
        let mut h = x.clone();
        let last = self.weights.len() - 1;
        let mut unit = 0;
        for (l, (w, b)) in self.weights.iter().zip(&self.biases).enumerate() {
            // h_l = h_{l−1} W_l + 1 b_l
            h = &h * w;
            for (c, mut col) in h.column_iter_mut().enumerate() {
                col.add_scalar_mut(b[(0, c)]);
            }
            if l < last {
                for (c, mut col) in h.column_iter_mut().enumerate() {
                    let (word, bit) = ((unit + c) / 64, (unit + c) % 64);
                    for (i, v) in col.iter_mut().enumerate() {
                        if *v > 0.0 {
                            patterns[i * words + word] |= 1 << bit;
                        } else {
                            *v = 0.0;
                        }
                    }
                }
                unit += w.ncols();
            }
        }
        (h, patterns)
    }

    /// The network's Jacobian `∂f/∂x` at the row `x`: the product of the
    /// weight matrices with the off units' rows and columns zeroed. It is
    /// constant on each linear piece.
    ///
    /// # Shapes
    /// `x: (1, d_in)` → `(d_in, d_out)`, so that `f(x + dx) ≈ f(x) + dx J`.
    ///
    /// ```
    /// use attention_geometry::coverage::ReluNet;
    /// use attention_geometry::random::seeded;
    /// use nalgebra::dmatrix;
    /// let net = ReluNet::random(&mut seeded(0), &[2, 8, 1]);
    /// let (x, dx) = (dmatrix![0.3, -0.2], dmatrix![1e-7, 0.0]);
    /// let df = net.run(&(&x + &dx)).0 - net.run(&x).0;
    /// assert!((df - &dx * net.jacobian(&x)).norm() < 1e-12);
    /// ```
    pub fn jacobian(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        assert_eq!(
            x.nrows(),
            1,
            "ReluNet::jacobian takes one row, got {:?}",
            x.shape()
        );
        let pattern = self.run(x).1;
        let on = |u: usize| pattern[u / 64] >> (u % 64) & 1 == 1;
        let mut j = DMatrix::identity(x.ncols(), x.ncols());
        let mut unit = 0;
        let last = self.weights.len() - 1;
        for (l, w) in self.weights.iter().enumerate() {
            // J ← J W_l diag(on_l)
            j = &j * w;
            if l < last {
                for c in 0..w.ncols() {
                    if !on(unit + c) {
                        j.column_mut(c).fill(0.0);
                    }
                }
                unit += w.ncols();
            }
        }
        j
    }
}

/// A square window `[lo, hi]²` of the input plane sampled on a
/// `grid × grid` lattice, cut into the network's linear pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct Pieces {
    /// Lattice points per side.
    pub grid: usize,
    /// The window `[lo, hi]` on both axes.
    pub lo: f64,
    pub hi: f64,
    /// Piece label of lattice point `(row r, column c)` at `r * grid + c`;
    /// row `r` is `y = lo + r·step`, column `c` is `x = lo + c·step`.
    pub labels: Vec<usize>,
    /// Number of pieces: connected sets of lattice points with one activation pattern.
    pub count: usize,
}

/// The linear pieces of a network with two inputs over `[lo, hi]²`: lattice
/// points are joined when they are 4-neighbours with the same activation
/// pattern, so a piece is a connected region where the network is one
/// affine map (pieces thinner than the lattice step are missed).
///
/// # Panics
/// If the network does not take 2 inputs or `grid < 2`.
///
/// ```
/// use attention_geometry::coverage::{linear_pieces, ReluNet};
/// use nalgebra::dmatrix;
/// // one unit, relu(x − y): two pieces split by the diagonal
/// let net = ReluNet { weights: vec![dmatrix![1.0; -1.0], dmatrix![1.0]], biases: vec![dmatrix![0.0], dmatrix![0.0]] };
/// assert_eq!(linear_pieces(&net, -1.0, 1.0, 21).count, 2);
/// ```
pub fn linear_pieces(net: &ReluNet, lo: f64, hi: f64, grid: usize) -> Pieces {
    assert_eq!(
        net.weights[0].nrows(),
        2,
        "linear_pieces needs a network on the plane (2 inputs)"
    );
    assert!(grid >= 2, "linear_pieces needs grid ≥ 2, got {grid}");
    let step = (hi - lo) / (grid - 1) as f64;
    // lattice (grid², 2), row-major in (y, x)
    let points = DMatrix::from_fn(grid * grid, 2, |p, a| {
        lo + step * if a == 0 { p % grid } else { p / grid } as f64
    });
    let patterns = net.run(&points).1;
    let words = net.hidden_units().div_ceil(64);
    let pattern = |p: usize| &patterns[p * words..(p + 1) * words];
    let mut labels = vec![usize::MAX; grid * grid];
    let mut count = 0;
    for start in 0..grid * grid {
        if labels[start] != usize::MAX {
            continue;
        }
        labels[start] = count;
        let mut queue = VecDeque::from([start]);
        while let Some(p) = queue.pop_front() {
            let (r, c) = (p / grid, p % grid);
            let neighbours = [
                (r > 0).then(|| p - grid),
                (r + 1 < grid).then(|| p + grid),
                (c > 0).then(|| p - 1),
                (c + 1 < grid).then(|| p + 1),
            ];
            for q in neighbours.into_iter().flatten() {
                if labels[q] == usize::MAX && pattern(q) == pattern(p) {
                    labels[q] = count;
                    queue.push_back(q);
                }
            }
        }
        count += 1;
    }
    Pieces {
        grid,
        lo,
        hi,
        labels,
        count,
    }
}

/// The analytic Jacobian of one head's output with respect to its input
/// tokens: the local linear map one forward pass exposes.
///
/// ```text
/// ∂o_i/∂x_m = α_im W_Vᵀ + c α_im (v_m − o_i)ᵀ (x_i W_QK)
///           + [m = i] c Σ_j α_ij (v_j − o_i)ᵀ (x_j W_QKᵀ),      c = 1/√d_k
/// ```
///
/// # Shapes
/// `x: (n, d)` → `(n·d_v, n·d)`; row `i·d_v + a` is output entry `o_ia`,
/// column `m·d + b` is input entry `x_mb`.
///
/// # Panics
/// If `x` does not have the head's input width.
///
/// ```
/// use attention_geometry::attention::{Head, Mask};
/// use attention_geometry::coverage::{head_jacobian, numerical_jacobian};
/// use attention_geometry::random::{gaussian, seeded};
/// let mut rng = seeded(4);
/// let head = Head::random(&mut rng, 4, 3, 2);
/// let x = gaussian(&mut rng, 5, 4, 1.0);
/// let exact = head_jacobian(&head, &x, Mask::Causal);
/// let approx = numerical_jacobian(|x| head.forward(x, Mask::Causal).output, &x, 1e-5);
/// assert!((exact - approx).norm() < 1e-7);
/// ```
pub fn head_jacobian(head: &Head, x: &DMatrix<f64>, mask: Mask) -> DMatrix<f64> {
    let pass = head.forward(x, mask);
    let (n, d) = x.shape();
    let d_v = head.w_v.ncols();
    let c = 1.0 / (head.d_k() as f64).sqrt();
    let w_qk = head.w_qk();
    // v (n, d_v); a = x W_QK (n, d) is the query side, b = x W_QKᵀ (n, d) the key side
    let v = x * &head.w_v;
    let a = x * &w_qk;
    let b = x * w_qk.transpose();
    let w_vt = head.w_v.transpose();
    let mut jac = DMatrix::zeros(n * d_v, n * d);
    for i in 0..n {
        let o_i = pass.output.row(i);
        let mut own = DMatrix::zeros(d_v, d);
        for m in 0..n {
            let alpha = pass.weights[(i, m)];
            if alpha == 0.0 {
                continue;
            }
            let centred = (v.row(m) - o_i).transpose();
            // α_im W_Vᵀ + c α_im (v_m − o_i)ᵀ (x_i W_QK)
            let block = &w_vt * alpha + &centred * a.row(i) * (c * alpha);
            let mut view = jac.view_mut((i * d_v, m * d), (d_v, d));
            view += &block;
            // c α_im (v_m − o_i)ᵀ (x_m W_QKᵀ), summed into the block m = i
            own += &centred * b.row(m) * (c * alpha);
        }
        let mut view = jac.view_mut((i * d_v, i * d), (d_v, d));
        view += &own;
    }
    jac
}

/// Central-difference Jacobian of `f` at `x`, in the same layout as
/// [`head_jacobian`]: `(f.len(), x.len())` with both flattened row-major.
///
/// ```text
/// J[:, p] = (vec f(x + h e_p) − vec f(x − h e_p)) / 2h
/// ```
pub fn numerical_jacobian(
    f: impl Fn(&DMatrix<f64>) -> DMatrix<f64>,
    x: &DMatrix<f64>,
    h: f64,
) -> DMatrix<f64> {
    let (n, d) = x.shape();
    let rows = |m: DMatrix<f64>| DVector::from_iterator(m.len(), m.transpose().iter().cloned());
    let out = rows(f(x)).len();
    let mut jac = DMatrix::zeros(out, n * d);
    for p in 0..n * d {
        let (mut plus, mut minus) = (x.clone(), x.clone());
        plus[(p / d, p % d)] += h;
        minus[(p / d, p % d)] -= h;
        jac.set_column(p, &((rows(f(&plus)) - rows(f(&minus))) / (2.0 * h)));
    }
    jac
}

/// How strongly each input token moves each output: `‖∂o_i/∂x_m‖_F`.
///
/// # Shapes
/// `jac: (n·d_v, n·d)` → `(n, n)`.
///
/// # Panics
/// If `jac` does not split into `n × n` blocks.
pub fn influence(jac: &DMatrix<f64>, n: usize) -> DMatrix<f64> {
    let (r, c) = jac.shape();
    assert!(
        n > 0 && r % n == 0 && c % n == 0,
        "influence: a {r}×{c} Jacobian does not split into {n}×{n} blocks"
    );
    let (d_v, d) = (r / n, c / n);
    DMatrix::from_fn(n, n, |i, m| jac.view((i * d_v, m * d), (d_v, d)).norm())
}
